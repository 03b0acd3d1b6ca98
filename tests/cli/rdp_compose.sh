#!/bin/bash
# rdp-compose: closed forms, golden RDP from tests/golden/accounting.py (mpmath quadrature
# of A_alpha), the Canonne-Kamath-Steinke conversion, --eps inversion, --events, JSON,
# --fail-above, bad input; --accountant pld (exact full batch, dp_accounting's golden
# interval) and gdp (closed forms).
source "$SRC/tests/cli/lib.bash"

py() { "$PYTHON" -c "import math; print(repr($1))"; }

# q = 1, one step, order 2: RDP alpha/(2 sigma^2) = 1/sigma^2, then
# eps = rdp + log(1/2) - (log delta + log 2)/1
expect_status 0 rdp-compose --sigma 2 --q 1 --steps 1 --delta 1e-5 --orders 2
expect_near "$(cat "$TMP/out")" "$(py "0.25 + math.log(0.5) - (math.log(1e-5) + math.log(2))")" 1e-13r "Gaussian RDP, order 2"
# q = 1, T steps at order 10.5: T * 10.5/(2 sigma^2)
expect_status 0 rdp-compose --sigma 3 --q 1 --steps 40 --delta 1e-6 --orders 10.5
expect_near "$(cat "$TMP/out")" "$(py "40*10.5/18 + math.log(9.5/10.5) - (math.log(1e-6) + math.log(10.5))/9.5")" 1e-13r "Gaussian RDP, fractional order"
# [golden] RDP of sigma 1.1, q 0.01 at order 8 = 0.00058407033552025108 per step
expect_status 0 rdp-compose --sigma 1.1 --q 0.01 --steps 1000 --delta 1e-5 --orders 8 --json
expect_near "$("$PYTHON" -c "import json; print(json.load(open('$TMP/out'))['eps'])")" \
  "$(py "1000*0.00058407033552025108 + math.log(7/8) - (math.log(1e-5) + math.log(8))/7")" 1e-9r "subsampled RDP, order 8"
expect_eq "$("$PYTHON" -c "import json; j=json.load(open('$TMP/out')); print(j['order'], j['delta'], j['steps'])")" "8.0 1e-05 1000" "JSON fields"

# without replacement, order 8: [golden] RDP 0.0020421531238429167 per step at 1.1 per unit
# sensitivity (Wang, Balle & Kasiviswanathan 2019, Thm 9, evaluated in mpmath); replace-one
# moves the sum by twice the clip norm, so that is --sigma 2.2
expect_status 0 rdp-compose --sigma 2.2 --q 0.01 --steps 1000 --delta 1e-5 --orders 8 --sampling without-replacement
expect_near "$(cat "$TMP/out")" \
  "$(py "1000*0.0020421531238429167 + math.log(7/8) - (math.log(1e-5) + math.log(8))/7")" 1e-9r "without replacement, order 8"

# default orders: eps is the minimum over them, never above a single order's
expect_status 0 rdp-compose --sigma 1.1 --q 0.01 --steps 1000 --delta 1e-5
all=$(cat "$TMP/out")
"$PYTHON" -c "import sys; sys.exit(0 if $all <= 1000*0.00058407033552025108 + __import__('math').log(7/8) - (__import__('math').log(1e-5) + __import__('math').log(8))/7 else 1)" \
  || fail "default orders give a larger eps than order 8 alone"

# --eps: the smallest noise multiplier; composing it gives eps back (1e-6 relative)
expect_status 0 rdp-compose --eps 3 --q 0.01 --steps 1000 --delta 1e-5
sigma=$(cat "$TMP/out")
expect_status 0 rdp-compose --sigma "$sigma" --q 0.01 --steps 1000 --delta 1e-5
expect_near "$(cat "$TMP/out")" 3 1e-6r "eps of the sigma found for eps 3"

