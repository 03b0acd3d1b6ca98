"""experiments/canife.mk's canife-user-mock table: eps_r per audit with n = 100 and 1,000 mock rounds.

usage: user_mock.py DIR "SEEDS..." "N..." > summary.md
DIR/seed_<S>_n_<N>/ are dp-train canife runs that differ only in --audit-rounds N. Each row is
one audit (its round): eps_r and its 95% interval for every N, beside the largest finite eps_r
N scores can show (one error on each side, dp-train(1): log((1 - 3/N) / (2/N))) and the
theoretical eps of one round at delta 1e-5; then each run's eps_hat by Maddock et al. 2023's
code and with an infinite eps_r read as the cap, and the wall seconds its audits took.
"""
import csv
import json
import math
import sys

out, seeds, ns = sys.argv[1], sys.argv[2].split(), [int(n) for n in sys.argv[3].split()]
inf = float("inf")


def num(v):
    return inf if v in ("inf", "Infinity") else float(v)


def fmt(v):
    return "inf" if v == inf else f"{v:.2f}"


def cap(n):
    return math.log((1 - 3 / n) / (2 / n)) if n >= 6 else 0.0


print("## R4 with more mock rounds: eps_r per audit, eps 50's noise, the first rounds\n")
for s in seeds:
    runs = {n: json.load(open(f"{out}/seed_{s}_n_{n}/run.json")) for n in ns}
    audits = {n: list(csv.DictReader(open(f"{out}/seed_{s}_n_{n}/audits.csv"))) for n in ns}
    z = runs[ns[0]]["noise_multiplier"]
    print(f"Seed {s}, z = {z:.4f}:\n")
    print("| audit before round | " + " | ".join(f"eps_r, n = {n} [95%] (cap {cap(n):.2f})" for n in ns) +
          " | theoretical eps_r, delta 1e-5 | canary update norm |")
    print("|---|" + "---|" * (len(ns) + 2))
    for i, row in enumerate(audits[ns[0]]):
        cells = []
        for n in ns:
            r = audits[n][i]
            assert r["round"] == row["round"], (n, r["round"], row["round"])
            cells.append(f"{fmt(num(r['eps_r']))} [{fmt(num(r['eps_r_lower']))}, {fmt(num(r['eps_r_upper']))}]")
        norm = runs[ns[0]].get("canary_update_norms", [None] * len(audits[ns[0]]))[i]
        print(f"| {row['round']} | " + " | ".join(cells) + f" | {fmt(num(row['eps_r_theory_delta']))} | "
              + ("-" if norm is None else f"{norm:.3f}") + " |")
    print()
    print("| n | eps_hat, Maddock et al. 2023's code (a point estimate: Gaussian rounds) | eps_hat, inf read as the cap | separated audits | "
          "audits, wall s (design + mock) |")
    print("|---|---|---|---|---|")
    for n in ns:
        eps_r = [num(r["eps_r"]) for r in audits[n]]
        try:
            t = json.load(open(f"{out}/seed_{s}_n_{n}.timings.json"))
            seconds = sum(a.get("design_seconds", 0) + a.get("mock_seconds", 0) for a in t.get("audits", []))
            secs = f"{seconds:.0f}"
        except (OSError, ValueError):
            secs = "-"
        print(f"| {n} | {fmt(num(runs[n]['eps_hat']))} | {fmt(num(runs[n]['eps_hat_inf_capped']))} | "
              f"{sum(x == inf for x in eps_r)} of {len(eps_r)} | {secs} |")
    print()
