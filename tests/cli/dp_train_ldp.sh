#!/usr/bin/env bash
# needs: dp-train
# dp-train ldp (Matsumoto et al. 2022, Alg. 1-4): bad input, output format, thread-independence, the
# closed-form success rates of the dummy-gradient adversary, and a small Fig. 2 on the
# synthetic task (mlp, 8x8 inputs).
source "$SRC/tests/cli/lib.bash"
cd "$TMP"

expect_true() { CHECKS=$((CHECKS + 1)); "$PYTHON" -c "import sys; sys.exit(0 if ($2) else 1)" || fail "$1"; }
json_field() { "$PYTHON" -c "import json,sys; print(json.load(sys.stdin)[sys.argv[1]])" "$1"; }
DUMMY=(dp-train ldp --crafter dummy-gradient --dim 1001 --quiet)
SYN=(dp-train ldp --task synthetic --model mlp --pretrain-steps 300 --quiet)

# --- bad input: one line on stderr, exit 2, nothing on stdout or in -o FILE
expect_error 2 "eps must be a finite number > 0.*--eps" "${DUMMY[@]}" --eps 0
expect_error 2 "eps must be a finite number > 0.*--eps" "${DUMMY[@]}" --eps -1 -o bad.csv
[ -e bad.csv ] && fail "bad.csv written on error"
expect_error 2 "clipping norm L must be .*> 0.*--clip" "${DUMMY[@]}" --eps 1 --clip 0
expect_error 2 "clipping norm L" "${DUMMY[@]}" --eps 1 --clip -2
expect_error 2 "unknown crafter 'dummy'.*--crafter" dp-train ldp --crafter dummy --eps 1
expect_error 2 "unknown distinguisher 'grey-box'.*--distinguisher" "${DUMMY[@]}" --eps 1 --distinguisher grey-box
expect_error 2 "--trials: the number of trials K must be a whole number >= 1, got '0'" "${DUMMY[@]}" --eps 1 --trials 0
expect_error 2 "--trials: the number of trials K must be a whole number >= 1, got '-3'" "${DUMMY[@]}" --eps 1 --trials -3
expect_error 2 "--clients: the number of clients n must be a whole number >= 1" "${DUMMY[@]}" --eps 1 --clients 0
expect_error 2 "eps must be a finite number > 0, got nan" "${DUMMY[@]}" --eps nan
expect_error 2 "--radius: value -1 is not > 0" "${DUMMY[@]}" --eps 1 --radius -1
expect_error 2 "eps.*required" dp-train ldp --crafter dummy-gradient
expect_error 2 "--dim only applies to the dummy-gradient" dp-train ldp --crafter benign --eps 1 --dim 10
expect_error 2 "--dummy-norm only applies to the dummy-gradient" dp-train ldp --crafter benign --eps 1 --dummy-norm 2
expect_error 2 "--dummy-norm: value 0 is not > 0" "${DUMMY[@]}" --eps 1 --dummy-norm 0
expect_error 2 "malicious label must be below" "${SYN[@]}" --crafter collusion --eps 1 --malicious-label 10

# --- output: header, K rows of 0/1; -o and --json together; same bytes whatever --threads
expect_status 0 "${DUMMY[@]}" --eps 2 --trials 500 --threads 1 -o t1.csv
expect_status 0 "${DUMMY[@]}" --eps 2 --trials 500 --threads 2 -o t2.csv
expect_eq "$(head -1 t1.csv)" "label,guess" "CSV header"
expect_eq "$(wc -l <t1.csv)" 501 "one row per trial"
expect_eq "$(tail -n +2 t1.csv | grep -cv '^[01],[01]$')" 0 "rows are 0/1 pairs"
cmp -s t1.csv t2.csv || fail "--threads 1 and 2 differ (dummy gradient)"
CHECKS=$((CHECKS + 1))
expect_status 0 "${SYN[@]}" --crafter input-perturbation --distinguisher black-box --clients 3 --eps 1 --trials 200 --threads 1 -o s1.csv
expect_status 0 "${SYN[@]}" --crafter input-perturbation --distinguisher black-box --clients 3 --eps 1 --trials 200 --threads 2 -o s2.csv
cmp -s s1.csv s2.csv || fail "--threads 1 and 2 differ (model-based crafter)"
CHECKS=$((CHECKS + 1))
expect_status 0 "${DUMMY[@]}" --eps 2 --trials 500 --threads 2 -o t3.csv --json
cmp -s t1.csv t3.csv || fail "-o with --json writes the same decisions"
expect_eq "$(json_field trials <"$TMP/out")" 500 "JSON trials"
expect_eq "$(json_field dim <"$TMP/out")" 1001 "JSON dim"

