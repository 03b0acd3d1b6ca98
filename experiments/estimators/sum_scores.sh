#!/bin/bash
# Scores of one Gaussian sum query release (Andrew et al. 2024, Alg. 1) designed for every estimator:
# M sphere canaries, each inserted independently with probability 1/2 (the one-run
# design of Steinke, Nasr & Jagielski 2023): the canaries are i.i.d., so drawing the
# count K ~ Binomial(M, 1/2) (numpy, seeded) and inserting the first K is that design.
# The other M - K are scored as never inserted (label 0).
#   sum_scores.sh SIGMA SEED DIM M OUT.csv
set -euo pipefail
sigma=$1 seed=$2 dim=$3 m=$4 out=$5
tmp=$(mktemp -d "$(dirname "$out")/.sum-$seed.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
k=$("${PYTHON:-/usr/bin/python3}" -c "import numpy as np; print(np.random.default_rng($seed).binomial($m, 0.5))")
canary-gen --kind sphere --count "$k" --dim "$dim" --seed "$seed" >"$tmp/seen.json"
canary-gen --kind sphere --count "$((m - k))" --dim "$dim" --seed "$seed" --first-index "$k" >"$tmp/unseen.json"
dp-train sum --dim "$dim" --canaries "$tmp/seen.json" --noise "$sigma" --seed "$seed" --threads 2 -q -o - |
  score-dump --canaries "$tmp/seen.json" --unseen "$tmp/unseen.json" --model - --threads 2 -q >"$tmp/scores.csv"
mv "$tmp/scores.csv" "$out"