# --events: segments compose additively; equal segments equal one longer segment
printf 'sigma,q,steps\n1.1,0.01,300\n1.1,0.01,700\n' >"$TMP/events.csv"
expect_status 0 rdp-compose --events "$TMP/events.csv" --delta 1e-5
expect_near "$(cat "$TMP/out")" "$all" 1e-12r "two segments = one"
printf 'steps,q,sigma\n10,0.5,2\n5,1,4\n' >"$TMP/mixed.csv"
expect_status 0 rdp-compose --events - --delta 1e-5 --orders 3 --threads 1 <"$TMP/mixed.csv"
mixed=$(cat "$TMP/out")
expect_status 0 rdp-compose --events "$TMP/mixed.csv" --delta 1e-5 --orders 3 --threads 2
expect_eq "$(cat "$TMP/out")" "$mixed" "same output with 2 threads"
# the default orders over 200 distinct segments: byte-identical for 1, 2 and 3 threads
"$PYTHON" -c "
print('sigma,q,steps')
for i in range(200): print(f'{0.6 + 0.01 * i},{0.001 * (1 + i % 9)},{1 + i % 13}')" >"$TMP/many.csv"
expect_status 0 rdp-compose --events "$TMP/many.csv" --delta 1e-6 --json --threads 1
one=$(cat "$TMP/out")
for t in 2 3 0; do
  expect_status 0 rdp-compose --events "$TMP/many.csv" --delta 1e-6 --json --threads $t
  expect_eq "$(cat "$TMP/out")" "$one" "--threads $t"
done
# 1025 rows of 2^53 steps add up past 2^63 - 1 (the --json total): bad data at that row, not a wrapped sum
{ echo sigma,q,steps; for i in $(seq 1025); do echo 1,1,9007199254740992; done; } >"$TMP/huge.csv"
expect_error 1 'add up beyond 2\^63 - 1 \(.*huge.csv, row 1025, column .steps.\)' \
  rdp-compose --events "$TMP/huge.csv" --delta 1e-5 --orders 2 --json
# integer order 3, q = 0.5, sigma 2: A = sum_k C(3,k) 0.5^3 exp((k^2-k)/8); plus 5 steps of q = 1, sigma 4
expect_near "$mixed" "$(py "10*math.log(sum(math.comb(3,k)*0.125*math.exp((k*k-k)/8) for k in range(4)))/2 + 5*3/32 + math.log(2/3) - (math.log(1e-5) + math.log(3))/2")" 1e-12r "heterogeneous events, closed form"

# extreme but valid: sigma 0.1, q 1e-6, 1e7 steps
expect_status 0 rdp-compose --sigma 0.1 --q 1e-6 --steps 10000000 --delta 1e-6
"$PYTHON" -c "import math,sys; v=float('$(cat "$TMP/out")'); sys.exit(0 if math.isfinite(v) and v > 0 else 1)" \
  || fail "extreme parameters: $(cat "$TMP/out")"

# --fail-above: exit 3, one line, nothing on stdout; below the budget: exit 0
# The line names what eps is and the accountant that gave it.
expect_error 3 '^rdp-compose: error: eps [0-9.]+ \(upper bound, by the rdp accountant\) exceeds the budget --fail-above 1$' rdp-compose --sigma 1.1 --q 0.01 --steps 1000 --delta 1e-5 --fail-above 1
expect_error 3 '^rdp-compose: error: eps [0-9.]+ \(an approximation, not a bound, by the gdp accountant\) exceeds the budget --fail-above 0\.1$' rdp-compose --accountant gdp --sigma 1.1 --q 0.01 --steps 1000 --delta 1e-5 --fail-above 0.1
expect_error 3 '^rdp-compose: error: eps [0-9.]+ \(exact, by the gdp accountant\) exceeds the budget --fail-above 0\.1$' rdp-compose --accountant gdp --sigma 1.1 --q 1 --steps 10 --delta 1e-5 --fail-above 0.1
expect_status 0 rdp-compose --sigma 1.1 --q 0.01 --steps 1000 --delta 1e-5 --fail-above 100
expect_eq "$(cat "$TMP/out")" "$all" "under the budget prints eps"

