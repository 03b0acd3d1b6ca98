#!/bin/bash
# eps-gauss2: published values (Andrew et al. 2024, Table 2), golden numbers from tests/golden/accounting.py
# (mpmath quadrature of the hockey-stick divergence), closed forms, batch, JSON, bad input.
source "$SRC/tests/cli/lib.bash"

# --- Andrew et al. 2024, Table 2: sigma 4.22, 1.54, 0.541 for eps 1, 3, 10 at delta 1e-6 ---------------
for pair in "1 4.22 4.224678889326838" "3 1.54 1.5438614177756411" "10 0.541 0.5410868318183661"; do
  set -- $pair
  expect_status 0 eps-gauss2 --gaussian-mechanism --eps "$1" --delta 1e-6
  s=$(cat "$TMP/out")
  expect_near "$s" "$3" 1e-10r "sigma for eps $1 [golden]"
  expect_eq "$("$PYTHON" -c "print(float('%.3g' % $s))")" "$("$PYTHON" -c "print(float('$2'))")" "Table 2 sigma for eps $1"
done
expect_status 0 eps-gauss2 --gaussian-mechanism --sigma 4.224678889326838 --delta 1e-6
expect_near "$(cat "$TMP/out")" 1 1e-9r "eps of sigma 4.2247"
# Balle & Wang delta(eps = 1, sigma = 1) = 0.12693673750664395 [golden]
expect_status 0 eps-gauss2 --gaussian-mechanism --sigma 1 --eps 1
expect_near "$(cat "$TMP/out")" 0.12693673750664395 1e-12r "mechanism delta"

# --- two Gaussians ----------------------------------------------------------------------
expect_status 0 eps-gauss2 --mu1 0 --sigma1 1 --mu2 1 --sigma2 2 --delta 1e-5
expect_near "$(cat "$TMP/out")" 34.75037597641217 1e-10r "unequal variances eps [golden]"
expect_status 0 eps-gauss2 --mu1 1 --sigma1 2 --mu2 0 --sigma2 1 --delta 1e-5
expect_near "$(cat "$TMP/out")" 34.75037597641217 1e-10r "symmetric in the two Gaussians"
expect_status 0 eps-gauss2 --mu1 0 --sigma1 1 --mu2 1 --sigma2 2 --eps 0.5
expect_near "$(cat "$TMP/out")" 0.32378654414300757 1e-12r "delta(0.5) [golden]"
expect_status 0 eps-gauss2 --mu1 0.3 --sigma1 0.7 --mu2 0.3 --sigma2 0.7 --delta 1e-6
expect_eq "$(cat "$TMP/out")" "0" "identical Gaussians"
# equal variances reduce to the mechanism: N(0, s^2) vs N(1, s^2) with s = 4.2247 -> eps 1
expect_status 0 eps-gauss2 --mu1 0 --sigma1 4.224678889326838 --mu2 1 --sigma2 4.224678889326838 --delta 1e-6
expect_near "$(cat "$TMP/out")" 1 1e-9r "equal variances = Balle & Wang"
expect_status 0 eps-gauss2 --mu1 0 --sigma1 1 --mu2 1 --sigma2 2 --delta 1e-5 --json
expect_eq "$("$PYTHON" -c "import json,sys; j=json.load(open('$TMP/out')); print(j['mode'], j['delta'], round(j['eps'], 6))")" \
  "two-gaussian 1e-05 34.750376" "JSON"

