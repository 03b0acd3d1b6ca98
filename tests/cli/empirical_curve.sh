#!/usr/bin/env bash
# eps-from-scores --roc-band and --eps-delta (stats/empirical_curve.hpp): the empirical curve
# of a score file and eps_lo on the delta grid, each the default Clopper-Pearson/Bonferroni
# estimate where they meet it; refused where the input is not plain scores.
source "$SRC/tests/cli/lib.bash"
cd "$TMP"
printf 'label,score\n1,4\n1,5\n1,6\n0,1\n0,2\n0,3\n' >sep.csv
expect_status 0 eps-from-scores sep.csv --roc-band band.csv --eps-delta eps.csv
# Three in scores above three out: one rule (t = 4) dominates, TPR 1 and FPR 0 observed; its
# bounds are Clopper-Pearson's at alpha / (2 K) = 0.05 / 12 with K = 6 distinct scores:
# FPR_hi = 1 - (0.05/12)^(1/3), TPR_lo = (0.05/12)^(1/3).
expect_eq "$(wc -l <band.csv)" "2" "the separated scores' frontier is one rule"
expect_eq "$(head -1 band.csv)" "threshold,fpr,tpr,fpr_hi,tpr_lo" "the band's header"
row=$(sed -n 2p band.csv)
expect_eq "$(cut -d, -f1-3 <<<"$row")" "4,0,1" "the rule and its observed rates"
expect_near "$(cut -d, -f4 <<<"$row")" "$("$PYTHON" -c 'print(1 - (0.05/12)**(1/3))')" 1e-12r "FPR_hi"
expect_near "$(cut -d, -f5 <<<"$row")" "$("$PYTHON" -c 'print((0.05/12)**(1/3))')" 1e-12r "TPR_lo"
expect_eq "$(wc -l <eps.csv)" "38" "37 deltas and the header"
expect_eq "$(sed -n 2p eps.csv | cut -d, -f1)" "0.1" "the grid starts at 0.1"
# At delta 1e-5 (row 18), eps_lo is the default estimate at that delta.
expect_eq "$(sed -n 18p eps.csv)" "1e-05,$(eps-from-scores sep.csv --delta 1e-5)" "eps_lo(1e-5)"
# Gaussian scores (out N(0,1), in N(1,1), 2,000 each, Python's seed 5): every delta agrees.
"$PYTHON" -c '
import random
random.seed(5)
print("label,score")
for i in range(2000):
    print(f"0,{random.gauss(0, 1)!r}"); print(f"1,{random.gauss(1, 1)!r}")' >game.csv
expect_status 0 eps-from-scores game.csv --eps-delta game-eps.csv -q
for row in 2 10 18 30 38; do
  delta=$(sed -n ${row}p game-eps.csv | cut -d, -f1)
  expect_eq "$(sed -n ${row}p game-eps.csv | cut -d, -f2)" "$(eps-from-scores game.csv --delta "$delta" -q)" "eps_lo at delta $delta"
done
expect_error 2 "^eps-from-scores: error: --decisions excludes --roc-band$" eps-from-scores --decisions sep.csv --roc-band b.csv
expect_error 2 "with --sequential" eps-from-scores --sequential sep.csv --eps-delta e.csv

# rdp-compose --eps-delta: the analytic eps on the same grid, each row what the plain output
# prints at that delta; with --release final, the last-iterate heuristic's line.
RUN=(rdp-compose --accountant pld --sigma 2.2477949531720802 --q 0.1 --steps 100)
expect_status 0 "${RUN[@]}" --tradeoff curve.csv --eps-delta analytic.csv
expect_eq "$(wc -l <analytic.csv)" "38" "the analytic file's rows"
expect_eq "$(head -1 analytic.csv)" "delta,eps_upper" "the analytic file says it holds bounds"
expect_eq "$(sed -n 18p analytic.csv)" "1e-05,$("${RUN[@]}" --delta 1e-5)" "analytic eps at 1e-5"
expect_eq "$(sed -n 2p analytic.csv)" "0.1,$("${RUN[@]}" --delta 0.1)" "analytic eps at 0.1"
expect_status 0 "${RUN[@]}" --release final --tradeoff final.csv --eps-delta final-eps.csv
expect_eq "$(head -1 final-eps.csv)" "delta,eps_heuristic" "the last-iterate file says it is no bound"
expect_eq "$(sed -n 18p final-eps.csv)" "1e-05,$("${RUN[@]}" --delta 1e-5 --release final | sed -n '2s/ .*//p')" "last-iterate eps at 1e-5"
# The last iterate's curve lies on or above (a weaker adversary) the all-iterates one: its fnr at
# the all-iterates curve's fpr 0.01 vertex is at least as large (linear interpolation).
"$PYTHON" - curve.csv final.csv <<'PY' || fail "the last-iterate curve is below the all-iterates one"
import bisect, csv, sys
def load(p):
    rows = list(csv.reader(open(p)))[1:]
    return [float(r[0]) for r in rows], [float(r[1]) for r in rows]
def at(xs, ys, x):
    i = bisect.bisect_left(xs, x)
    if i == 0: return ys[0]
    if i == len(xs): return 0.0
    t = (x - xs[i - 1]) / (xs[i] - xs[i - 1])
    return ys[i - 1] + t * (ys[i] - ys[i - 1])
(ax, ay), (fx, fy) = load(sys.argv[1]), load(sys.argv[2])
sys.exit(0 if all(at(fx, fy, x) >= at(ax, ay, x) - 1e-9 for x in (1e-4, 1e-3, 1e-2, 0.1, 0.3)) else 1)
PY
CHECKS=$((CHECKS + 1))
expect_error 2 "eps-delta requires --tradeoff" rdp-compose --accountant pld --sigma 1 --q 0.1 --steps 10 --delta 1e-5 --eps-delta x.csv
finish
