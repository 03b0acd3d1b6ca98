#!/bin/bash
# needs: dp-train
# The curve gate (issue 20): rdp-compose --tradeoff writes the f-DP trade-off curve an
# accountant certifies; eps-from-scores --against-curve tests scores or decisions against it.
# Closed forms (the Gaussian mechanism's curve G_mu, Clopper-Pearson at zero errors), the
# file's shape, determinism, DP-SGD's correct trainer against a faulty one, and bad input.
source "$SRC/tests/cli/lib.bash"

# ---- rdp-compose --tradeoff ----------------------------------------------------------------
# q = 1, one step at sigma 0.8: the Gaussian mechanism, mu = 1.25, G_mu(x) = Phi(Phi^-1(1-x) - mu)
# exact (Dong, Roth & Su 2022, Eq. 6). The curve lies under it everywhere, within 3e-5 mu.
expect_status 0 rdp-compose --accountant pld --sigma 0.8 --q 1 --steps 1 --tradeoff "$TMP/gauss.csv"
expect_eq "$(head -1 "$TMP/gauss.csv")" "fpr,fnr" "curve header"
expect_eq "$(cat "$TMP/out")" "" "nothing on stdout with --tradeoff FILE"
"$PYTHON" - "$TMP/gauss.csv" <<'PY' || fail "Gaussian mechanism's curve: not under G_mu within 3e-5 mu, or not a curve"
import csv, sys
from scipy.stats import norm
rows = [(float(r["fpr"]), float(r["fnr"])) for r in csv.DictReader(open(sys.argv[1]))]
mu = 1.25
xs = [x for x, _ in rows]
assert xs[0] == 0 and rows[-1][1] == 0 and all(a < b for a, b in zip(xs, xs[1:]))
assert all(a[1] >= b[1] for a, b in zip(rows, rows[1:]))
assert 1 - 1.0011e-12 < rows[0][1] < 1 - 1e-12    # delta at the grid's end, 1e-12, and the 1e-15 of rounding
# symmetric: vertex i is the mirror image of vertex n-1-i (f is its own inverse)
assert all(a == (b[1], b[0]) for a, b in zip(rows, reversed(rows)))
def f(x):
    import bisect
    i = bisect.bisect_right(xs, x)
    if i == len(xs):
        return 0.0
    (x0, y0), (x1, y1) = rows[i - 1], rows[i]
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
gaps = [norm.sf(norm.ppf(x) + mu) - f(x) for x in [i / 10000 for i in range(1, 10000)] + [10 ** (-k / 10) for k in range(40, 90)]]
assert min(gaps) >= -1e-14, min(gaps)
assert max(gaps) <= 3e-5 * mu, max(gaps)
PY
# stdout, and the same bytes for any --threads
expect_status 0 rdp-compose --accountant pld --sigma 0.8 --q 1 --steps 1 --tradeoff - --threads 2
cmp -s "$TMP/out" "$TMP/gauss.csv" || fail "--tradeoff - differs from --tradeoff FILE (or with --threads 2)"

# DP-SGD's run of experiments/ci-gate.md (sigma 2.2477, q 0.1, 100 steps): PLD's curve and RDP's.
# [measured] f(0.01): PLD 0.9675, RDP 0.9609 (RDP's pairs are weaker); PLD's eps at delta 1e-5 is
# 2.000, so the curve holds the pair (2.000, 1e-5): f(x) >= 1 - 1e-5 - e^2 x.
expect_status 0 rdp-compose --accountant pld --sigma 2.2477 --q 0.1 --steps 100 --tradeoff "$TMP/pld.csv"
expect_status 0 rdp-compose --sigma 2.2477 --q 0.1 --steps 100 --tradeoff "$TMP/rdp.csv"
"$PYTHON" - "$TMP/pld.csv" "$TMP/rdp.csv" <<'PY' || fail "DP-SGD curves: PLD 0.9675 and RDP 0.9609 at FPR 0.01"
import csv, math, sys
import numpy as np
def curve(path):
    rows = [(float(r["fpr"]), float(r["fnr"])) for r in csv.DictReader(open(path))]
    x, y = np.array(rows).T
    return lambda t: float(np.interp(t, x, y, right=0.0))