# --- --trial-seed: the trials' streams only; --seed keeps the data, theta_t and its
# pre-training (issue 15: a rule chosen on one set of trials is checked on held-out ones).
expect_error 2 "--trial-seed: '-1' is not a whole number >= 0" "${DUMMY[@]}" --eps 1 --trial-seed -1
expect_error 2 "--trial-seed: '1.5' is not a whole number >= 0" "${DUMMY[@]}" --eps 1 --trial-seed 1.5
BENIGN_BB=("${SYN[@]}" --crafter benign --distinguisher black-box --clients 2 --eps 4 --trials 300)
HELD=("${BENIGN_BB[@]}" --seed 3)
# (a) leaving it out is --trial-seed = --seed, byte for byte, and the summary says so.
expect_status 0 "${HELD[@]}" --threads 1 -o held_default.csv --json
expect_eq "$(json_field trial_seed <"$TMP/out")" 3 "JSON trial_seed defaults to --seed"
accuracy3=$(json_field model_accuracy <"$TMP/out")
radius3=$(json_field radius <"$TMP/out")
expect_status 0 "${HELD[@]}" --trial-seed 3 --threads 1 -o held_same.csv
cmp -s held_default.csv held_same.csv || fail "no --trial-seed and --trial-seed = --seed differ"
CHECKS=$((CHECKS + 1))
# (b) another trial seed: the same theta_t (accuracy and ||theta_t||, the default radius),
# other decisions.
expect_status 0 "${HELD[@]}" --trial-seed 4 --threads 1 -o held4_t1.csv --json
expect_eq "$(json_field trial_seed <"$TMP/out")" 4 "JSON trial_seed"
expect_eq "$(json_field seed <"$TMP/out")" 3 "JSON seed beside --trial-seed"
expect_eq "$(json_field model_accuracy <"$TMP/out")" "$accuracy3" "--trial-seed keeps theta_t (accuracy)"
expect_eq "$(json_field radius <"$TMP/out")" "$radius3" "--trial-seed keeps theta_t (radius)"
cmp -s held_default.csv held4_t1.csv && fail "--trial-seed 4 plays the same trials as --trial-seed 3"
CHECKS=$((CHECKS + 1))
# ... while another --seed is another theta_t (its norm, the radius, changes).
expect_status 0 "${BENIGN_BB[@]}" --seed 4 --json
[ "$(json_field radius <"$TMP/out")" != "$radius3" ] || fail "--seed 4 keeps --seed 3's theta_t"
CHECKS=$((CHECKS + 1))
# (c) same bytes whatever --threads with --trial-seed set.
expect_status 0 "${HELD[@]}" --trial-seed 4 --threads 2 -o held4_t2.csv
cmp -s held4_t1.csv held4_t2.csv || fail "--trial-seed 4: --threads 1 and 2 differ"
CHECKS=$((CHECKS + 1))
# The dummy gradient with --dim reads no data and no model, so its trials depend on the
# trial seed alone: --seed 5 --trial-seed 1 plays t1.csv's trials (--seed 1) exactly.
expect_status 0 "${DUMMY[@]}" --eps 2 --trials 500 --seed 5 --trial-seed 1 -o dummy_t1.csv
cmp -s t1.csv dummy_t1.csv || fail "dummy gradient: --seed 5 --trial-seed 1 differs from --seed 1"
CHECKS=$((CHECKS + 1))

# --- white-box + dummy gradient reaches eps (Matsumoto et al. 2022, Prop. 1): the guess is right exactly when
# the response coin keeps the hemisphere, P = e^eps/(1+e^eps); Eq. 3 then gives eps.
for eps in 1 4; do
  expect_status 0 "${DUMMY[@]}" --eps $eps --trials 10000 --threads 2 -o wb$eps.csv --json
  correct=$(json_field correct <"$TMP/out")
  p=$("$PYTHON" -c "import math; print(1/(1+math.exp(-$eps)))")
  se=$("$PYTHON" -c "import math; print(5*math.sqrt($p*(1-$p)/10000))")
  expect_near "$("$PYTHON" -c "print($correct/10000)")" "$p" "$se" "white-box accuracy at eps $eps"
  # The sampling sd of Eq. 3 at K = 10,000 is about 0.04 (eps 1) and 0.1 (eps 4).
  expect_near "$(eps-from-scores --decisions wb$eps.csv --method threshold)" $eps 0.3 "Eq. 3 at eps $eps"
done

