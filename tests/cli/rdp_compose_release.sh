#!/bin/bash
# rdp-compose --release final (the last-iterate heuristic of Steinke et al. 2025 below the
# all-iterates bound) and --accumulate M (gradient accumulation, a mixture-of-Gaussians PLD):
# issue 23's four rows, dp_accounting's mixture PLD (tests/golden/mog_dp_accounting.csv), the
# exact values of tests/golden/mog.py (mpmath), the JSON, the rules, and the default output
# unchanged.
source "$SRC/tests/cli/lib.bash"

jget() { "$PYTHON" -c "import json; j = json.load(open('$TMP/out')); print($1)"; }
# round3 X: X printed to 3 decimals, as the issue prints its rows
round3() { "$PYTHON" -c "print('%.3f' % $1)"; }

# --- issue 23's rows (Google dp_accounting at delta 1e-5): all iterates / last iterate -------
# q 0.01, s 1.1, T 10,000: 5.196 / 4.001; q 256/60000, s 1.1, T 14,062: 2.391 / 1.845;
# q 128/60000, s 0.8, T 469: 0.542 / 0.208; q 1 (s 10, T 100: mu 1): 4.377 / 4.377.
# The last-iterate numbers agree to the printed precision. So do the all-iterates numbers of the
# last two rows; those of the first two (5.196, 2.391) are dp_accounting's pessimistic estimates at
# a coarse discretisation, above our proven interval (5.19243-5.19287, 2.38153-2.38172;
# tests/golden/pld_dp_accounting.csv, dp_accounting at 1e-4: [1.67854, 2.38169] for the second):
# we assert ours to 3 decimals and that theirs is not below it.
check_row() {  # SIGMA Q STEPS ALL_OURS ALL_ISSUE LAST
  expect_status 0 rdp-compose --accountant pld --sigma "$1" --q "$2" --steps "$3" --delta 1e-5 --release final
  expect_eq "$(sed -n 1p "$TMP/out" | cut -d' ' -f2-)" "all iterates: upper bound (pld)" "line 1 label"
  expect_eq "$(sed -n 2p "$TMP/out" | cut -d' ' -f2-)" "last iterate: heuristic target, not a bound (Steinke et al. 2025)" "line 2 label"
  local all last
  all=$(sed -n 1p "$TMP/out" | cut -d' ' -f1)
  last=$(sed -n 2p "$TMP/out" | cut -d' ' -f1)
  expect_eq "$(round3 "$all")" "$4" "all iterates, sigma $1 q $2 T $3"
  "$PYTHON" -c "import sys; sys.exit(0 if $5 >= $all - 5e-4 else 1)" || fail "issue's all-iterates $5 below ours $all"
  expect_eq "$(round3 "$last")" "$6" "last iterate, sigma $1 q $2 T $3"
}
check_row 1.1 0.01 10000 5.193 5.196 4.001
check_row 1.1 0.004266666666666667 14062 2.382 2.391 1.845
check_row 0.8 0.0021333333333333334 469 0.542 0.542 0.208
check_row 10 1 100 4.377 4.377 4.377

# --- the exact values: [golden] tests/golden/mog.py (mpmath): last iterate of the first row
# 4.00052794845; q = 1: the Gaussian mechanism at mu = 1, 4.37717809568122. Both in the PLD
# interval (--json), which is narrower than dp_accounting's at 1e-3 ([golden]
# tests/golden/mog_dp_accounting.csv: [4.000027757151675, 4.00052860849936] and
# [4.376678395974541, 4.377178466842787]).
expect_status 0 rdp-compose --accountant pld --sigma 1.1 --q 0.01 --steps 10000 --delta 1e-5 --release final --json
expect_eq "$(jget "j['release'], j['micro_batches'], j['steps'], j['segments'], j['sampling'], j['all_iterates']['accountant']")" \
  "final 1 10000 1 poisson pld" "JSON fields"
expect_eq "$(jget "j['last_iterate']['pld']['lower'] <= 4.00052794845 <= j['last_iterate']['pld']['upper'] == j['last_iterate']['eps']")" "True" "exact last iterate in the interval"
expect_eq "$(jget "j['last_iterate']['pld']['upper'] - j['last_iterate']['pld']['lower'] < 4.00052860849936 - 4.000027757151675")" "True" "narrower than dp_accounting's"
expect_eq "$(jget "'not a bound' in j['last_iterate']['what'] and 'Annamalai 2024' in j['last_iterate']['what']")" "True" "labelled a heuristic"
expect_status 0 rdp-compose --accountant pld --sigma 10 --q 1 --steps 100 --delta 1e-5 --release final --json
expect_eq "$(jget "all(j[k]['pld']['lower'] <= 4.37717809568122 <= j[k]['pld']['upper'] for k in ('all_iterates', 'last_iterate'))")" "True" "q = 1: both contain the Gaussian mechanism's eps"
# the default accountant (rdp) for the all-iterates bound: RDP's number above the PLD's
expect_status 0 rdp-compose --sigma 0.8 --q 0.0021333333333333334 --steps 469 --delta 1e-5 --release final
expect_eq "$(sed -n 1p "$TMP/out" | cut -d' ' -f2-)" "all iterates: upper bound (rdp)" "rdp label"
expect_near "$(sed -n 1p "$TMP/out" | cut -d' ' -f1)" 1.374 1e-3 "RDP all iterates (tests/cli/rdp_compose.sh: 1.374)"