# --- bad input ------------------------------------------------------------------------------
expect_error 2 'rdp-compose: error: --delta' rdp-compose --sigma 1 --q 0.1 --steps 10 --delta 0
expect_error 2 'rdp-compose: error: --delta' rdp-compose --sigma 1 --q 0.1 --steps 10 --delta 1
expect_error 2 'rdp-compose: error: --delta' rdp-compose --sigma 1 --q 0.1 --steps 10
expect_error 2 'rdp-compose: error: --sigma' rdp-compose --sigma 0 --q 0.1 --steps 10 --delta 1e-5
expect_error 2 'rdp-compose: error: --sigma' rdp-compose --sigma -1 --q 0.1 --steps 10 --delta 1e-5
expect_error 2 'rdp-compose: error: --sigma' rdp-compose --sigma nan --q 0.1 --steps 10 --delta 1e-5
expect_error 2 'rdp-compose: error: --sigma' rdp-compose --sigma abc --q 0.1 --steps 10 --delta 1e-5
expect_error 2 'rdp-compose: error: --threads' rdp-compose --sigma 1 --q 0.1 --steps 10 --delta 1e-5 --threads 1025
expect_error 2 'rdp-compose: error: --q' rdp-compose --sigma 1 --q 0 --steps 10 --delta 1e-5
expect_error 2 'rdp-compose: error: --q' rdp-compose --sigma 1 --q 1.5 --steps 10 --delta 1e-5
expect_error 2 'rdp-compose: error: --q' rdp-compose --sigma 1 --q inf --steps 10 --delta 1e-5
expect_error 2 'rdp-compose: error: --steps' rdp-compose --sigma 1 --q 0.1 --steps 0 --delta 1e-5
expect_error 2 'rdp-compose: error: --steps' rdp-compose --sigma 1 --q 0.1 --steps 2.5 --delta 1e-5
expect_error 2 'rdp-compose: error: --orders' rdp-compose --sigma 1 --q 0.1 --steps 10 --delta 1e-5 --orders 2,1
expect_error 2 'rdp-compose: error: --orders' rdp-compose --sigma 1 --q 0.1 --steps 10 --delta 1e-5 --orders 2,x
expect_error 2 'rdp-compose: error: --orders' rdp-compose --sigma 1 --q 0.1 --steps 10 --delta 1e-5 --orders 1e9
# an empty item is an error, not the list without it (issue 9)
for list in 2,,3 2,3, ,2 ''; do
  expect_error 2 "rdp-compose: error: --orders: empty item in the list '$list'" \
    rdp-compose --sigma 1 --q 0.1 --steps 10 --delta 1e-5 --orders "$list"
