#!/usr/bin/env python3
"""Matsumoto et al. 2022, App. Table 3: table3.py RUN.json... > table3.md (benign crafter, black-box Eq. 6).

One row per (server constant, clients n, eps, seed): FPR, FNR, Eq. 3 as printed (with its
95% Clopper-Pearson bound), and Eq. 3 of the reversed rule (every guess negated: g1 iff
|delta(x1)| < |delta(x2)|), beside Matsumoto et al. 2022's MNIST column. Runs whose trial seed differs from
their seed (dp-train ldp --trial-seed) are held-out trials of that seed's theta_t: their
FPR + FNR and the reversed rule's Eq. 3 (CP 95%) go beside the row of the same cell and
seed (several trial seeds: separated by " / "; none: "-").

table3.py --models RUN.json... > table3_models.md: one row per (server constant, clients n, eps)
over the runs' models (seeds): Eq. 3 of each rule as mean +- sd [min, max], and in how many
models its 95% Clopper-Pearson bound is above 0."""
import json
import sys

PAPER = {1: 0.12, 2: 0.07, 4: 0.06, 10: 0.06}  # Matsumoto et al. 2022, App. Table 3 (MNIST; eps not given)


def cell(r):
    return r["server_constant"], r["clients"], r["eps"], r["seed"]


def trial_seed(r):
    return r.get("trial_seed", r["seed"])  # runs made before --trial-seed played the seed's trials


def eq3(r, suffix=""):
    return f"{float(r['eps_eq3' + suffix]):.2f} ({float(r['eps_cp95' + suffix]):.2f})"


def spread(values):
    """mean +- sd [min, max] of a list of numbers (sd with n - 1; 0 for one value)."""
    n = len(values)
    mean = sum(values) / n
    sd = (sum((v - mean) ** 2 for v in values) / (n - 1)) ** 0.5 if n > 1 else 0.0
    return f"{mean:.3f} +- {sd:.3f} [{min(values):.2f}, {max(values):.2f}]"


def models(runs):
    groups = {}
    for r in runs:
        groups.setdefault((r["server_constant"], r["clients"], r["eps"]), []).append(r)
    print("| server constant | clients n | eps | models | FPR + FNR | Eq. 3 as printed: mean +- sd [min, max] | "
          "CP 95% > 0 | reversed rule: mean +- sd [min, max] | CP 95% > 0 | Matsumoto et al. 2022 (MNIST) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for (constant, n, eps), rs in sorted(groups.items()):
        if len({r["seed"] for r in rs}) != len(rs):
            sys.exit(f"table3.py: error: two runs of one seed in {(constant, n, eps)}")
        cells = [spread([r["false_positive_rate"] + r["false_negative_rate"] for r in rs])]
        for suffix in ("", "_reversed"):
            cells.append(spread([float(r["eps_eq3" + suffix]) for r in rs]))
            cells.append(f"{sum(float(r['eps_cp95' + suffix]) > 0 for r in rs)} of {len(rs)}")
        print(f"| {constant} | {n} | {eps:g} | {len(rs)} | {' | '.join(cells)} | {PAPER.get(n, '-')} |")


def main():
    if sys.argv[1:2] == ["--models"]:
        models([json.load(open(p)) for p in sys.argv[2:]])
        return
    runs = [json.load(open(p)) for p in sys.argv[1:]]
    held_out = {}
    for r in runs:
        if trial_seed(r) != r["seed"]:
            held_out.setdefault(cell(r), []).append(r)
    print("| server constant | clients n | eps | seed | FPR | FNR | FPR + FNR | Eq. 3 (CP 95%) | "
          "reversed rule: Eq. 3 (CP 95%) | held-out trials: trial seed | FPR + FNR | "
          "reversed rule: Eq. 3 (CP 95%) | Matsumoto et al. 2022 (MNIST) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in runs:
        if trial_seed(r) != r["seed"]:
            continue
        fpr, fnr = r["false_positive_rate"], r["false_negative_rate"]
        held = held_out.pop(cell(r), [])
        for h in held:
            # Held-out trials must be played on the same theta_t (same --seed, same model).
            if (h["radius"], h.get("model_accuracy")) != (r["radius"], r.get("model_accuracy")):
                sys.exit(f"table3.py: error: held-out trials of {cell(r)} were played on another model")
        columns = [" / ".join(values) or "-" for values in (
            [str(trial_seed(h)) for h in held],
            [f"{h['false_positive_rate'] + h['false_negative_rate']:.4f}" for h in held],
            [eq3(h, "_reversed") for h in held])]
        print(f"| {r['server_constant']} | {r['clients']} | {r['eps']:g} | {r['seed']} | {fpr:.4f} | {fnr:.4f} | "
              f"{fpr + fnr:.4f} | {eq3(r)} | {eq3(r, '_reversed')} | {' | '.join(columns)} | "
              f"{PAPER.get(r['clients'], '-')} |")
    if held_out:
        sys.exit(f"table3.py: error: held-out trials without their seed's run: {sorted(held_out)}")


if __name__ == "__main__":
    main()