# --- the cosine null ----------------------------------------------------------------------
# Gaussian null N(0,1/d) against N(1/(sigma sqrt d), 1/d), sigma = 1.5438614177756411,
# d = 1e6 (mu = 1/(sigma 1000) by python3): the mechanism's eps, 3
expect_status 0 eps-gauss2 --null-dim 1000000 --null gaussian --mu 0.00064772653068873 --sigma 0.001 --delta 1e-6
expect_near "$(cat "$TMP/out")" 3 1e-9r "gaussian null, Andrew et al. 2024, Table 2 setting"
gauss=$(cat "$TMP/out")
expect_status 0 eps-gauss2 --null-dim 1000000 --mu 0.00064772653068873 --sigma 0.001 --delta 1e-6
expect_near "$(cat "$TMP/out")" "$gauss" 1e-4r "exact null agrees with N(0,1/d) at d = 1e6"
# exact null vs N(0.3, 0.15^2) in 50 dimensions: delta(1) = 0.5388861412328282 [golden]
expect_status 0 eps-gauss2 --null-dim 50 --mu 0.3 --sigma 0.15 --eps 1
expect_near "$(cat "$TMP/out")" 0.5388861412328282 1e-10r "exact null delta [golden]"
# N(0.9, 0.1^2) has Phi(-1) = 0.16 outside [-1,1]: no finite eps at delta 0.1
expect_status 0 eps-gauss2 --null-dim 50 --mu 0.9 --sigma 0.1 --delta 0.1
expect_eq "$(cat "$TMP/out")" "inf" "inf when no finite eps exists"
expect_status 0 eps-gauss2 --null-dim 50 --mu 0.9 --sigma 0.1 --delta 0.1 --json
expect_eq "$("$PYTHON" -c "import json; print(json.load(open('$TMP/out'))['eps'])")" "inf" "JSON inf"

# --- batch ------------------------------------------------------------------------------
printf 'delta,mu1,sigma1,mu2,sigma2\n1e-5,0,1,1,2\n1e-6,0,4.224678889326838,1,4.224678889326838\n\n1e-5,0,1,0,1\n' >"$TMP/rows.csv"
expect_status 0 eps-gauss2 --batch "$TMP/rows.csv"
expect_eq "$(wc -l <"$TMP/out")" "3" "one line per row (columns by name, blank line skipped)"
expect_near "$(sed -n 1p "$TMP/out")" 34.75037597641217 1e-10r "batch row 1"
expect_near "$(sed -n 2p "$TMP/out")" 1 1e-9r "batch row 2"
expect_eq "$(sed -n 3p "$TMP/out")" "0" "batch row 3"
expect_status 0 eps-gauss2 --batch --json <"$TMP/rows.csv"
expect_eq "$("$PYTHON" -c "import json; print([json.loads(l)['line'] for l in open('$TMP/out')])")" "[2, 3, 5]" "batch JSON lines name the rows"

