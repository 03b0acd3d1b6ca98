#!/bin/bash
# Times eps-from-scores on 1,000,000 scores, reading included, for every method.
# usage: bench/eps_from_scores/run.sh BUILD_DIR [N]
# Inputs are made once by make_scores.py (seeded) under BUILD_DIR/bench-data/.
set -eu
build=$1
n=${2:-1000000}
here=$(cd "$(dirname "$0")" && pwd)
tool=$build/bin/eps-from-scores
data=$build/bench-data
mkdir -p "$data"
scores=$data/scores-$n.csv
cosines=$data/cosines-$n.csv
[ -s "$scores" ] || /usr/bin/python3 "$here/make_scores.py" "$n" "$scores"
[ -s "$cosines" ] || /usr/bin/python3 "$here/make_scores.py" "$n" "$cosines" --cosines 101770

# Best of 3 runs: wall-clock and CPU (user + sys) seconds, and peak memory.
run() {
  local label=$1; shift
  local best=999 cpu=999 mem=0
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %U %S %M" -o "$data/time" "$tool" "$@" >"$data/out"
    read -r s user sys kb <"$data/time"
    best=$(/usr/bin/python3 -c "print(min($best, $s))")
    cpu=$(/usr/bin/python3 -c "print(round(min($cpu, $user + $sys), 2))")
    mem=$kb
  done
  printf '| %-58s | %5s | %5s | %4d | %s |\n' "$label" "$best" "$cpu" $((mem / 1024)) "$(head -c 40 "$data/out" | head -1)"
}

echo "| command (n = $n scores) | wall s | CPU s | MiB | output |"
echo "|---|---|---|---|---|"
for m in threshold clopper-pearson jeffreys; do
  for t in bonferroni max split; do
    run "$m --thresholds $t" "$scores" -m "$m" --thresholds "$t"
  done
done
run "clopper-pearson --threshold 0.5" "$scores" --threshold 0.5
run "gauss-fit --delta 1e-5" "$scores" -m gauss-fit --delta 1e-5
run "clopper-pearson --json (with AUROC, TPR, Anderson-Darling)" "$scores" --json
for m in threshold jeffreys; do
  run "--null-dim 101770 -m $m (exact null)" "$cosines" --null-dim 101770 -m "$m"
done
run "--null-dim 101770 gauss-fit --delta 1e-6 (exact null)" "$cosines" --null-dim 101770 --delta 1e-6
run "--null-dim 101770 -m jeffreys --json (exact null)" "$cosines" --null-dim 101770 -m jeffreys --json
# The one-run and GDP estimators (issue 14): target 1 s on one core at 10^6 scores.
run "one-run --delta 1e-5 (bonferroni grid, 16 counts)" "$scores" -m one-run --delta 1e-5
run "one-run --delta 1e-5 --thresholds max (10^6 counts)" "$scores" -m one-run --delta 1e-5 --thresholds max
run "one-run --delta 1e-5 --guesses 1000:1000" "$scores" -m one-run --delta 1e-5 --guesses 1000:1000
run "one-run-fdp --delta 1e-5 (bonferroni grid)" "$scores" -m one-run-fdp --delta 1e-5
run "one-run-fdp --delta 1e-5 --curve dp (bonferroni grid)" "$scores" -m one-run-fdp --delta 1e-5 --curve dp
run "gdp --delta 1e-5 (bonferroni)" "$scores" -m gdp --delta 1e-5
run "gdp --delta 1e-5 --thresholds split" "$scores" -m gdp --delta 1e-5 --thresholds split
run "clopper-pearson --thresholds multi-split --splits 20 --threads 1" "$scores" --thresholds multi-split --splits 20 --threads 1
run "clopper-pearson --thresholds multi-split --splits 20 --threads 2" "$scores" --thresholds multi-split --splits 20 --threads 2