# --- a dummy gradient of norm R < L (Matsumoto et al. 2022, Fig. 3): the norm projection keeps its sign with
# probability 1/2 + R/(2L), so the white-box guess is right with probability
# 1/2 + (R/L) tanh(eps/2)/2 (0.7410 at R = 0.5, eps = 4); a norm above L is clipped to L.
expect_status 0 "${DUMMY[@]}" --eps 4 --trials 10000 --threads 2 --dummy-norm 0.5 --json
expect_eq "$(json_field dummy_norm <"$TMP/out")" 0.5 "JSON dummy_norm"
want=$("$PYTHON" -c "import math; print(0.5 + 0.5 * math.tanh(2) / 2)")
expect_near "$("$PYTHON" -c "print($(json_field correct <"$TMP/out")/10000)")" "$want" 0.022 "white-box accuracy at norm L/2"
expect_status 0 "${DUMMY[@]}" --eps 2 --trials 500 --dummy-norm 3 -o big.csv
cmp -s t1.csv big.csv || fail "a dummy norm above L is clipped to L (same decisions as the default)"
CHECKS=$((CHECKS + 1))

# --- black-box + dummy gradient (Eq. 7) with theta_t = 0: the guess follows the sign of
# sum_i sgn(v_i), whose correlation with <v, 1>/sqrt(d) is sqrt(2/pi); so P(correct) =
# p q + (1-p)(1-q) with q = 1/2 + asin(sqrt(2/pi))/pi = 0.79362 (d odd: no ties).
expect_status 0 "${DUMMY[@]}" --eps 4 --trials 10000 --threads 2 --distinguisher black-box --json
want=$("$PYTHON" -c "import math; p=1/(1+math.exp(-4)); q=0.5+math.asin(math.sqrt(2/math.pi))/math.pi; print(p*q+(1-p)*(1-q))")
expect_near "$("$PYTHON" -c "print($(json_field correct <"$TMP/out")/10000)")" "$want" 0.021 "black-box dummy accuracy"
bb1=$(json_field eps_empirical <"$TMP/out")
# More clients dilute the crafter's report in the average (Matsumoto et al. 2022, App. Table 3).
expect_status 0 "${DUMMY[@]}" --eps 4 --trials 10000 --threads 2 --distinguisher black-box --clients 10 --json
bb10=$(json_field eps_empirical <"$TMP/out")
expect_true "black-box eps falls with clients ($bb1 -> $bb10)" "$bb10 < $bb1 - 0.5"

# --- a small Fig. 2 (synthetic task, K = 1000, eps = 4). Measured with seed 1: benign
# white-box 0.11, collusion white-box 4.5, dummy white-box 4.4, dummy black-box 1.4.
fig2() { "${SYN[@]}" --eps 4 --trials 1000 --threads 2 --crafter "$1" --distinguisher "$2" | eps-from-scores --decisions - --method threshold; }
benign_wb=$(fig2 benign white-box)
collusion_wb=$(fig2 collusion white-box)
dummy_wb=$(fig2 dummy-gradient white-box)
dummy_bb=$(fig2 dummy-gradient black-box)
expect_true "benign white-box far below eps ($benign_wb)" "$benign_wb < 1.5"
expect_true "collusion white-box reaches eps ($collusion_wb)" "$collusion_wb > 3"
expect_true "dummy white-box reaches eps ($dummy_wb)" "$dummy_wb > 3"
expect_true "black-box below white-box ($dummy_bb < $dummy_wb)" "$dummy_bb < $dummy_wb - 1"

# --- help and version
expect_status 0 dp-train ldp --help
grep -q "EXAMPLES" "$TMP/out" || fail "--help has no EXAMPLES"
grep -q -- "--crafter" "$TMP/out" || fail "--help does not list --crafter"
expect_status 0 dp-train --version

# An explicit --radius 0 or --lr 0 (0 is the unset default inside) was silently the default.
expect_error 2 "--radius: value 0 is not > 0" dp-train ldp --task synthetic --model logreg --crafter dummy-gradient --trials 5 --eps 1 --radius 0
expect_error 2 "--lr: value 0 is not > 0" dp-train ldp --task synthetic --model logreg --crafter dummy-gradient --distinguisher black-box --trials 5 --eps 1 --lr 0
# --threads is a whole number in [0, 1024] (-1 was accepted).
expect_error 2 "--threads: value -1 is not a thread count" dp-train ldp --task synthetic --crafter dummy-gradient --trials 5 --eps 1 --threads -1
expect_error 2 "--threads: value 1.5 is not a thread count" canary-gen --dim 4 --npy --threads 1.5
finish