# --- bad input: one line, exit 2 (usage) or 1 (data), nothing on stdout ------------------
expect_error 2 'eps-gauss2: error: --delta' eps-gauss2 --mu1 0 --sigma1 1 --mu2 1 --sigma2 1 --delta 0
expect_error 2 'eps-gauss2: error: --delta' eps-gauss2 --mu1 0 --sigma1 1 --mu2 1 --sigma2 1 --delta 1.5
expect_error 2 'eps-gauss2: error: --sigma1' eps-gauss2 --mu1 0 --sigma1 0 --mu2 1 --sigma2 1 --delta 1e-5
expect_error 2 'eps-gauss2: error: --sigma2' eps-gauss2 --mu1 0 --sigma1 1 --mu2 1 --sigma2 -1 --delta 1e-5
expect_error 2 'eps-gauss2: error: --mu1' eps-gauss2 --mu1 nan --sigma1 1 --mu2 1 --sigma2 1 --delta 1e-5
# --eps inf is a legitimate epsilon (issue 9): delta(inf) is the mass one side puts where
# the other has none. Between Gaussians that is 0; sigma 0 (no noise) meets (inf, delta).
expect_status 0 eps-gauss2 --gaussian-mechanism --eps inf --delta 1e-6
expect_eq "$(cat "$TMP/out")" 0 "sigma for eps inf"
expect_status 0 eps-gauss2 --gaussian-mechanism --sigma 1 --eps inf --json
expect_eq "$(cat "$TMP/out")" '{"delta":0.0,"eps":"inf","mode":"gaussian-mechanism","sigma":1.0}' "delta(inf), JSON"
expect_status 0 eps-gauss2 --mu1 0 --sigma1 1 --mu2 1 --sigma2 1.2 --eps inf
expect_eq "$(cat "$TMP/out")" 0 "delta(inf) of two Gaussians"
# Against the exact cosine null (support [-1, 1]): N(0.9, 0.3^2)'s mass outside [-1, 1],
# Phi(-19/3) + Phi(-1/3) = 0.3694413403017239 (scipy.stats.norm); the Gaussian null has none.
expect_status 0 eps-gauss2 --null-dim 10 --mu 0.9 --sigma 0.3 --eps inf
expect_near "$(cat "$TMP/out")" 0.3694413403017239 1e-12r "delta(inf) against the exact null"
expect_status 0 eps-gauss2 --null-dim 10 --null gaussian --mu 0.9 --sigma 0.3 --eps inf
expect_eq "$(cat "$TMP/out")" 0 "delta(inf) against the Gaussian null"
expect_error 2 'eps-gauss2: error: --mu2' eps-gauss2 --mu1 0 --sigma1 1 --mu2 inf --sigma2 1 --delta 1e-5
expect_error 2 'eps-gauss2: error: --mu1' eps-gauss2 --mu1 abc --sigma1 1 --mu2 1 --sigma2 1 --delta 1e-5
expect_error 2 'eps-gauss2: error: --eps' eps-gauss2 --mu1 0 --sigma1 1 --mu2 1 --sigma2 1 --eps -1
expect_error 2 'exactly one of --delta and --eps' eps-gauss2 --mu1 0 --sigma1 1 --mu2 1 --sigma2 1 --eps 1 --delta 1e-5
expect_error 2 'exactly one of --delta and --eps' eps-gauss2 --mu1 0 --sigma1 1 --mu2 1 --sigma2 1
expect_error 2 '--sigma2 is required' eps-gauss2 --mu1 0 --sigma1 1 --mu2 1 --delta 1e-5
expect_error 2 'eps-gauss2: error: --null-dim' eps-gauss2 --null-dim 1 --mu 0 --sigma 1 --delta 1e-5
expect_error 2 'eps-gauss2: error: --null' eps-gauss2 --null-dim 100 --null beta --mu 0 --sigma 1 --delta 1e-5
expect_error 2 '--sigma is required' eps-gauss2 --null-dim 100 --mu 0 --delta 1e-5
expect_error 2 '--mu1 cannot be used with --null-dim' eps-gauss2 --null-dim 100 --mu1 0 --mu 0 --sigma 1 --delta 1e-5
expect_error 2 'two of --sigma, --eps and --delta' eps-gauss2 --gaussian-mechanism --sigma 1
expect_error 2 'eps-gauss2: error: --sigma' eps-gauss2 --gaussian-mechanism --sigma 0 --delta 1e-5
expect_error 1 '^eps-gauss2: error: the sigma for eps 0 and delta 1e-17 is beyond double precision' eps-gauss2 --gaussian-mechanism --eps 0 --delta 1e-17
expect_error 2 '--delta cannot be used with --batch' eps-gauss2 --batch --delta 1e-5 "$TMP/rows.csv"
expect_error 2 'without --batch' eps-gauss2 --mu1 0 --sigma1 1 --mu2 1 --sigma2 1 --delta 1e-5 "$TMP/rows.csv"
printf 'mu1,sigma1,mu2,delta\n0,1,1,1e-5\n' >"$TMP/nocol.csv"
expect_error 1 "missing column 'sigma2'" eps-gauss2 --batch "$TMP/nocol.csv"
printf 'mu1,sigma1,mu2,sigma2,delta\n0,1,1,1,1e-5\n0,1,x,1,1e-5\n' >"$TMP/text.csv"
expect_error 1 "row 3.*mu2" eps-gauss2 --batch "$TMP/text.csv"
printf 'mu1,sigma1,mu2,sigma2,delta\n0,1,1,1,1e-5\n0,0,1,1,1e-5\n' >"$TMP/sigma0.csv"
expect_error 1 "sigma1 must be > 0.*row 3.*sigma1" eps-gauss2 --batch "$TMP/sigma0.csv"
printf 'mu1,sigma1,mu2,sigma2,delta\n0,1,1,1,1\n' >"$TMP/delta1.csv"
expect_error 1 "delta must be in \(0,1\).*row 2.*delta" eps-gauss2 --batch "$TMP/delta1.csv"
printf 'mu1,sigma1,mu2,sigma2,delta\n0,1,nan,1,1e-5\n' >"$TMP/nan.csv"
expect_error 1 "row 2.*mu2" eps-gauss2 --batch "$TMP/nan.csv"
printf 'mu1,sigma1,mu2,sigma2,delta\n0,1,1,1\n' >"$TMP/short.csv"
expect_error 1 "row 2" eps-gauss2 --batch "$TMP/short.csv"
expect_error 1 "empty input" eps-gauss2 --batch </dev/null
expect_error 1 "cannot open" eps-gauss2 --batch "$TMP/missing.csv"