done
expect_error 2 'rdp-compose: error: --eps' rdp-compose --eps 0 --q 0.1 --steps 10 --delta 1e-5
expect_error 2 'rdp-compose: error: --eps' rdp-compose --eps inf --q 0.1 --steps 10 --delta 1e-5
expect_error 2 'rdp-compose: error: --q cannot be used with --sampling shuffle' rdp-compose --sigma 1 --q 0.1 --steps 10 --delta 1e-5 --sampling shuffle   # shuffle takes --epochs and --batches (rdp_compose_shuffle.sh)
expect_error 2 '--q is required' rdp-compose --sigma 1 --steps 10 --delta 1e-5
expect_error 2 '--sigma cannot be used with --events' rdp-compose --events "$TMP/events.csv" --sigma 1 --delta 1e-5
expect_error 2 '--sigma cannot be used with --eps' rdp-compose --eps 1 --sigma 1 --q 0.1 --steps 10 --delta 1e-5
printf 'sigma,steps\n1,10\n' >"$TMP/nocol.csv"
expect_error 1 "missing column 'q'" rdp-compose --events "$TMP/nocol.csv" --delta 1e-5
printf 'sigma,q,steps\n1,0.1,10\n1,abc,10\n' >"$TMP/text.csv"
expect_error 1 "row 3.*'q'" rdp-compose --events "$TMP/text.csv" --delta 1e-5
printf 'sigma,q,steps\n0,0.1,10\n' >"$TMP/sigma0.csv"
expect_error 1 "sigma must be > 0.*row 2" rdp-compose --events "$TMP/sigma0.csv" --delta 1e-5
printf 'sigma,q,steps\n1,1.5,10\n' >"$TMP/q.csv"
expect_error 1 "q must be in \(0,1\].*row 2" rdp-compose --events "$TMP/q.csv" --delta 1e-5
printf 'sigma,q,steps\n1,0.1,0\n' >"$TMP/steps0.csv"
expect_error 1 "steps must be a whole number.*row 2" rdp-compose --events "$TMP/steps0.csv" --delta 1e-5
printf 'sigma,q,steps\n1,0.1,2.5\n' >"$TMP/steps.csv"
expect_error 1 "steps must be a whole number.*row 2" rdp-compose --events "$TMP/steps.csv" --delta 1e-5
printf 'sigma,q,steps\n1,0.1,5e18\n' >"$TMP/steps_big.csv"  # above 2^53: not exact in double
expect_error 1 "steps must be a whole number in \[1, 2\^53\].*row 2" rdp-compose --events "$TMP/steps_big.csv" --delta 1e-5
printf 'sigma,q,steps\nnan,0.1,10\n' >"$TMP/nan.csv"
expect_error 1 "row 2.*sigma" rdp-compose --events "$TMP/nan.csv" --delta 1e-5
printf 'sigma,q,steps\n' >"$TMP/header.csv"
expect_error 1 "no events" rdp-compose --events "$TMP/header.csv" --delta 1e-5
expect_error 1 "cannot open" rdp-compose --events "$TMP/missing.csv" --delta 1e-5

# Tiny sigma: eps is huge or inf, never a silent 0 (the largest series term was lost
# once above 2^53, and 1/(2 sigma^2) = inf gave NaN, clamped to 0).
expect_status 0 rdp-compose --sigma 1e-10 --q 0.01 --steps 10 --delta 1e-5 --orders 2
expect_near "$(cat "$TMP/out")" "$(py "10*(1e20 + 2*math.log(0.01)) + math.log(0.5) - (math.log(1e-5) + math.log(2))")" 1e-12r "order 2, sigma 1e-10"
expect_status 0 rdp-compose --sigma 1e-8 --q 0.01 --steps 10 --delta 1e-5
expect_near "$(cat "$TMP/out")" 5.5e16 1e-9r "default orders, sigma 1e-8"
for orders in 2 2.5 1024; do
  expect_status 0 rdp-compose --sigma 1e-300 --q 0.01 --steps 10 --delta 1e-5 --orders $orders
  expect_eq "$(cat "$TMP/out")" inf "sigma 1e-300, order $orders"
done

expect_error 2 "--steps: '99999999999999999999' is out of range" rdp-compose --sigma 1 --q 0.1 --steps 99999999999999999999 --delta 1e-5

# --- --accountant pld ------------------------------------------------------------------------
jget() { "$PYTHON" -c "import json,sys; j=json.load(open('$TMP/out')); print($1)"; }
# full batch: 100 steps at sigma 2 are the Gaussian mechanism at sigma 0.2 (eps-gauss2, Balle & Wang)
expect_status 0 eps-gauss2 --gaussian-mechanism --sigma 0.2 --delta 1e-6
exact=$(cat "$TMP/out")
expect_status 0 rdp-compose --accountant pld --sigma 2 --q 1 --steps 100 --delta 1e-6 --json
"$PYTHON" -c "
import json, sys
j = json.load(open('$TMP/out')); e = $exact
sys.exit(0 if j['pld']['lower'] <= e <= j['pld']['upper'] and j['pld']['upper'] - j['pld']['lower'] < 1e-3 * e else 1)" \
  || fail "full batch: PLD interval $(cat "$TMP/out") does not hold $exact within 1e-3"
