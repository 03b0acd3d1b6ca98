#!/bin/bash
# One run of Andrew et al. 2024, Alg. 1 for Table 2, as independent processes in one pipeline:
#   canary-gen > spec;  dp-train sum | score-dump | eps-from-scores
# Usage: run.sh SIGMA SEED DIM CANARIES THREADS OUT.eps [SCORES.csv]
# Writes OUT.eps: one line "eps_est eps_mean_only mu_hat sd_hat", where eps_est is the
# gauss-fit estimate of Alg. 1 line 10 (fitted mean and std against the cosine null) and
# eps_mean_only compares N(0,1/d) with N(mu_hat,1/d) (the std fixed at its limit 1/sqrt(d),
# Andrew et al. 2024, Thm 3.3). SCORES.csv, if given, keeps the cosines (for the figure).
set -euo pipefail
sigma=$1 seed=$2 dim=$3 count=$4 threads=$5 out=$6 keep=${7:-}
tmp=$(mktemp -d "$(dirname "$out")/.run-$seed.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

canary-gen --kind sphere --count "$count" --dim "$dim" --seed "$seed" >"$tmp/canaries.json"
dp-train sum --dim "$dim" --canaries "$tmp/canaries.json" --noise "$sigma" --seed "$seed" --threads "$threads" -o - |
  score-dump --canaries "$tmp/canaries.json" --model - --threads "$threads" |
  tee "$tmp/scores.csv" |
  eps-from-scores --null-dim "$dim" --method gauss-fit --delta 1e-6 --json >"$tmp/fit.json"

read -r eps mu sd < <("${PYTHON:-/usr/bin/python3}" -c '
import json, sys
j = json.load(open(sys.argv[1]))
print(j["epsilon"], j["fit_in"]["mean"], j["fit_in"]["std"])' "$tmp/fit.json")
eps_mean_only=$(eps-gauss2 --null-dim "$dim" --null gaussian --mu "$mu" \
  --sigma "$("${PYTHON:-/usr/bin/python3}" -c "import math; print(repr(1 / math.sqrt($dim)))")" --delta 1e-6)
if [ -n "$keep" ]; then mv "$tmp/scores.csv" "$keep"; fi
echo "$eps $eps_mean_only $mu $sd" >"$tmp/eps"
mv "$tmp/eps" "$out"
