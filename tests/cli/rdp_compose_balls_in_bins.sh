#!/bin/bash
# rdp-compose --sampling balls-in-bins: the Monte Carlo upper bound at a stated confidence and
# the plain estimate (lib/stats/balls_in_bins_bound.hpp) beside the Poisson bound at q = 1/B
# over E*B steps and the bound without amplification: the Gaussian mechanism at one batch an
# epoch, the exact value at two (tests/golden/balls_in_bins.py), the estimate below Poisson
# (as the theory says), byte-identical output for any --threads, the option rules.
source "$SRC/tests/cli/lib.bash"

json() { "$PYTHON" -c "import json,sys; j=json.load(open('$TMP/out')); print($1)"; }

# One batch an epoch: E Gaussian mechanisms at sigma 1, exact eps 14.079 at delta 1e-3 over
# 10 epochs (the no-amplification line, Balle & Wang): the bound holds it, the estimate is
# within 1%
expect_status 0 rdp-compose --sampling balls-in-bins --sigma 1 --epochs 10 --batches 1 --delta 1e-3 --samples 50000 --json
exact=$(json "j['eps_upper_no_amplification']")
expect_near "$exact" 14.0794 1e-4r "B = 1: E Gaussian mechanisms"
expect_eq "$(json "j['eps_upper'] >= j['eps_upper_no_amplification']")" True "B = 1: the bound holds the exact eps"
expect_near "$(json "j['eps_estimate']")" "$exact" 0.01r "B = 1: the estimate"
expect_eq "$(json "j['confidence'], j['samples'], j['seed'], j['adjacency'], j['accountant']")" "0.95 50000 0 add/remove pld" "the report's inputs"
expect_eq "$(json "j['eps_estimate_what']")" "the plain Monte Carlo estimate: no confidence, not a bound" "the estimate says it is not a bound"
expect_eq "$(json "'probability confidence over the Monte Carlo samples' in j['eps_upper_what']")" True "the bound says what it holds with"

# [golden] B = 2, one epoch, sigma 1, delta 1e-3: exact eps 2.495795046 (mpmath,
# tests/golden/balls_in_bins.py)
expect_status 0 rdp-compose --sampling balls-in-bins --sigma 1 --epochs 1 --batches 2 --delta 1e-3 --samples 200000 --seed 3 --json
expect_eq "$(json "j['eps_upper'] >= 2.495795046")" True "B = 2: the bound holds the exact eps"
expect_near "$(json "j['eps_estimate']")" 2.495795046 0.03r "B = 2: the estimate"

# Balls-in-bins is at least as private as Poisson at q = 1/B: the estimate below the Poisson
# bound (1.828 here), and the Poisson bound rdp-compose's own, byte for byte
expect_status 0 rdp-compose --sampling balls-in-bins --sigma 1 --epochs 10 --batches 100 --delta 1e-5 --samples 100000 --json
expect_eq "$(json "j['eps_estimate'] < j['poisson']['eps'] < j['eps_upper_no_amplification']")" True "estimate below Poisson"
poisson=$(json "repr(j['poisson']['eps'])")
expect_status 0 rdp-compose --accountant pld --sigma 1 --q 0.01 --steps 1000 --delta 1e-5
expect_eq "$(cat "$TMP/out")" "$poisson" "the Poisson bound is rdp-compose's own"

# the same output for any --threads; another seed, other samples
for t in 1 2 3; do
  rdp-compose --sampling balls-in-bins --sigma 0.8 --epochs 3 --batches 10 --delta 1e-5 --samples 20000 --threads $t --json > "$TMP/t$t" || fail "threads $t"
done
cmp -s "$TMP/t1" "$TMP/t2" && cmp -s "$TMP/t1" "$TMP/t3" || fail "the output depends on --threads"
rdp-compose --sampling balls-in-bins --sigma 0.8 --epochs 3 --batches 10 --delta 1e-5 --samples 20000 --seed 1 --json > "$TMP/s1"
cmp -s "$TMP/t1" "$TMP/s1" && fail "--seed 1 gave seed 0's output"
# the text: four rows, the bound first
expect_status 0 rdp-compose --sampling balls-in-bins --sigma 0.8 --epochs 3 --batches 10 --delta 1e-5 --samples 20000
expect_eq "$(wc -l < "$TMP/out")" 4 "four rows"
expect_eq "$(head -1 "$TMP/out" | awk '{print $NF}')" "$("$PYTHON" -c "import json; print(repr(json.load(open('$TMP/t1'))['eps_upper']))")" "text: the bound first"
[ -s "$TMP/err" ] && fail "stderr not empty: $(cat "$TMP/err")"

# the rules
expect_error 2 "^rdp-compose: error: --samples cannot be used with --sampling shuffle$" \
  rdp-compose --sampling shuffle --sigma 1 --epochs 3 --batches 10 --delta 1e-5 --samples 2000
expect_error 2 "^rdp-compose: error: --seed cannot be used without --sampling shuffle or balls-in-bins$" \
  rdp-compose --sigma 1 --q 0.1 --steps 3 --delta 1e-5 --seed 2
expect_error 2 "^rdp-compose: error: --batches is required with --sampling balls-in-bins$" \
  rdp-compose --sampling balls-in-bins --sigma 1 --epochs 3 --delta 1e-5
expect_error 2 "^rdp-compose: error: --samples: " \
  rdp-compose --sampling balls-in-bins --sigma 1 --epochs 3 --batches 10 --delta 1e-5 --samples 20
expect_error 2 "^rdp-compose: error: 2000000 batches an epoch: 1 to 1048576 \(a Monte Carlo sample draws one normal a batch\)$" \
  rdp-compose --sampling balls-in-bins --sigma 1 --epochs 1 --batches 2000000 --delta 1e-5
expect_error 2 "^rdp-compose: error: --confidence: " \
  rdp-compose --sampling balls-in-bins --sigma 1 --epochs 3 --batches 10 --delta 1e-5 --confidence 1
expect_error 2 "^rdp-compose: error: --steps cannot be used with --sampling balls-in-bins$" \
  rdp-compose --sampling balls-in-bins --sigma 1 --epochs 3 --batches 10 --delta 1e-5 --steps 4
finish
