#!/usr/bin/env bash
# Where Nasr et al. 2021's 3.6 (Sec. IV-F, Fig. 8: the malicious-dataset game at "eps 4", the
# best threshold's Clopper-Pearson bound without a correction for choosing it) falls among
# seeds of the simulated game with the noise calibrated as theirs is, by RDP (issue 25). For each
# setting SIGMA-free "q:steps" and each seed: dp-train sgd --engine simulate at the RDP noise
# for eps 4 (rdp-compose --eps 4), N trials a hypothesis; eps-from-scores' Clopper-Pearson bound
# at delta 1e-5, uncorrected (their reading), Bonferroni and split (valid). Prints one table.
# usage: EPS4_SETTINGS="0.0042666666666666667:14062 0.1:100" EPS4_SEEDS="1 2 ..." EPS4_TRIALS=N eps4_spread.sh
set -euo pipefail
settings=${EPS4_SETTINGS:-"0.0042666666666666667:14062 0.1:100"}
seeds=${EPS4_SEEDS:-$(seq 1 20)}
trials=${EPS4_TRIALS:-1000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| q | steps | noise (RDP, eps 4) | PLD eps at that noise | trials | uncorrected: median [min, max] | P(uncorrected >= 3.6) | Bonferroni: median [min, max] | split: median [min, max] |"
echo "|---|---|---|---|---|---|---|---|---|"
for s in $settings; do
  IFS=: read -r q steps <<<"$s"
  sigma=$(rdp-compose --eps 4 --q "$q" --steps "$steps" --delta 1e-5)
  pld=$(rdp-compose --accountant pld --sigma "$sigma" --q "$q" --steps "$steps" --delta 1e-5)
  : >"$tmp/rows"
  for seed in $seeds; do
    dp-train sgd --threat malicious-dataset --engine simulate --noise-multiplier "$sigma" --q "$q" \
      --steps "$steps" --trials "$trials" --seed "$seed" --threads 1 --quiet -o "$tmp/s.csv"
    u=$(eps-from-scores -q "$tmp/s.csv" --delta 1e-5 --method clopper-pearson --thresholds uncorrected)
    b=$(eps-from-scores -q "$tmp/s.csv" --delta 1e-5 --method clopper-pearson)
    p=$(eps-from-scores -q "$tmp/s.csv" --delta 1e-5 --method clopper-pearson --thresholds split)
    echo "$u $b $p" >>"$tmp/rows"
  done
  "${PYTHON:-/usr/bin/python3}" - "$tmp/rows" "$q" "$steps" "$sigma" "$pld" "$trials" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
q, steps, sigma, pld, trials = sys.argv[2:7]
def col(i):
    v = sorted(r[i] for r in rows)
    return f"{statistics.median(v):.2f} [{v[0]:.2f}, {v[-1]:.2f}]"
above = sum(r[0] >= 3.6 for r in rows)
print(f"| {float(q):.4g} | {steps} | {float(sigma):.4f} | {float(pld):.3f} | {trials} | {col(0)} | "
      f"{above}/{len(rows)} | {col(1)} | {col(2)} |")
PY
done