# --- --accumulate: [golden] tests/golden/mog_dp_accounting.csv, release all, micro 4, s 1.708,
# q 0.03293, T 49, delta 1e-5: dp_accounting [2.887698831963715, 2.927009214508527]; ours meets it
# and is narrower
expect_status 0 rdp-compose --accountant pld --sigma 1.708 --q 0.03293 --steps 49 --delta 1e-5 --accumulate 4 --json
expect_eq "$(jget "j['micro_batches'], j['accountant'], j['eps'] == j['pld']['upper'], 'rdp' in j")" "4 pld True False" "--accumulate JSON"
expect_eq "$(jget "j['pld']['lower'] <= 2.927009214508527 and j['pld']['upper'] >= 2.887698831963715 and j['pld']['upper'] - j['pld']['lower'] < 2e-4")" "True" "--accumulate 4 against dp_accounting"
acc=$(jget "repr(j['eps'])")
expect_status 0 rdp-compose --accountant pld --sigma 1.708 --q 0.03293 --steps 49 --delta 1e-5 --accumulate 4
expect_eq "$(cat "$TMP/out")" "$acc" "--accumulate plain output is the PLD upper bound"
# --events: every segment accumulated; two segments equal one
printf 'sigma,q,steps\n1.708,0.03293,20\n1.708,0.03293,29\n' >"$TMP/acc.csv"
expect_status 0 rdp-compose --accountant pld --events "$TMP/acc.csv" --delta 1e-5 --accumulate 4
expect_eq "$(cat "$TMP/out")" "$acc" "--accumulate with --events"
# more micro-batches at the same rate: less private
expect_status 0 rdp-compose --accountant pld --sigma 1.708 --q 0.03293 --steps 49 --delta 1e-5 --accumulate 8
"$PYTHON" -c "import sys; sys.exit(0 if $(cat "$TMP/out") > $acc else 1)" || fail "--accumulate 8 not above 4"

# extreme but legal values: a number and a note, never an error about the arithmetic
# (lib/accounting/mixture_epsilon.hpp's fallbacks)
expect_status 0 rdp-compose --accountant pld --sigma 1e-300 --q 0.5 --steps 3 --delta 1e-5 --accumulate 3
expect_eq "$(cat "$TMP/out")" "inf" "sigma 1e-300: inf"
grep -q "the bound is RDP's for the Gaussian mechanism at sensitivity micro" "$TMP/err" || fail "no note: $(cat "$TMP/err")"
expect_status 0 rdp-compose --accountant pld --sigma 1 --q 5e-324 --steps 3 --delta 1e-5 --release final
expect_eq "$(cut -d' ' -f1 "$TMP/out" | tr '\n' ' ')" "0 0 " "q 5e-324: 0 and 0"
grep -q "the record is drawn in some step with probability at most delta" "$TMP/err" || fail "no note: $(cat "$TMP/err")"

# --- the default output is unchanged: --release all and --accumulate 1 are no-ops ---------------
for acc_flags in "--release all" "--accumulate 1" "--release all --accumulate 1"; do
  for acct in rdp pld; do
    expect_status 0 rdp-compose --accountant $acct --sigma 0.8 --q 0.0021333333333333334 --steps 469 --delta 1e-5 --json
    plain=$(cat "$TMP/out")
    expect_status 0 rdp-compose --accountant $acct --sigma 0.8 --q 0.0021333333333333334 --steps 469 --delta 1e-5 --json $acc_flags
    expect_eq "$(cat "$TMP/out")" "$plain" "$acc_flags, $acct"
  done
done

# --- the rules -----------------------------------------------------------------------------------
run="--sigma 1 --q 0.01 --steps 10 --delta 1e-5"
expect_error 2 '^rdp-compose: error: --accumulate needs --accountant pld \(a mixture of Gaussians: only the PLD accounts it\)$' rdp-compose $run --accumulate 4
expect_error 2 'needs --accountant pld' rdp-compose $run --accumulate 4 --accountant gdp
expect_error 2 '^rdp-compose: error: --accumulate needs --sampling poisson$' rdp-compose $run --accountant pld --accumulate 2 --sampling without-replacement
expect_error 2 '^rdp-compose: error: --release final needs --sampling poisson$' rdp-compose $run --release final --sampling without-replacement
expect_error 2 "^rdp-compose: error: --release final prints the all-iterates bound beside the heuristic: pld or rdp \(GDP's CLT is an approximation\)$" rdp-compose $run --release final --accountant gdp
expect_error 2 '^rdp-compose: error: --fail-above cannot be used with --release final$' rdp-compose $run --release final --fail-above 3
expect_error 2 '^rdp-compose: error: --events cannot be used with --release final$' rdp-compose --events "$TMP/acc.csv" --delta 1e-5 --release final
expect_error 2 '^rdp-compose: error: --eps cannot be used with --accumulate$' rdp-compose --accountant pld --eps 1 --q 0.01 --steps 10 --delta 1e-5 --accumulate 2
expect_error 2 '^rdp-compose: error: --tradeoff with --release final needs --accountant pld \(the curve of a mixture of Gaussians\)$' rdp-compose --sigma 1 --q 0.01 --steps 10 --tradeoff - --release final
expect_error 2 '^rdp-compose: error: --accumulate: Value 0 not in range' rdp-compose $run --accountant pld --accumulate 0
expect_error 2 '^rdp-compose: error: --release: last not in \{all,final\}$' rdp-compose $run --release last
finish