expect_eq "$(jget "j['headline'], j['eps'] == j['pld']['upper'], j['rdp']['eps'] > j['eps']")" "pld True True" "headline is the PLD bound"
expect_status 0 rdp-compose --accountant pld --sigma 2 --q 1 --steps 100 --delta 1e-6
expect_eq "$(cat "$TMP/out")" "$(rdp-compose --accountant pld --sigma 2 --q 1 --steps 100 --delta 1e-6 --json | "$PYTHON" -c 'import json,sys; print(repr(json.load(sys.stdin)["eps"]))')" "plain output is the headline"
# [golden] tests/golden/pld_dp_accounting.csv (Google dp_accounting's own PLD at 1e-4):
# sigma 0.8, q 128/60000, 469 steps, delta 1e-5: optimistic 0.5183216114489269, pessimistic
# 0.5417377482574032; RDP 1.374 (issue 13)
expect_status 0 rdp-compose --accountant pld --sigma 0.8 --q 0.0021333333333333334 --steps 469 --delta 1e-5 --json
"$PYTHON" -c "
import json, sys
j = json.load(open('$TMP/out'))
sys.exit(0 if j['pld']['upper'] >= 0.5183216114489269 and j['pld']['lower'] <= 0.5417377482574032
         and j['pld']['upper'] <= 0.5417377482574032 * (1 + 1e-4) and abs(j['rdp']['eps'] - 1.374) < 1e-3 else 1)" \
  || fail "PLD against dp_accounting: $(cat "$TMP/out")"
whole=$(jget "repr(j['eps'])")
# --events: two segments equal one
printf 'sigma,q,steps\n0.8,0.0021333333333333334,200\n0.8,0.0021333333333333334,269\n' >"$TMP/pld.csv"
expect_status 0 rdp-compose --accountant pld --events "$TMP/pld.csv" --delta 1e-5
expect_eq "$(cat "$TMP/out")" "$whole" "PLD: two segments = one"
# heterogeneous segments: the same output for any --threads
printf 'sigma,q,steps\n0.8,0.002,200\n1.5,0.05,30\n4,1,3\n' >"$TMP/pld3.csv"
expect_status 0 rdp-compose --accountant pld --events "$TMP/pld3.csv" --delta 1e-6 --json --threads 1
pld_one=$(cat "$TMP/out")
for t in 2 0; do
  expect_status 0 rdp-compose --accountant pld --events "$TMP/pld3.csv" --delta 1e-6 --json --threads $t
  expect_eq "$(cat "$TMP/out")" "$pld_one" "PLD --threads $t"
