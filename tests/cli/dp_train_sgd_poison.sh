#!/usr/bin/env bash
# needs: dp-train
# dp-train sgd's input-crafting adversaries (Nasr et al. 2021, Crafters 2 and 3): bad input, the same
# bytes whatever --threads and however the trials are sharded (shadow models and crafted
# inputs included), and what --json reports about the crafting.
source "$SRC/tests/cli/lib.bash"
cd "$TMP"

SYN=(dp-train sgd --task synthetic --train-size 200 --steps 20 --quiet)

# --- bad input: one line on stderr, exit 2, nothing written
expect_error 2 "--threat api does not use it; it is for intermediate-poison and adaptive-poison \(--reduce\)" \
  "${SYN[@]}" --threat api --eps 1 --reduce max -o bad.csv
[ -e bad.csv ] && fail "bad.csv written on error"
expect_error 2 "--threat static-poison does not use it; it is for intermediate-poison and adaptive-poison \(--reduce\)" \
  "${SYN[@]}" --threat static-poison --eps 1 --reduce mean
expect_error 2 "unknown reduction 'median' \(max or mean\).*--reduce" "${SYN[@]}" --threat intermediate-poison --eps 1 --reduce median
expect_error 2 "does not use it; it is for adaptive-poison \(--adaptive-steps\)" \
  "${SYN[@]}" --threat intermediate-poison --eps 1 --adaptive-steps 5
expect_error 2 "does not use it; it is for adaptive-poison \(--craft-sign\)" "${SYN[@]}" --threat static-poison --eps 1 --craft-sign printed
expect_error 2 "unknown sign 'up' \(descent or printed\).*--craft-sign" "${SYN[@]}" --threat adaptive-poison --eps 1 --craft-sign up
expect_error 2 "--threat gradient-canary does not use it; it is for the poisoning threats \(--shadow-models\)" \
  "${SYN[@]}" --threat gradient-canary --eps 1 --shadow-models 4
expect_error 2 "at least one shadow model.*--shadow-models" "${SYN[@]}" --threat static-poison --eps 1 --shadow-models 0
expect_error 2 "logreg or mlp, not cnn.*--model" "${SYN[@]}" --threat adaptive-poison --eps 1 --model cnn
expect_error 2 "shadow data are the 1500 training examples after D, but synthetic has only 2000.*--train-size" \
  dp-train sgd --task synthetic --train-size 1500 --steps 5 --quiet --threat static-poison --eps 1
# a diverged model (lr 1e30: the logits overflow) loses no NaN to D2's max: an error, no file
expect_error 1 "score is nan in trial 0: training diverged, .* lower --lr, raise --eps or raise --q \(--lr\)$" \
  "${SYN[@]}" --threat intermediate-poison --eps 4 --lr 1e30 --trials 2 -o nan.csv
[ -e nan.csv ] && fail "nan.csv written on error"

# --- same bytes for --threads 1 and 2, and shards 0:4 + 4:6 concatenate to the whole run
for threat in static-poison intermediate-poison adaptive-poison; do
  expect_status 0 "${SYN[@]}" --threat $threat --eps 4 --trials 6 --threads 1 -o $threat-1.csv
  expect_status 0 "${SYN[@]}" --threat $threat --eps 4 --trials 6 --threads 2 -o $threat-2.csv
  cmp -s $threat-1.csv $threat-2.csv || fail "$threat: --threads 1 and 2 differ"
  expect_status 0 "${SYN[@]}" --threat $threat --eps 4 --trials 6 --trial-range 0:4 --threads 2 -o a.csv
  expect_status 0 "${SYN[@]}" --threat $threat --eps 4 --trials 6 --trial-range 4:6 --threads 1 -o b.csv
  # a shard's rows carry the shard columns after trial,label,score (docs/formats.md)
  cmp -s $threat-1.csv <(cut -d, -f1-3 a.csv; tail -n +2 b.csv | cut -d, -f1-3) ||
    fail "$threat: shards 0:4 + 4:6 differ from the whole run"
  CHECKS=$((CHECKS + 2))
done
# D2's max over theta_1 .. theta_T is at least their mean, trial by trial: the scores
# (-max, -mean) of the same models are ordered.
expect_status 0 "${SYN[@]}" --threat intermediate-poison --reduce mean --eps 4 --trials 6 -o mean.csv
"$PYTHON" - intermediate-poison-1.csv mean.csv <<'PY' || fail "-max above -mean"
import csv, sys
a, b = (list(csv.DictReader(open(p))) for p in sys.argv[1:])
assert len(a) == len(b) == 12
assert all(float(x["score"]) <= float(y["score"]) for x, y in zip(a, b))
assert any(float(x["score"]) < float(y["score"]) for x, y in zip(a, b))
PY
CHECKS=$((CHECKS + 1))

# --- --json: C2 raises the shadow models' mean loss on its input (measured: 1.93 to 6.88);
# C3 crafts a poison each time it is drawn: 4 label-1 runs of 20 steps at q = 0.1 draw it
# Binomial(80, 0.1) times, mean 8 (18 on seed 1, 3.7 sd high; 789 for 400 trials on seed 7)
got=$("${SYN[@]}" --threat adaptive-poison --eps 4 --trials 4 --json)
"$PYTHON" - "$got" <<'PY' || fail "crafting report: $got"
import json, sys
j = json.loads(sys.argv[1])
c = j["crafted"]
assert c["shadow_loss_final"] > 2 * c["shadow_loss_initial"], c
assert 1 <= j["crafts"] <= 30, j["crafts"]
assert j["reduce"] == "max" and j["craft_sign"] == "descent" and j["shadow_models"] == 8
PY
CHECKS=$((CHECKS + 1))

# --- --craft-steps 0: the natural query, C2's drawn example of D_shadow unchanged: the
# objective does not move, and the inserted member is the example whose crafting starts
# from it (the default run's initial loss is the same input's)
got=$("${SYN[@]}" --threat static-poison --craft-steps 0 --eps 4 --trials 2 --json)
"$PYTHON" - "$got" <<'PY' || fail "natural query: $got"
import json, sys
j = json.loads(sys.argv[1])
c = j["crafted"]
assert j["craft_steps"] == 0
assert c["shadow_loss_final"] == c["shadow_loss_initial"], c
PY
crafted=$("${SYN[@]}" --threat static-poison --eps 4 --trials 2 --json)
"$PYTHON" - "$got" "$crafted" <<'PY' || fail "natural and crafted queries start apart"
import json, sys
a, b = (json.loads(t)["crafted"] for t in sys.argv[1:])
assert a["shadow_loss_initial"] == b["shadow_loss_initial"], (a, b)
assert b["shadow_loss_final"] > 2 * a["shadow_loss_final"], (a, b)
PY
CHECKS=$((CHECKS + 2))

finish