pld, rdp = curve(sys.argv[1]), curve(sys.argv[2])
assert abs(pld(0.01) - 0.9675) < 5e-4 and abs(rdp(0.01) - 0.9609) < 5e-4, (pld(0.01), rdp(0.01))
grid = [i / 2000 for i in range(2001)]
assert all(pld(t) >= rdp(t) - 1e-5 for t in grid)
assert all(pld(t) >= 1 - 1e-5 - math.exp(2.0001) * t - 1e-12 for t in grid)
PY

# ---- eps-from-scores --against-curve ---------------------------------------------------------
# Decisions, 1000 each way, none wrong, against pure (1, 0)-DP written by hand: both bounds are
# u = 1 - 0.025^(1/1000), f(u) = 1 - e u, margin 1 - e u - u = 0.98632 (refuted).
printf 'fpr,fnr\n0,1\n0.2689414213699951,0.2689414213699951\n1,0\n' >"$TMP/pure1.csv"
"$PYTHON" -c "
print('label,guess')
for i in range(1000): print('1,1'); print('0,0')" >"$TMP/won.csv"
expect_status 0 eps-from-scores --decisions "$TMP/won.csv" --against-curve "$TMP/pure1.csv"
expect_eq "$(cat "$TMP/out")" "refuted" "all won against (1, 0)-DP"
expect_status 0 eps-from-scores --decisions "$TMP/won.csv" --against-curve "$TMP/pure1.csv" --json
"$PYTHON" - "$TMP/out" <<'PY' || fail "decisions JSON against (1, 0)-DP: $(cat "$TMP/out")"
import json, math, sys
j = json.load(open(sys.argv[1]))
u = 1 - 0.025 ** (1 / 1000)
assert j["result"] == "refuted" and j["refuted"] is True and j["assumes"] == "none"
assert abs(j["fpr_bound"] - u) < 1e-13 and abs(j["fnr_bound"] - u) < 1e-13
assert abs(j["curve_at_fpr_bound"] - (1 - math.e * u)) < 1e-12
assert abs(j["margin"] - (1 - math.e * u - u)) < 1e-12
assert j["alpha"] == 0.05 and j["alpha_per_rate"] == 0.025 and j["thresholds"] is None
assert j["decision_rule"] == "the game's guesses" and j["n_in"] == 1000 and j["n_out"] == 1000
PY

# The CI gate on DP-SGD (the malicious-dataset game, simulated, 1000 trials per hypothesis):
# the correct trainer is consistent with its PLD curve, a trainer that skips clipping refutes it.
dp-train sgd --threat malicious-dataset --engine simulate --eps 2 --trials 1000 --quiet >"$TMP/none.csv"
dp-train sgd --threat malicious-dataset --engine simulate --eps 2 --trials 1000 --fault no-clip --quiet >"$TMP/noclip.csv"
expect_status 0 eps-from-scores "$TMP/none.csv" --against-curve "$TMP/pld.csv" --fail-on-refute
expect_eq "$(cat "$TMP/out")" "consistent" "the correct trainer"
expect_error 3 "eps-from-scores: error: the claimed curve .*pld.csv is refuted at alpha 0.05: FNR <= .* < f\(FPR <= .*\) = .* for the rule in when score >= .* \(.*noclip.csv\)" \
  eps-from-scores "$TMP/noclip.csv" --against-curve "$TMP/pld.csv" --fail-on-refute
expect_status 0 eps-from-scores - --against-curve "$TMP/pld.csv" --json <"$TMP/noclip.csv"
"$PYTHON" - "$TMP/out" <<'PY' || fail "no-clip JSON: $(cat "$TMP/out")"
import json, sys
j = json.load(open(sys.argv[1]))
# Bonferroni over the 2000 distinct scores: alpha / 2 / 2000 per rate; the margin is f - FNR_hi there.
assert j["refuted"] and j["thresholds"] == "bonferroni" and j["thresholds_tried"] == 2000
assert j["alpha_per_rate"] == 0.05 / 2 / 2000
assert abs(j["margin"] - (j["curve_at_fpr_bound"] - j["fnr_bound"])) < 1e-15 and j["margin"] > 0.5
PY
# The same verdicts by every valid strategy; multi-split is the same for any --threads.
for strategy in "--thresholds split --seed 2" "--thresholds multi-split --seed 2 --splits 31" "--threshold 0"; do
  expect_status 0 eps-from-scores "$TMP/none.csv" --against-curve "$TMP/pld.csv" $strategy
  expect_eq "$(cat "$TMP/out")" "consistent" "correct trainer, $strategy"
  expect_status 0 eps-from-scores "$TMP/noclip.csv" --against-curve "$TMP/pld.csv" $strategy
  expect_eq "$(cat "$TMP/out")" "refuted" "no-clip, $strategy"