done
# --eps: the smallest sigma whose PLD bound meets eps; composing it gives at most eps, below RDP's sigma
expect_status 0 rdp-compose --accountant pld --eps 1 --q 0.01 --steps 1000 --delta 1e-5
pld_sigma=$(cat "$TMP/out")
expect_status 0 rdp-compose --accountant pld --eps 1 --q 0.01 --steps 1000 --delta 1e-5 --threads 2
expect_eq "$(cat "$TMP/out")" "$pld_sigma" "PLD --eps with --threads 2"
expect_status 0 rdp-compose --accountant pld --sigma "$pld_sigma" --q 0.01 --steps 1000 --delta 1e-5
"$PYTHON" -c "import sys; sys.exit(0 if 0.999 < $(cat "$TMP/out") <= 1 else 1)" || fail "PLD --eps 1: sigma $pld_sigma gives $(cat "$TMP/out")"
expect_status 0 rdp-compose --eps 1 --q 0.01 --steps 1000 --delta 1e-5
"$PYTHON" -c "import sys; sys.exit(0 if $pld_sigma < $(cat "$TMP/out") else 1)" || fail "PLD sigma $pld_sigma not below RDP's"
# without replacement: the PLD of replace-one neighbours, below RDP's Thm 27, the headline.
# [golden] issue 13 (dp_accounting's RDP, orders up to 256): 0.0478 at its noise multiplier
# 8.816, which is over the replace-one sensitivity (twice the clip norm): --sigma 17.632
expect_status 0 rdp-compose --sigma 17.632 --q 0.01279 --steps 8 --delta 8.04e-8 --sampling without-replacement --orders 128,200,256
expect_near "$(cat "$TMP/out")" 0.0478 5e-5 "without replacement, Thm 27"
rdp_wor=$(cat "$TMP/out")
expect_status 0 rdp-compose --accountant pld --sigma 17.632 --q 0.01279 --steps 8 --delta 8.04e-8 --sampling without-replacement --orders 128,200,256 --json
expect_eq "$(jget "j['headline'], j['pld']['lower'] <= j['pld']['upper'] == j['eps'] < $rdp_wor")" "pld True" "without replacement: PLD below RDP"
[ -s "$TMP/err" ] && fail "note on a without-replacement PLD: $(cat "$TMP/err")"
# q = 1: the Gaussian mechanism at sensitivity 2, i.e. at sigma/2: eps-gauss2 at 2/2/sqrt(100)
expect_status 0 eps-gauss2 --gaussian-mechanism --sigma 0.1 --delta 1e-6
exact_wor=$(cat "$TMP/out")
expect_status 0 rdp-compose --accountant pld --sigma 2 --q 1 --steps 100 --delta 1e-6 --sampling without-replacement --json
"$PYTHON" -c "import json,sys; j=json.load(open('$TMP/out')); sys.exit(0 if j['pld']['lower'] <= $exact_wor <= j['pld']['upper'] else 1)" \
  || fail "without replacement, q = 1: the PLD interval does not contain $exact_wor"
# a PLD beyond double's reach: RDP's bound, with a note
expect_status 0 rdp-compose --accountant pld --sigma 1e-100 --q 0.5 --steps 10 --delta 1e-5
expect_eq "$(cat "$TMP/out")" "5.5e+200" "sigma 1e-100: RDP's bound"
grep -q "note: no PLD" "$TMP/err" || fail "no note when the PLD is out of reach"
# sigma^2 below double's range at q = 1: eps inf from RDP, not an error
expect_status 0 rdp-compose --accountant pld --sigma 1e-200 --q 1 --steps 10 --delta 1e-5
expect_eq "$(cat "$TMP/out")" "inf" "sigma 1e-200, q 1"
grep -q "beyond double's range" "$TMP/err" || fail "no clear note for sigma 1e-200: $(cat "$TMP/err")"
# --lattice: dp_accounting's own discretisation. [golden] tests/golden/pld_dp_accounting.csv
# row 6: its pessimistic eps 0.015391735595376117 at 1e-4; ours is that bound within 1e-5
expect_status 0 rdp-compose --accountant pld --lattice 1e-4 --sigma 6.087582179989594 --q 0.0001121355261801421 --steps 20102 --delta 3.7264185435332526e-06 --json
expect_near "$(jget "j['pld']['upper']")" 0.015391735595376117 1e-5r "--lattice 1e-4: dp_accounting's bound"
expect_eq "$(jget "j['pld']['lattice'], j['headline']")" "0.0001 rdp" "--lattice reported; RDP is tighter there"
expect_error 2 'rdp-compose: error: --lattice cannot be used without --accountant pld' rdp-compose --lattice 1e-4 --sigma 1 --q 0.1 --steps 10 --delta 1e-5
expect_error 2 'rdp-compose: error: --lattice' rdp-compose --accountant pld --lattice 0 --sigma 1 --q 0.1 --steps 10 --delta 1e-5
# a spacing far below the run's own (3.2e-4 here) would only add points: refused, naming the floor
expect_error 2 'below 1/1000 of the 0.00032090232742759624 chosen for this run: give at least 3.2090232742759625e-07' rdp-compose --accountant pld --lattice 1e-7 --sigma 1 --q 0.01 --steps 10 --delta 1e-5
expect_error 3 'rdp-compose: error: eps [0-9.]+ \(upper bound, by the pld accountant\) exceeds the budget --fail-above 0.5' rdp-compose --accountant pld --sigma 0.8 --q 0.0021333333333333334 --steps 469 --delta 1e-5 --fail-above 0.5

