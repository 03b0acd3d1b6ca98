#!/usr/bin/env bash
# experiments/canife.mk's summary: OUT "SEEDS" -> summary.md on stdout, OUT/eps_r.dat.
set -euo pipefail
out=$1 seeds=$2
# Andrew et al. 2024's random canaries on the same training: eps_est (Gaussian fit against the cosine
# null, delta 1e-5) on the final model, and on every round's aggregate the Jeffreys bound
# (the max-over-rounds cosines of canaries that take part about once are far from
# Gaussian: a Gaussian fit to them extrapolates to 179, above the analytic 78.5).
final=$(eps-from-scores -q "$out/random/scores_final.csv" --null-dim 101770 --method gauss-fit --delta 1e-5)
all=$(eps-from-scores -q "$out/random/scores_all.csv" --method jeffreys --delta 1e-5)
"${PYTHON:-/usr/bin/python3}" - "$out" "$seeds" "$final" "$all" <<'PY'
import csv, json, statistics, sys
out, seeds, final, all_ = sys.argv[1], sys.argv[2].split(), float(sys.argv[3]), float(sys.argv[4])
runs = [json.load(open(f"{out}/r1_{s}/run.json")) for s in seeds]
def num(v):
    return float("inf") if v == "inf" else float(v)
def ms(values):
    values = [num(v) for v in values]
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return f"{statistics.mean(values):.3f} +- {sd:.3f}"
a = runs[0]["analytic"]
print(f"## R1: Andrew et al. 2024, Sec. 5.4 (mlp 784-128-10, lots of 128, clip 1, noise 0.2, one epoch), {len(runs)} seeds\n")
print("| quantity | ours (mean +- sd) | Andrew et al. 2024 |")
print("|---|---|---|")
print(f"| analytic eps, one round without amplification (RDP / exact Gaussian) | "
      f"{num(a['eps_one_round_rdp']):.2f} / {num(a['eps_one_round_gaussian']):.2f} | 34.5 |")
print(f"| analytic eps of the run (RDP, Poisson q = 128/60000, 469 rounds) | {num(a['eps_rdp_run']):.2f} | - |")
print(f"| CANIFE eps_hat, Maddock et al.'s code since Feb. 2023 (inf eps_r -> the run's sigma) | {ms([r['empirical_backward']['eps_hat'] for r in runs])} | 0.879 +- 0.124 |")
print(f"| CANIFE eps_hat, inf eps_r read as 3.88 | {ms([r['eps_hat_inf_capped'] for r in runs])} | |")
print(f"| CANIFE eps_hat, forward covering | {ms([r['empirical_forward']['eps_hat'] for r in runs])} | |")
if all("empirical_code_2022" in r for r in runs):  # dp-train canife since --eps-hat
    v = [num(r["empirical_code_2022"]["eps_hat"]) for r in runs]
    finite = [x for x in v if x != float("inf")]
    print(f"| CANIFE eps_hat, Maddock et al.'s first public code (Oct. 2022) | "
          f"{ms(finite) if finite else 'inf'}{f' ({len(v) - len(finite)} of {len(v)} inf)' if len(finite) < len(v) else ''} | |")
eps_r = [num(x["eps_r"]) for r in runs for x in r["audits"]]
print(f"| audits with eps_r = inf (scores separated) | {sum(e == float('inf') for e in eps_r)} of {len(eps_r)} | |")
print(f"| canary health | {ms([x['health'] for r in runs for x in r['audits']])} | |")
print(f"| test accuracy after one epoch | {ms([r['test_accuracy'] for r in runs])} | |")
print(f"| random canaries (seed 1): eps_est on the final model / Jeffreys 95% bound over every round | "
      f"{final:.2f} / {all_:.2f} | 6.76 +- 1.06 |")
print()
print("## R2: the spread of the audit scores (Maddock et al. 2023, Fig. 3a/b), 64 clients per round, after 150 rounds\n")
print("| noise z | sd with canary | sd without | mean with | mean without | eps_r |")
print("|---|---|---|---|---|---|")
for z in ("0.001", "0.423"):
    rows = list(csv.DictReader(open(f"{out}/r2_{z}/audits.csv")))
    r = rows[-1]
    print(f"| {z} | {float(r['with_sd']):.4f} | {float(r['without_sd']):.4f} | {float(r['with_mean']):.3f} | "
          f"{float(r['without_mean']):.3f} | {num(r['eps_r']):.2f} |")
# eps_r.dat: per audit round of seed 1: round, eps_r, lower, upper (each "?" when inf),
# theory at delta, theory at 1/n, and the lower bound again for separated audits only.
with open(f"{out}/eps_r.dat", "w") as dat:
    dat.write("# round eps_r lower upper theory_delta theory_1n separated_lower\n")
    for r in csv.DictReader(open(f"{out}/r1_{seeds[0]}/audits.csv")):
        vals = [num(r[k]) for k in ("eps_r", "eps_r_lower", "eps_r_upper", "eps_r_theory_delta", "eps_r_theory_1n")]
        vals.append(vals[1] if vals[0] == float("inf") else float("inf"))
        dat.write(r["round"] + " " + " ".join("?" if v == float("inf") else f"{v:.4f}" for v in vals) + "\n")
PY