done
expect_status 0 eps-from-scores "$TMP/noclip.csv" --against-curve "$TMP/pld.csv" --thresholds multi-split --seed 2 --json
one=$(cat "$TMP/out")
expect_status 0 eps-from-scores "$TMP/noclip.csv" --against-curve "$TMP/pld.csv" --thresholds multi-split --seed 2 --json --threads 2
expect_eq "$(cat "$TMP/out")" "$one" "multi-split with 2 threads"
expect_status 0 eps-from-scores "$TMP/none.csv" --against-curve "$TMP/pld.csv" --report
grep -q "^result  *consistent" "$TMP/out" || fail "--report: $(cat "$TMP/out")"

# ---- bad input ---------------------------------------------------------------------------------
expect_error 2 'rdp-compose: error: --delta cannot be used with --tradeoff' \
  rdp-compose --sigma 1 --q 0.1 --steps 10 --delta 1e-5 --tradeoff -
expect_error 2 'rdp-compose: error: --json cannot be used with --tradeoff' rdp-compose --sigma 1 --q 0.1 --steps 10 --tradeoff - --json
expect_error 2 'rdp-compose: error: --tradeoff writes a curve the accountant certifies: pld or rdp' \
  rdp-compose --accountant gdp --sigma 1 --q 0.1 --steps 10 --tradeoff -
expect_error 2 'rdp-compose: error: --tradeoff cannot be used with --eps' rdp-compose --eps 1 --q 0.1 --steps 10 --tradeoff -
expect_error 2 'rdp-compose: error: --delta is required' rdp-compose --sigma 1 --q 0.1 --steps 10
expect_error 1 'rdp-compose: error: cannot' rdp-compose --sigma 1 --q 1 --steps 1 --tradeoff "$TMP/no/such/dir/c.csv"
printf 'fpr,fnr\n0,1\n0.5,0.6\n1,0\n' >"$TMP/above.csv"
expect_error 1 'eps-from-scores: error: fnr 0.6 is above 1 - fpr at fpr 0.5: no test does worse than a coin \(.*above.csv, row 3\)' \
  eps-from-scores "$TMP/none.csv" --against-curve "$TMP/above.csv"
printf 'fpr,fnr\n0,1\n0.5,0.4\n' >"$TMP/open.csv"
expect_error 1 'the last vertex must have fnr 0 .*open.csv, row 3' eps-from-scores "$TMP/none.csv" --against-curve "$TMP/open.csv"
expect_error 2 'needs a valid level: bonferroni, split, multi-split or one fixed threshold' \
  eps-from-scores "$TMP/none.csv" --against-curve "$TMP/pld.csv" --thresholds max
expect_error 2 'eps-from-scores: error: --method cannot be used with --against-curve' \
  eps-from-scores "$TMP/none.csv" --against-curve "$TMP/pld.csv" --method gdp
expect_error 2 'eps-from-scores: error: --fail-above cannot be used with --against-curve' \
  eps-from-scores "$TMP/none.csv" --against-curve "$TMP/pld.csv" --fail-above 2
expect_error 2 'the scores and the curve cannot both be stdin' eps-from-scores - --against-curve - <"$TMP/none.csv"
expect_error 2 'eps-from-scores: error: --fail-on-refute requires --against-curve' eps-from-scores "$TMP/none.csv" --fail-on-refute
expect_error 2 'eps-from-scores: error: --decisions is one decision rule' \
  eps-from-scores --decisions "$TMP/won.csv" --against-curve "$TMP/pure1.csv" --threshold 1

finish