# --- --accountant gdp ------------------------------------------------------------------------
# full batch: exact, mu = sqrt(T)/sigma, the Gaussian mechanism at sigma/sqrt(T)
expect_status 0 rdp-compose --accountant gdp --sigma 2 --q 1 --steps 100 --delta 1e-6 --json
expect_near "$(jget "j['eps']")" "$exact" 1e-9r "GDP full batch"
expect_eq "$(jget "j['exact'], j['mu']")" "True 5.0" "GDP full batch: exact mu"
[ -s "$TMP/err" ] && fail "note on an exact GDP: $(cat "$TMP/err")"
# Poisson: the CLT, mu = q sqrt(T (e^(1/sigma^2) - 1)), with a note that it is not a bound
expect_status 0 rdp-compose --accountant gdp --sigma 1.1 --q 0.01 --steps 1000 --delta 1e-5
expect_near "$(cat "$TMP/out")" 1.3774291008101913 1e-9r "GDP CLT [golden: mpmath, see test_gdp.cpp]"
grep -q "note: GDP's central limit theorem is an approximation" "$TMP/err" || fail "no CLT note"
# --eps, closed form: sigma = 1 / sqrt(log(1 + mu*^2 / (q^2 T))), mu* = 0.26805112321129422 for eps 1 at 1e-5
expect_status 0 rdp-compose --accountant gdp --eps 1 --q 0.01 --steps 1000 --delta 1e-5
expect_near "$(cat "$TMP/out")" 1.3589917308057999 1e-8r "GDP calibration"
expect_error 2 'rdp-compose: error: --orders cannot be used with --accountant gdp' rdp-compose --accountant gdp --sigma 1 --q 0.1 --steps 10 --delta 1e-5 --orders 2
expect_error 2 'rdp-compose: error: --accountant' rdp-compose --accountant prv --sigma 1 --q 0.1 --steps 10 --delta 1e-5

# --- extreme but legal inputs (issue 20): a number, 0 or inf, or one clear line; never a NaN ---
# sigma 1e7: the series of the fractional orders loses its digits (was "RDP series lost
# precision", exit 1); they take the chord of the integer orders, with a note. At order 1024
# and delta 1e-10: eps = log(1023/1024) - (log 1e-10 + log 1024)/1023 + RDP, RDP = 1000 * 512
# q^2 / sigma^2 = 5.12e-13 (Canonne, Kamath & Steinke 2020, Prop. 12)
expect_status 0 rdp-compose --sigma 1e7 --q 0.01 --steps 1000 --delta 1e-10 --orders 1.5,1024
expect_near "$(cat "$TMP/out")" "$("$PYTHON" -c 'import math; print(math.log1p(-1/1024) - (math.log(1e-10) + math.log(1024)) / 1023 + 5.12e-13)')" 1e-12r "sigma 1e7 at order 1024"
grep -q 'note: the RDP series of fractional orders lost its digits at this noise' "$TMP/err" || fail "no note for the chord"
# rows: arguments (with --steps 10 --delta 1e-5), then the eps. RDP(1.1) below delta^2 gives 0
# (the KL bound); sigma^2 overflowing made z0 = inf * 0 (log_normal_cdf of NaN, exit 2); q^2
# underflowing to 0 times e^(1e4) = inf made GDP's mu -nan (exit 2).
while read -r want args; do
  expect_status 0 rdp-compose $args --steps 10 --delta 1e-5
  expect_eq "$(cat "$TMP/out")" "$want" "rdp-compose $args"
  grep -qi nan "$TMP/err" && fail "a NaN in the notes of $args: $(cat "$TMP/err")"
