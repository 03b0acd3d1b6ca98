#!/usr/bin/env bash
# experiments/canife.mk's user-level summary (R4): DIR "EPS..." -> summary.md on stdout,
# DIR/eps_<E>.dat for user.gp.
set -euo pipefail
dir=$1 eps_list=$2
"${PYTHON:-/usr/bin/python3}" - "$dir" "$eps_list" <<'PY'
import csv, json, statistics, sys
out, eps_list = sys.argv[1], sys.argv[2].split()
inf = float("inf")
def num(v):
    return inf if v == "inf" else float(v)
def fmt(v, digits=2):
    return "inf" if v == inf else f"{v:.{digits}f}"
def gap(theory, measured):  # "-" where the audits separate or show nothing
    return f"{theory / measured:.1f}x" if 0 < measured < inf else "-"
print("## R4: Maddock et al. 2023, Fig. 1/4 at user level (Fashion-MNIST, 3,000 label-skewed clients, 100 per round, "
      "300 rounds)\n")
print("| target eps | z | eps_r per audit: median (min - max) | separated audits | theoretical eps_r, "
      "delta 1e-5 / 1/n | gap: theory / median eps_r, 1e-5 / 1/n | eps_hat, Maddock et al. 2023's rule | eps_hat, inf as 3.88 | eps_hat, forward | "
      "health | test accuracy |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for e in eps_list:
    run = json.load(open(f"{out}/eps_{e}/run.json"))
    rows = list(csv.DictReader(open(f"{out}/eps_{e}/audits.csv")))
    eps_r = [num(r["eps_r"]) for r in rows]
    finite = [x for x in eps_r if x < inf] or [0.0]
    med = statistics.median(eps_r)
    t_delta, t_1n = num(rows[0]["eps_r_theory_delta"]), num(rows[0]["eps_r_theory_1n"])
    health = statistics.mean(float(r["health"]) for r in rows)
    print(f"| {e} | {run['noise_multiplier']:.3f} | {fmt(med)} ({fmt(min(eps_r))} - {fmt(max(eps_r))}) | "
          f"{sum(x == inf for x in eps_r)} of {len(eps_r)} | {fmt(t_delta)} / {fmt(t_1n)} | "
          f"{gap(t_delta, med)} / {gap(t_1n, med)} | {fmt(num(run['eps_hat']))} | "
          f"{fmt(num(run['eps_hat_inf_capped']))} | {fmt(num(run['empirical_forward']['eps_hat']))} | "
          f"{health:.4f} | {run['test_accuracy']:.3f} |")
    # eps_<E>.dat: per audit round: eps_r, its 95% interval ("?" when inf), the theory at
    # delta and at 1/n, the running eps_hat of Maddock et al. 2023's rule and of inf read as the cap.
    capped = [num(v) for v in run["empirical_backward"]["running_eps_hat"]]
    with open(f"{out}/eps_{e}.dat", "w") as dat:
        dat.write("# round eps_r lower upper theory_delta theory_1n running_eps_hat\n")
        for r, running in zip(rows, capped):
            vals = [num(r[k]) for k in ("eps_r", "eps_r_lower", "eps_r_upper", "eps_r_theory_delta",
                                         "eps_r_theory_1n")] + [running]
            dat.write(r["round"] + " " + " ".join("?" if v == inf else f"{v:.4f}" for v in vals) + "\n")
PY
