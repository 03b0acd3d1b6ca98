#!/bin/bash
# Coverage of two 95% lower bounds, measured on the real eps-from-scores (the small version of
# make -C experiments coverage): 200 seeded runs of two Gaussians, out N(0,1) and in N(2,1),
# 1,000 scores per class, delta 1e-5 (true eps 9.99726, eps-gauss2), with clopper-pearson
# (Bonferroni over the distinct scores) and one-run (Bonferroni over its grid of guess counts).
#
# A sound 95% bound lies above the true eps in at most 5% of runs, so its failure count over 200
# independent runs is at most Binomial(200, 0.05) in distribution. The test fails when a count
# reaches K = 28, the smallest k with P(Binomial(200, 0.05) >= k) < 1e-6:
#   scipy.stats.binom.sf(27, 200, 0.05) = 9.60e-07, binom.sf(26, 200, 0.05) = 3.01e-06,
# so a sound estimator trips it with probability below 1e-6 per estimator (below 2e-6 here).
source "$SRC/tests/cli/lib.bash"
K=28

expect_status 0 "$PYTHON" "$SRC/experiments/coverage/run_cell.py" --bin "$BIN" --cell gauss-mu2-n1000 --runs 200 \
  --rows clopper-pearson/bonferroni,one-run/bonferroni -o "$TMP/cell.json"
expect_status 0 "$PYTHON" - "$TMP/cell.json" "$K" <<'PY'
import json, sys
cell, k = json.load(open(sys.argv[1])), int(sys.argv[2])
truth = cell["true_epsilon"]["1e-05"]
assert abs(truth - 9.99726) < 1e-5, truth  # eps-gauss2 --mu1 0 --sigma1 1 --mu2 2 --sigma2 1 --delta 1e-5
bad = 0
for key, row in cell["rows"].items():
    v = row["values"]
    fails = sum(x > truth for x in v)
    mean = sum(v) / len(v)
    print(f"{key}: {fails} of {len(v)} above the true eps, mean bound {mean:.4f}", file=sys.stderr)
    if len(v) != 200 or row["errors"]:
        print(f"FAIL: {key}: {len(v)} runs, errors {row['errors'][:1]}", file=sys.stderr)
        bad += 1
    if fails >= k:
        print(f"FAIL: {key}: {fails} failures reach K = {k}", file=sys.stderr)
        bad += 1
sys.exit(bad)
PY
# Tightness, so a tool that printed 0 would not pass: the mean bounds of these 200 runs (seeded,
# so the same on every machine with the same numpy) are measured in experiments/coverage.md.
read -r cp one_run < <("$PYTHON" -c '
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
print(*(sum(rows[k]["values"]) / 200 for k in ("clopper-pearson/bonferroni", "one-run/bonferroni")))' "$TMP/cell.json")
expect_near "$cp" 2.62066 1e-4r "mean clopper-pearson bound"
expect_near "$one_run" 3.01836 1e-4r "mean one-run bound"
finish