# --- help and version ---------------------------------------------------------------------
expect_status 0 eps-gauss2 --help
grep -q '^EXAMPLES:' "$TMP/out" || fail "--help has no EXAMPLES section"
expect_status 0 eps-gauss2 --version
[ -s "$TMP/out" ] || fail "--version printed nothing"

# --batch: a header with no rows is an error (was exit 0, empty output); a row the
# solver rejects is bad data (exit 1) with its row (was exit 2 with no WHERE).
printf 'mu1,sigma1,mu2,sigma2,delta\n' >"$TMP/batch-header.csv"
expect_error 1 "no rows after the header \(.*batch-header.csv\)" eps-gauss2 --batch "$TMP/batch-header.csv"
printf 'mu1,sigma1,mu2,sigma2,delta\n0,1,1,1,1e-5\n0,1e-300,1,1e300,1e-5\n' >"$TMP/batch-range.csv"
expect_error 1 "differ by more than the double range \(.*batch-range.csv, row 3\)" eps-gauss2 --batch "$TMP/batch-range.csv"

# Means near +-1e308 of opposite signs: their difference overflowed to inf and the pair read
# as separable (eps inf, delta 1); in units of 1e308 it is N(-1,1) against N(1,1): the
# Gaussian mechanism at sigma 1/2, as N(0,1) against N(2,1).
expect_status 0 eps-gauss2 --mu1 0 --sigma1 1 --mu2 2 --sigma2 1 --delta 1e-5
want=$(cat "$TMP/out")
expect_status 0 eps-gauss2 --mu1 -1e308 --sigma1 1e308 --mu2 1e308 --sigma2 1e308 --delta 1e-5
expect_near "$(cat "$TMP/out")" "$want" 1e-12r "means at -+1e308, sigma 1e308"
# Subnormal means and deviations: N(0, 5e-324) against N(5e-324, 5e-324) is the Gaussian
# mechanism at sigma 1
expect_status 0 eps-gauss2 --gaussian-mechanism --sigma 1 --delta 1e-5
want=$(cat "$TMP/out")
expect_status 0 eps-gauss2 --mu1 0 --sigma1 4.9e-324 --mu2 4.9e-324 --sigma2 4.9e-324 --delta 1e-5
expect_near "$(cat "$TMP/out")" "$want" 1e-12r "subnormal Gaussians"
# Deviations 1e616 apart are legal values beyond double's range: exit 1 (was 2, a usage status)
expect_error 1 "standard deviations 1e-308 and 1e\+308 differ by more than the double range$" eps-gauss2 --mu1 0 --sigma1 1e-308 --mu2 1 --sigma2 1e308 --delta 1e-5

# --null-dim of 2^64 - 1 was "not a dimension >= 2": the range is named
expect_error 2 "value 18446744073709551615 is not a whole dimension in \[2, 1\.8e19\)$" eps-gauss2 --null-dim 18446744073709551615 --mu 0.1 --sigma 0.01 --delta 1e-5
expect_error 2 "'-1' is not a whole number >= 0$|value -1 is not a whole dimension" eps-gauss2 --null-dim -1 --mu 0.1 --sigma 0.01 --delta 1e-5

finish
