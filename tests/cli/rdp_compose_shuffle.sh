#!/bin/bash
# rdp-compose --sampling shuffle: the certified lower bound of shuffled batches (Chua et al.
# 2024's pair) beside the Poisson upper bound at q = 1/B over E*B steps and the bound without
# amplification; closed form at one batch an epoch, golden values from
# tests/golden/shuffle_lower_bound.py, the verdict both ways, the option rules.
source "$SRC/tests/cli/lib.bash"

json() { "$PYTHON" -c "import json,sys; j=json.load(open('$TMP/out')); print($1)"; }

# One batch an epoch: the pair is the Gaussian mechanism, E times; exact eps 8.385418924216829
# (Balle & Wang at sigma 1/sqrt(3), the no-amplification line): the lower bound meets it from
# below within 2e-4; Poisson at q = 1 is the same mechanism, its upper bound is the larger
expect_status 0 rdp-compose --sampling shuffle --sigma 1 --epochs 3 --batches 1 --delta 1e-5 --json
expect_near "$(json "j['eps_upper_no_amplification']")" 8.385418924216829 1e-9r "E Gaussian mechanisms"
expect_near "$(json "j['eps_lower']")" 8.385418924216829 2e-4r "B = 1: lower bound at the exact eps"
expect_eq "$(json "j['eps_lower'] <= j['eps_upper_no_amplification'] <= j['poisson']['eps']")" True "B = 1: lower <= exact <= Poisson upper"
expect_eq "$(json "j['larger'], j['poisson_understates'], j['adjacency'], j['accountant']")" "poisson False zero-out pld" "B = 1: verdict"

# [golden] s 1, B 10, E 10, delta 1e-5: the pair's eps is in [15.150782128765922,
# 15.15192431867122] (tests/golden/shuffle_lower_bound.py); Poisson at q 0.1 over 100 steps
# is far below it (the PLD accountant's own number, byte for byte): understated
expect_status 0 rdp-compose --sampling shuffle --sigma 1 --epochs 10 --batches 10 --delta 1e-5 --json
expect_near "$(json "j['eps_lower']")" 15.150782128765922 1e-4r "golden lower bound"
expect_eq "$(json "j['eps_lower'] <= 15.15192431867122")" True "below the pair's exact eps"
expect_eq "$(json "j['larger'], j['poisson_understates'], j['poisson']['q'], j['poisson']['steps']")" "shuffle_lower True 0.1 100" "understated"
lower=$(json "repr(j['eps_lower'])")
poisson=$(json "repr(j['poisson']['eps'])")
expect_status 0 rdp-compose --accountant pld --sigma 1 --q 0.1 --steps 100 --delta 1e-5
expect_eq "$(cat "$TMP/out")" "$poisson" "the Poisson bound is rdp-compose's own"
# the text: the three numbers, and the verdict naming both
expect_status 0 rdp-compose --sampling shuffle --sigma 1 --epochs 10 --batches 10 --delta 1e-5
expect_eq "$(head -1 "$TMP/out" | awk '{print $NF}')" "$lower" "text: the lower bound first"
expect_eq "$(sed -n 2p "$TMP/out" | awk '{print $NF}')" "$poisson" "text: the Poisson bound second"
grep -q "^the shuffled lower bound is larger: a pipeline that reports Poisson accounting for these shuffled batches understates its eps" "$TMP/out" \
  || fail "text: no verdict ($(cat "$TMP/out"))"
[ -s "$TMP/err" ] && fail "stderr not empty: $(cat "$TMP/err")"

# --accountant rdp: the Poisson bound by RDP, as rdp-compose prints it
expect_status 0 rdp-compose --sampling shuffle --accountant rdp --sigma 2 --epochs 5 --batches 100 --delta 1e-5 --json
rdp=$(json "repr(j['poisson']['eps'])")
expect_status 0 rdp-compose --sigma 2 --q 0.01 --steps 500 --delta 1e-5
expect_eq "$(cat "$TMP/out")" "$rdp" "the RDP Poisson bound"

# the rules
expect_error 2 "^rdp-compose: error: --q cannot be used with --sampling shuffle$" \
  rdp-compose --sampling shuffle --sigma 1 --epochs 10 --batches 10 --q 0.1 --delta 1e-5
expect_error 2 "^rdp-compose: error: --batches is required with --sampling shuffle$" \
  rdp-compose --sampling shuffle --sigma 1 --epochs 10 --delta 1e-5
expect_error 2 "^rdp-compose: error: --epochs cannot be used without --sampling shuffle or balls-in-bins$" \
  rdp-compose --sigma 1 --q 0.1 --steps 10 --epochs 3 --delta 1e-5
expect_error 2 "must be a bound: pld or rdp .*\(--accountant\)$" \
  rdp-compose --sampling shuffle --accountant gdp --sigma 1 --epochs 10 --batches 10 --delta 1e-5
expect_error 2 "^rdp-compose: error: the steps E\*B of the Poisson comparison are beyond 2\^63 - 1 \(--epochs\)$" \
  rdp-compose --sampling shuffle --sigma 1 --epochs 9223372036854775807 --batches 10 --delta 1e-5
expect_error 2 "^rdp-compose: error: --batches: " \
  rdp-compose --sampling shuffle --sigma 1 --epochs 10 --batches 0 --delta 1e-5
expect_error 1 "^rdp-compose: error: noise 0.01 is too small for the shuffled lower bound: the pair's masses underflow double" \
  rdp-compose --sampling shuffle --sigma 0.01 --epochs 3 --batches 100 --delta 1e-5
finish