done <<'ROWS'
0 --sigma 1e7 --q 0.01
0 --sigma 1e300 --q 0.5
0 --sigma 1 --q 4.9e-324
inf --sigma 1e-300 --q 0.01
inf --accountant gdp --sigma 0.01 --q 1e-200
0 --accountant gdp --sigma 1e300 --q 0.5
0 --accountant gdp --sigma 1e8 --q 0.5 --sampling without-replacement
0 --accountant pld --sigma 1e300 --q 0.5
0 --accountant pld --sigma 1e7 --q 0.5
ROWS
# PLD calibration at q 1e-6 took 71 s and 0.9 GB for 2 steps to end at sigma 1e-4: a record
# joins one of the 2 steps with probability 2e-6 <= delta, so every sigma meets every eps
expect_error 2 'eps 1 is met by any noise multiplier: a record joins some step with probability 1 - \(1 - q\)\^steps = 2e-06, at most delta 1e-05' rdp-compose --accountant pld --eps 1 --q 1e-6 --steps 2 --delta 1e-5
# --empirical: an eps_r of 1e308 (a value in the file) was a usage error, exit 2
printf 'round,epsilon\n0,1\n3,1e308\n' >"$TMP/huge-eps.csv"
expect_error 1 'eps 1e\+308 is met by any noise multiplier above 0.0001: an eps_r that large reads as inf \(write inf, give --sigma-if-inf\) \(audit at round 3\)$' rdp-compose --empirical "$TMP/huge-eps.csv" --q 0.5 --rounds 10 --round-delta 0.01 --delta 1e-5
# A NUL byte in a field cut the error line at it: written \x00
printf 'sigma,q,steps\n1,0.1\000zz,10\n' >"$TMP/nul.csv"
expect_error 1 "'0\.1\\\\x00zz' is not a finite number \(.*nul.csv, row 2, column 'q'\)$" rdp-compose --events "$TMP/nul.csv" --delta 1e-5

expect_status 0 rdp-compose --help
grep -q '^EXAMPLES:' "$TMP/out" || fail "--help has no EXAMPLES section"
grep -q 'Supported: Poisson subsampling, and a fixed batch without replacement' "$TMP/out" || fail "--help does not say what sampling is supported"
expect_status 0 rdp-compose --version

# --fail-above inf is "never fail" (issue 9 item 11)
expect_status 0 rdp-compose --sigma 0.1 --q 1 --steps 10 --delta 1e-5 --fail-above inf
# --empirical --rule segment (Maddock et al.'s first public code): infinite audits skipped, their
# rounds joining the next finite audit's segment; [golden] tests/golden/canife_composition.py
# (RDP by quadrature, brentq on each segment's noise): 3.029678442444057
printf 'round,epsilon\n0,inf\n100,3\n200,inf\n300,2\n400,inf\n' > "$TMP/skipped.csv"
expect_status 0 rdp-compose --empirical "$TMP/skipped.csv" --q 0.0021333333333333334 --rounds 469 --round-delta 0.01 --delta 1e-5 --rule segment
expect_near "$(cat "$TMP/out")" 3.029678442444057 1e-5r "segment rule"
expect_error 2 "an infinite eps_r needs the run's noise multiplier" \
  rdp-compose --empirical "$TMP/skipped.csv" --q 0.0021333333333333334 --rounds 469 --round-delta 0.01 --delta 1e-5
expect_error 2 "^rdp-compose: error: --rule cannot be used without --empirical$" \
  rdp-compose --sigma 1 --q 0.1 --steps 3 --delta 1e-5 --rule segment
finish
