#!/bin/bash
# eps-from-scores: known answers of every method, output forms, determinism, and one
# check per bad-input case of issue 3.
source "$SRC/tests/cli/lib.bash"
T=eps-from-scores

# ---- inputs ------------------------------------------------------------------
# 1000 in scores above 1000 out scores (perfectly separated).
"$PYTHON" - "$TMP" <<'PY'
import sys
import numpy as np
d = sys.argv[1]
with open(f"{d}/separated.csv", "w") as f:
    f.write("id,label,score\n")
    for i in range(1000):
        f.write(f"{i},1,{2 + i / 1000}\n{1000 + i},0,{i / 1000}\n")
with open(f"{d}/negated.csv", "w") as f:
    f.write("label,score\n")
    for i in range(1000):
        f.write(f"1,{-(2 + i / 1000)}\n0,{-(i / 1000)}\n")
np.save(f"{d}/in.npy", np.array([[2 + i / 1000 for i in range(500)], [2.5 + i / 1000 for i in range(500)]]))
np.save(f"{d}/out.npy", np.array([i / 1000 for i in range(1000)], dtype=np.float32))
np.save(f"{d}/nan.npy", np.array([0.1, np.nan, 0.3]))
# Matsumoto et al. 2022, Sec. 3's example: FP rate 0.1, FN rate 0.2 over 100 + 100 trials.
with open(f"{d}/decisions.csv", "w") as f:
    f.write("label,guess\n")
    f.writelines(f"1,{0 if i < 20 else 1}\n" for i in range(100))
    f.writelines(f"0,{1 if i < 10 else 0}\n" for i in range(100))
PY
# Hand example: the rule score >= 0.6 has FNR = FPR = 1/3, eps = log 2; rounds 1 and 2.
printf 'label,score,round\n1,0.1,1\n1,0.6,1\n1,0.8,1\n0,0.2,1\n0,0.5,1\n0,0.9,1\n1,3,2\n1,1,2\n0,-1,2\n0,-3,2\n' >"$TMP/hand.csv"
# gauss-fit: in {1,3} = N(2,1), out {-1,1} = N(0,1).
printf 'label,score\n1,1\n1,3\n0,-1\n0,1\n' >"$TMP/gauss.csv"
# Cosines for --null-dim 100: in {0.1,0.3} = N(0.2, 0.1^2), one label-0 row to ignore.
printf 'label,score\n1,0.1\n1,0.3\n0,0.05\n' >"$TMP/cosines.csv"

# ---- known answers -------------------------------------------------------------
expect_status 0 $T "$TMP/separated.csv" --method threshold
expect_eq "$(cat "$TMP/out")" "inf" "threshold on separated scores"

# Nasr et al. 2021, Sec. III-C: 1000 successful trials allow at most 5.60 with Clopper-Pearson at 95%,
# each rate bounded at alpha/2: log((1-u)/u), u = 1 - 0.025^(1/1000) = 5.6005875...
expect_status 0 $T "$TMP/separated.csv" --thresholds max
expect_near "$(cat "$TMP/out")" 5.600587531298923 1e-9 "Nasr et al. 2021's 5.60 (max)"
expect_status 0 $T "$TMP/separated.csv" --threshold 1.5
expect_near "$(cat "$TMP/out")" 5.600587531298923 1e-9 "Nasr et al. 2021's 5.60 (fixed threshold)"
expect_status 0 $T "$TMP/negated.csv" --negate --thresholds max --json
expect_eq "$("$PYTHON" -c 'import json,sys; j=json.load(sys.stdin); print(j["decision_rule"], j["fpr"], j["fnr"], round(j["epsilon"], 9))' <"$TMP/out")" \
  "score <= -2 0.0 0.0 5.600587531" "--negate: rule in input units"
# Bonferroni over the 2000 thresholds: each rate at 0.05/4000.
expect_status 0 $T "$TMP/separated.csv"
expect_near "$(cat "$TMP/out")" "$("$PYTHON" -c 'import math; u = 1 - (0.05/4000)**1e-3; print(math.log((1-u)/u))')" 1e-9 "bonferroni"

expect_status 0 $T --in "$TMP/in.npy" --out "$TMP/out.npy" --thresholds max
expect_near "$(cat "$TMP/out")" 5.600587531298923 1e-9 "NPY pair (2-D f8 in, f4 out)"

grep -v ',2$' "$TMP/hand.csv" | cut -d, -f1,2 >"$TMP/hand1.csv"
expect_status 0 $T "$TMP/hand1.csv" -m threshold
expect_near "$(cat "$TMP/out")" 0.6931471805599453 1e-12 "hand example: log 2"
expect_status 0 $T "$TMP/hand1.csv" -m threshold --delta 0.1
expect_near "$(cat "$TMP/out")" 0.5306282510621704 1e-12 "hand example, delta 0.1: log 1.7"

expect_status 0 $T --decisions "$TMP/decisions.csv" -m threshold
expect_near "$(cat "$TMP/out")" 2.0794415416798357 1e-12 "Matsumoto et al. 2022's example: log 8"
# Clopper-Pearson on the same decisions: FPR <= beta.ppf(.975, 11, 90), FNR <= beta.ppf(.975, 21, 80)
expect_status 0 $T --decisions "$TMP/decisions.csv"
expect_near "$(cat "$TMP/out")" "$("$PYTHON" -c 'import math; from scipy.stats import beta; f=beta.ppf(.975,11,90); n=beta.ppf(.975,21,80); print(max(math.log((1-f)/n), math.log((1-n)/f)))')" 1e-9 "decisions, clopper-pearson"

# Two unit Gaussians 2 apart at delta 1e-5: 9.997256146434298 (Balle-Wang, scipy brentq).
expect_status 0 $T "$TMP/gauss.csv" -m gauss-fit --delta 1e-5
expect_near "$(cat "$TMP/out")" 9.997256146434298 1e-7 "gauss-fit"
expect_status 0 $T "$TMP/cosines.csv" --null-dim 100 --null gaussian --delta 1e-5
expect_near "$(cat "$TMP/out")" 9.997256146434298 1e-7 "gauss-fit against N(0,1/d)"
grep -q "note: ignoring 1 rows with label 0" "$TMP/err" || fail "no note about ignored label-0 rows"
expect_status 0 $T "$TMP/cosines.csv" --null-dim 100 --delta 1e-5 -q
[ -s "$TMP/err" ] && fail "--quiet still prints notes"

# Per round: delta = 1/n per round (CANIFE); round 1 is the hand example at delta 1/6:
# log((1 - 1/6 - 1/3)/(1/3)) = log 1.5; round 2 separates: inf.
expect_status 0 $T "$TMP/hand.csv" --per round -m threshold
expect_eq "$(sed -n '1p;3p' "$TMP/out")" "$(printf 'round,epsilon\n2,inf')" "per round CSV"
expect_near "$(sed -n 2p "$TMP/out" | cut -d, -f2)" 0.4054651081081644 1e-12 "per round: round 1 at delta 1/6"
# A round with one score would need delta = 1/1: bad data (exit 1), with the round.
printf 'label,score,round\n1,0.1,1\n' >"$TMP/one_score_round.csv"
expect_error 1 '^eps-from-scores: error: 1 score: delta = 1/n needs at least 2 \(round 1\)$' \
  $T "$TMP/one_score_round.csv" --per round --null-dim 10 -m threshold
expect_status 0 $T "$TMP/hand.csv" --per round -m threshold --json
expect_eq "$("$PYTHON" -c 'import json,sys; j=json.load(sys.stdin); print(j["max_epsilon"], [r["delta"] for r in j["rounds"]])' <"$TMP/out")" \
  "inf [0.16666666666666666, 0.25]" "per round JSON"

# ---- output forms ----------------------------------------------------------------
expect_status 0 $T "$TMP/separated.csv" --json
"$PYTHON" - "$TMP/out" <<'PY' || fail "JSON fields"
import json, sys
j = json.load(open(sys.argv[1]))
s = j["summary"]
assert j["method"] == "clopper-pearson" and j["thresholds"] == "bonferroni", j
assert j["n_in"] == 1000 and j["n_out"] == 1000 and j["thresholds_tried"] == 2000
assert s["auroc"] == 1.0 and s["tpr_at_fpr"] == {"0.001": 1.0, "0.01": 1.0, "0.1": 1.0}, s
assert abs(s["in"]["mean"] - 2.4995) < 1e-12 and s["out"]["count"] == 1000
assert 0 < s["in"]["anderson_darling"] < 20
PY
expect_status 0 $T "$TMP/separated.csv" -m threshold --json
grep -q '"epsilon":"inf"' "$TMP/out" || fail "inf prints as \"inf\" in JSON"
expect_status 0 $T "$TMP/separated.csv" --report
grep -q "^epsilon  *4\.4" "$TMP/out" || fail "report shows the epsilon"
grep -q "^AUROC  *1$" "$TMP/out" || fail "report shows AUROC"

# Same seed, same bytes; the output file appears whole.
expect_status 0 $T "$TMP/separated.csv" --thresholds split --seed 5 --json -o "$TMP/a.json"
expect_status 0 $T "$TMP/separated.csv" --thresholds split --seed 5 --json -o "$TMP/b.json"
cmp -s "$TMP/a.json" "$TMP/b.json" || fail "--seed is not deterministic"

# CI gate: exit 3, one line, nothing on stdout or in -o.
expect_error 3 'error: epsilon 4\.4[0-9]* exceeds the budget --fail-above 4 \(.*separated.csv\)' \
  $T "$TMP/separated.csv" --fail-above 4 -o "$TMP/gate.txt"
[ -e "$TMP/gate.txt" ] && fail "-o file written although the budget was exceeded"
expect_status 0 $T "$TMP/separated.csv" --fail-above 5
expect_near "$(cat "$TMP/out")" 4.478207016027911 1e-9 "under budget: epsilon printed"

expect_status 0 $T --help
grep -q "EXAMPLES" "$TMP/out" || fail "--help has no EXAMPLES"
grep -q "OVER-STATES" "$TMP/out" || fail "--help does not warn that max over-states confidence"
expect_status 0 $T --version
# ---- bad input: one line, exit 1 (data) or 2 (usage), nothing on stdout ----------------
printf '' >"$TMP/empty.csv"
printf 'label,score\n' >"$TMP/header_only.csv"
printf 'label,score\n1,0.5\n1,0.7\n' >"$TMP/no_out.csv"
printf 'label,score\n0,0.5\n' >"$TMP/no_in.csv"
printf 'label,score\n1,0.5\n0,nan\n' >"$TMP/nan.csv"
printf 'label,score\n1,inf\n0,0.1\n' >"$TMP/inf.csv"
printf 'label,score\n1,0.5\n0,high\n' >"$TMP/text.csv"
printf 'label,score\n1,0.5\n2,0.1\n' >"$TMP/label.csv"
printf 'label,value\n1,0.5\n0,0.1\n' >"$TMP/no_score.csv"
printf 'class,score\n1,0.5\n0,0.1\n' >"$TMP/no_label.csv"
printf 'label,score\n1,0.5,7\n' >"$TMP/ragged.csv"
expect_error 1 'empty input: no header line \(.*empty.csv\)' $T "$TMP/empty.csv"
expect_error 1 'empty input: no header line \(stdin\)' $T <"$TMP/empty.csv"
expect_error 1 'no score rows \(.*header_only.csv\)' $T "$TMP/header_only.csv"
expect_error 1 'no rows with label 0 \(out\) \(.*no_out.csv\)' $T "$TMP/no_out.csv"
expect_error 1 'no rows with label 1 \(in\) \(.*no_in.csv\)' $T "$TMP/no_in.csv"
expect_error 1 "'nan' is not a finite number \(.*nan.csv, row 3, column 'score'\)" $T "$TMP/nan.csv"
expect_error 1 "'inf' is not a finite number \(.*inf.csv, row 2, column 'score'\)" $T "$TMP/inf.csv"
expect_error 1 "'high' is not a finite number \(.*text.csv, row 3, column 'score'\)" $T "$TMP/text.csv"
expect_error 1 "label '2' is not 0 or 1 \(.*label.csv, row 3, column 'label'\)" $T "$TMP/label.csv"
expect_error 1 "missing column 'score'.*no_score.csv" $T "$TMP/no_score.csv"
# A UTF-8 byte-order mark (Excel's "CSV UTF-8") is named, not an invisible 'missing column'.
printf '\xef\xbb\xbflabel,score\n1,0.9\n0,0.1\n' >"$TMP/bom.csv"
expect_error 1 "byte-order mark.*\(.*bom.csv, row 1\)" $T "$TMP/bom.csv"
# Two 'label' columns: an error, not silently the first.
printf 'label,label,score\n1,0,0.9\n0,1,0.1\n' >"$TMP/dup.csv"
expect_error 1 "column 'label' appears more than once in the header \(.*dup.csv\)" $T "$TMP/dup.csv"
# With --null-dim, the note about ignored label-0 rows came before an error: two lines.
printf 'label,score\n1,0.5\n1,0.5\n0,0.1\n' >"$TMP/null-equal.csv"
expect_error 1 "all in scores are equal" $T "$TMP/null-equal.csv" --null-dim 100 --delta 1e-5
# gauss-fit of scores near 1e308: the variance overflowed and reached the solver (exit 2),
# then was refused (exit 1); in units of 2^1023 the two classes are the same: eps 0.
printf 'label,score\n1,1e308\n1,-1e308\n0,1e308\n0,-1e308\n' >"$TMP/huge.csv"
expect_status 0 $T "$TMP/huge.csv" --method gauss-fit --delta 1e-5
expect_eq "$(cat "$TMP/out")" 0 "gauss-fit of equal classes near 1e308"
# Scores near 1e308 or subnormal are the same scores in other units: every method gives the
# eps of the scores 1..4 against 0,-1,-2,3; --json and --report too (their score summary
# reached log Phi with a NaN, "log_normal_cdf of NaN", exit 2, or said "all samples are
# equal" of subnormal scores that differ). gauss-fit's reference: the two-Gaussian eps of
# the fits, N(0, 3.5) and N(2.5, 1.25) (numpy's mean and std), by eps-gauss2.
"$PYTHON" - "$TMP" <<'PY'
import sys
pairs = [(1, 1), (1, 2), (1, 3), (1, 4), (0, 0), (0, -1), (0, -2), (0, 3)]
for name, unit in (("units", 1.0), ("subnormal", 2.0**-1074), ("near-max", 2.0**1021)):
    with open(f"{sys.argv[1]}/{name}.csv", "w") as f:
        f.write("label,score\n" + "".join(f"{l},{v * unit!r}\n" for l, v in pairs))
PY
want=$(eps-gauss2 --mu1 0 --sigma1 "$("$PYTHON" -c 'print(3.5 ** 0.5)')" --mu2 2.5 --sigma2 "$("$PYTHON" -c 'print(1.25 ** 0.5)')" --delta 1e-5)
for f in units subnormal near-max; do
  expect_status 0 $T "$TMP/$f.csv" --method gauss-fit --delta 1e-5
  expect_near "$(cat "$TMP/out")" "$want" 1e-12r "gauss-fit of $f scores"
  for m in threshold clopper-pearson gauss-fit gdp; do
    expect_status 0 $T "$TMP/$f.csv" --method $m --delta 1e-5 --json
    grep -qi nan "$TMP/out" && fail "NaN in --json of $m on $f scores"
    expect_status 0 $T "$TMP/$f.csv" --method $m --delta 1e-5 --report
  done
done
summary() {  # eps, the in scores' Anderson-Darling and the AUROC of --json on stdin
  "$PYTHON" -c "import json,sys; j=json.load(sys.stdin); s=j['summary']; print(j['epsilon'], '%.12g' % s['in']['anderson_darling'], s['auroc'])"
}
expect_status 0 $T "$TMP/units.csv" --json
units=$(summary <"$TMP/out")
for f in subnormal near-max; do
  expect_status 0 $T "$TMP/$f.csv" --json
  expect_eq "$(summary <"$TMP/out")" "$units" "--json of $f scores"
done
# A trial column: rows of shards concatenated twice (or overlapping) counted twice and moved
# the bound silently; each (trial, label) once, within a round where there is a round column.
printf 'trial,label,score\n0,0,0.1\n0,1,0.9\n1,0,0.2\n1,1,0.8\n' >"$TMP/shard.csv"
{ cat "$TMP/shard.csv"; tail -n +2 "$TMP/shard.csv"; } >"$TMP/twice.csv"
expect_status 0 $T "$TMP/shard.csv"
expect_error 1 "trial 0 with label 0 appears twice, rows 2 and 6 \(shards concatenated twice or with overlapping trials\?\) \(.*twice.csv, row 6\)$" $T "$TMP/twice.csv"
printf 'round,trial,label,score\n0,0,0,0.1\n0,1,1,0.9\n1,0,0,0.2\n1,1,1,0.8\n' >"$TMP/rounds-trials.csv"
expect_status 0 $T "$TMP/rounds-trials.csv" --per round --method threshold
printf '1,1,1,0.7\n' >>"$TMP/rounds-trials.csv"
expect_error 1 "trial 1 with label 1 in round 1 appears twice, rows 5 and 6 .*\(.*rounds-trials.csv, row 6\)$" $T "$TMP/rounds-trials.csv" --per round --method canife
printf 'trial,label,guess\n0,0,0\n0,1,1\n0,1,1\n' >"$TMP/decisions-twice.csv"
expect_error 1 "trial 0 with label 1 appears twice, rows 3 and 4 .*\(.*decisions-twice.csv, row 4\)$" $T --decisions "$TMP/decisions-twice.csv"
expect_error 1 "trial -1 is not a whole number >= 0 \(.*, row 2, column 'trial'\)$" $T <<<$'trial,label,score\n-1,0,0.1'
# A NUL byte in a field cut the error line at it: written \x00
printf 'label,score\n1,0.5\000abc\n0,0.1\n' >"$TMP/nul.csv"
expect_error 1 "'0\.5\\\\x00abc' is not a finite number \(.*nul.csv, row 2, column 'score'\)$" $T "$TMP/nul.csv"
expect_error 1 "missing column 'label'.*no_label.csv" $T "$TMP/no_label.csv"
expect_error 1 "row has 3 fields, header has 2 \(.*ragged.csv, row 2\)" $T "$TMP/ragged.csv"
expect_error 1 'cannot open file \(.*missing.csv\)' $T "$TMP/missing.csv"
expect_error 1 'cannot open.*missing.npy' $T --in "$TMP/missing.npy" --out "$TMP/out.npy"
expect_error 1 'non-finite value nan \(.*nan.npy, index 1\)' $T --in "$TMP/nan.npy" --out "$TMP/out.npy"
cp "$TMP/hand.csv" "$TMP/hand_r.csv"; echo "1,0.5,3" >>"$TMP/hand_r.csv"
expect_error 1 "no rows with label 0 \(out\) \(.*hand_r.csv, round 3\)" $T "$TMP/hand_r.csv" --per round
expect_error 1 "missing column 'round'" $T "$TMP/separated.csv" --per round
expect_error 1 "score 2 is not a cosine in \[-1,1\].*separated.csv, row 2, column 'score'" \
  $T "$TMP/separated.csv" --null-dim 100 -m jeffreys
printf 'label,guess\n1,1\n0,yes\n' >"$TMP/bad_guess.csv"
expect_error 1 "label 'yes' is not 0 or 1 \(.*bad_guess.csv, row 3, column 'guess'\)" $T --decisions "$TMP/bad_guess.csv"
printf 'label,score\n1,1\n1,1\n0,0\n0,2\n' >"$TMP/flat.csv"
expect_error 1 'all in scores are equal' $T "$TMP/flat.csv" -m gauss-fit --delta 1e-5

# ---- Andrew et al. 2024's eps_lo as Andrew et al. compute it (--thresholds uncorrected; issue 15) -------------
# 1000 seen above 1000 unseen: Jeffreys at alpha = 0.05 on EACH rate, no correction for the
# threshold: log((1 - u) / u), u = Beta(1/2, 1000.5)'s 0.95 quantile = 6.2544, Andrew et al. 2024's ceiling
# 6.25 (Table 4) / 6.240 (Table 3); our valid bound on the same scores is 4.65.
expect_status 0 $T "$TMP/separated.csv" -m jeffreys --thresholds uncorrected
expect_near "$(cat "$TMP/out")" "$("$PYTHON" -c 'from scipy.stats import beta; import math; u = beta.ppf(0.95, 0.5, 1000.5); print(math.log((1 - u) / u))')" 1e-9 "Andrew et al. 2024's eps_lo ceiling"
expect_status 0 $T "$TMP/separated.csv" -m jeffreys
expect_near "$(cat "$TMP/out")" 4.65 0.01 "the valid Jeffreys bound on the same scores"

# ---- one-run (Steinke, Nasr & Jagielski 2023) ------------------------------------
# 10 of 10 correct at delta 0: P[Binomial(10, q) >= 10] = q^10 = 0.05, eps = logit(0.05^0.1).
expect_status 0 $T "$TMP/separated.csv" -m one-run --guesses 10
expect_near "$(cat "$TMP/out")" 1.051873233231709 1e-9 "one-run, 10 of 10, closed form"
expect_status 0 $T "$TMP/separated.csv" -m one-run --guesses 5:5 --json
"$PYTHON" - "$TMP/out" <<'PY' || fail "one-run JSON"
import json, math, sys
j = json.load(open(sys.argv[1]))
assert j["method"] == "one-run" and j["canaries"] == 2000 and j["guesses_in"] == 5 and j["guesses_out"] == 5, j
assert j["correct"] == 10 and j["guess_in_rule"] == "score >= 2.995" and j["guess_out_rule"] == "score <= 0.004", j
assert abs(j["epsilon"] - math.log(0.05**0.1 / (1 - 0.05**0.1))) < 1e-9, j
PY
# Golden values: tests/golden/jax_privacy/jax_privacy_auditing.csv (jax_privacy's own code on
# the score files beside it; see its README); its root finder stops at 1e-6 absolute.
GOLD="$SRC/tests/golden/jax_privacy"
while read -r f k d want; do
  expect_status 0 $T "$GOLD/$f" -m one-run --guesses "$k" --delta "$d"
  expect_near "$(cat "$TMP/out")" "$want" 1e-6 "one-run $f top $k delta $d (jax_privacy)"
done <<'ROWS'
onerun_0.csv 100 1e-05 2.7109631340457816
onerun_0.csv 250 0 2.4234220068369914
onerun_1.csv 250 1e-05 4.391223793667449
onerun_2.csv 10 1e-05 0
onerun_2.csv 2500 1e-05 1.2326123694293842
onerun_3.csv 2500 0 4.987652252023381
onerun_4.csv 100 1e-05 3.487464024328827
ROWS
# jax_privacy's Bonferroni divides alpha by its ROC-frontier thresholds (25 for onerun_0,
# 3 for onerun_4): our uncorrected maximum at that alpha gives its number ...
expect_status 0 $T "$GOLD/onerun_0.csv" -m one-run --thresholds max --alpha 0.002 --delta 1e-5
expect_near "$(cat "$TMP/out")" 2.230845838893747 1e-6 "one-run max at alpha/25 = jax_privacy's bonferroni"
expect_status 0 $T "$GOLD/onerun_4.csv" -m one-run --thresholds max --alpha "$("$PYTHON" -c 'print(0.05/3)')"
expect_near "$(cat "$TMP/out")" 3.253509398708713 1e-6 "one-run delta 0, max at alpha/3 = jax_privacy's bonferroni"
# ... ours counts a grid fixed in advance (top 10, 20, 50, 100 at m = 200: alpha/4 per
# count), and is the best --guesses K of the grid at that alpha.
expect_status 0 $T "$GOLD/onerun_4.csv" -m one-run --delta 1e-5 --json
expect_eq "$("$PYTHON" -c 'import json,sys; j=json.load(sys.stdin); print(j["counts_tried"], j["alpha_per_count"], j["guesses_in"], j["correct"])' <"$TMP/out")" \
  "4 0.0125 100 100" "one-run bonferroni over its grid"
expect_status 0 $T "$GOLD/onerun_4.csv" -m one-run --delta 1e-5 --guesses 100 --alpha 0.0125
want=$(cat "$TMP/out")
expect_status 0 $T "$GOLD/onerun_4.csv" -m one-run --delta 1e-5
expect_eq "$(cat "$TMP/out")" "$want" "one-run grid = its best count at alpha/4"
# The --help example at m = 1000, delta 1e-5: 0 before (alpha / 1000 per count, below the
# delta term 2 m delta); the grid's best count (top 100, 98 in) at alpha / 6.
expect_status 0 $T "$GOLD/onerun_0.csv" -m one-run --delta 1e-5 --guesses 100 --alpha "$("$PYTHON" -c 'print(0.05/6)')"
want=$(cat "$TMP/out")
expect_status 0 $T "$GOLD/onerun_0.csv" -m one-run --delta 1e-5
expect_eq "$(cat "$TMP/out")" "$want" "one-run --help example: positive, the grid's best count"
"$PYTHON" -c "import sys; sys.exit(not 2 < float('$want') < 2.7109631340457816)" || fail "one-run grid $want not in (2, the alpha-0.05 top-100 value)"
# one-run-fdp: jax_privacy's _epsilon_one_run_fdp (the Gaussian curve), column eps_one_run_fdp.
while read -r f k want; do
  expect_status 0 $T "$GOLD/$f" -m one-run-fdp --guesses "$k" --delta 1e-5
  expect_near "$(cat "$TMP/out")" "$want" 1e-6 "one-run-fdp $f top $k (jax_privacy)"
done <<'ROWS'
onerun_0.csv 100 4.22787293359775
onerun_1.csv 250 7.859760299039871
onerun_2.csv 10 0
onerun_2.csv 2500 1.8028540806062912
onerun_3.csv 2500 7.856470476777342
onerun_4.csv 100 7.147313657404197
ROWS
# jax's f-DP Bonferroni rows are, as for one-run, the uncorrected maximum at alpha / frontier size.
expect_status 0 $T "$GOLD/onerun_1.csv" -m one-run-fdp --thresholds max --alpha "$("$PYTHON" -c 'print(0.05/9)')" --delta 1e-5
expect_near "$(cat "$TMP/out")" 7.216745176506418 1e-6 "one-run-fdp max at alpha/9 = jax_privacy's bonferroni"
printf 'label,score\n1,3\n1,2\n0,2\n0,1\n' >"$TMP/tie.csv"
expect_error 1 'the 2 highest scores end inside tied scores \(2\): guess a different number \(.*tie.csv\)' $T "$TMP/tie.csv" -m one-run --guesses 2
expect_error 2 "'abc' is not K or K\+:K- \(whole numbers\) \(--guesses\)" $T "$TMP/separated.csv" -m one-run --guesses abc
expect_error 2 "'5:' is not K or K\+:K- \(whole numbers\) \(--guesses\)" $T "$TMP/separated.csv" -m one-run --guesses 5:
expect_error 2 '1500 \+ 1000 guesses exceed the 2000 canaries \(--guesses\)' $T "$TMP/separated.csv" -m one-run --guesses 1500:1000
expect_error 2 'one-run needs at least one guess \(--guesses\)' $T "$TMP/separated.csv" -m one-run --guesses 0
expect_error 2 '--guesses is for --method one-run' $T "$TMP/separated.csv" --guesses 10
expect_error 2 'one-run has no error rates to spend alpha on' $T "$TMP/separated.csv" -m one-run --thresholds uncorrected
expect_error 2 'one-run takes no' $T "$TMP/separated.csv" -m one-run --one-sided
expect_error 2 'one-run-fdp against the Gaussian curve needs --delta in \(0,1\)' $T "$TMP/separated.csv" -m one-run-fdp
expect_error 2 '--curve is for --method one-run-fdp' $T "$TMP/separated.csv" -m one-run --curve dp
expect_error 2 '--splits is for --thresholds multi-split' $T "$TMP/separated.csv" -m one-run --splits 5
# 500 of 500 right among 1000 canaries (alpha 0.05, delta 1e-5): issue 14's 9.92 (f-DP,
# Gaussian curve) against 5.09 (one-run), both from jax_privacy's code.
"$PYTHON" -c "
print('label,score')
for i in range(500): print(f'1,{1 + i / 1000}')
for i in range(500): print(f'0,{-1 - i / 1000}')" >"$TMP/half.csv"
expect_status 0 $T "$TMP/half.csv" -m one-run-fdp --guesses 500 --delta 1e-5
expect_near "$(cat "$TMP/out")" 9.92 0.005 "one-run-fdp 500 of 500"
expect_status 0 $T "$TMP/half.csv" -m one-run --guesses 500 --delta 1e-5
expect_near "$(cat "$TMP/out")" 5.09 0.005 "one-run 500 of 500"
# f-DP against the (eps, delta) curve at delta 0, all right: one-run's closed form logit(alpha^(1/r)).
expect_status 0 $T "$TMP/half.csv" -m one-run-fdp --curve dp --guesses 10 --json
expect_near "$("$PYTHON" -c 'import json,sys; j=json.load(sys.stdin); assert j["curve"] == "dp", j; print(j["epsilon"])' <"$TMP/out")" \
  1.051873233231709 1e-9 "one-run-fdp, dp curve, 10 of 10"
# Labels that cannot come from inclusion with probability 1/2 are refused, with the counts.
"$PYTHON" -c "
print('label,score')
for i in range(422): print(f'1,{i}')
for i in range(578): print(f'0,{-i}')" >"$TMP/unbalanced.csv"
expect_error 1 '422 in and 578 out of 1000 canaries: .* \(.*unbalanced.csv\)' $T "$TMP/unbalanced.csv" -m one-run
expect_error 1 '422 in and 578 out' $T "$TMP/unbalanced.csv" -m one-run-fdp --delta 1e-5 --guesses 10
# split and multi-split: seeded, byte-identical for any --threads.
expect_status 0 $T "$TMP/half.csv" -m one-run --delta 1e-5 --thresholds multi-split --splits 20 --seed 7 --json --threads 1
cp "$TMP/out" "$TMP/multi1"
expect_status 0 $T "$TMP/half.csv" -m one-run --delta 1e-5 --thresholds multi-split --splits 20 --seed 7 --json --threads 3
cmp -s "$TMP/out" "$TMP/multi1" || fail "one-run multi-split differs between --threads 1 and 3"
expect_eq "$("$PYTHON" -c 'import json,sys; j=json.load(sys.stdin); print(j["splits"], j["alpha_per_count"], j["canaries"], j["epsilon"] > 3)' <"$TMP/out")" \
  "20 0.025 500 True" "one-run multi-split: 20 splits at alpha/2, held-out halves of 500"
expect_error 1 'no rows with label 0' $T "$TMP/no_out.csv" -m one-run

# ---- gdp (Nasr et al. 2023) --------------------------------------------------------
# Separated, fixed rule: both counts 0, each bound u = 1 - 0.025^(1/1000), mu = -2 Phi^-1(u).
expect_status 0 $T "$TMP/separated.csv" -m gdp --threshold 1.5 --delta 1e-5 --json
expect_near "$("$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["mu"])' <"$TMP/out")" \
  "$("$PYTHON" -c 'from scipy.stats import norm; print(-2 * norm.ppf(1 - 0.025**1e-3))')" 1e-9 "gdp mu, closed form"
# jax_privacy's epsilon_from_gdp (Bonferroni over its 25 and 47 frontier thresholds: alpha/50, /94
# per rate) is our uncorrected maximum at alpha/25, /47; tests/golden/jax_privacy/jax_privacy_auditing.csv.
while read -r f n d want; do
  expect_status 0 $T "$GOLD/$f" -m gdp --thresholds max --alpha "$("$PYTHON" -c "print(0.05/$n)")" --delta "$d"
  expect_near "$(cat "$TMP/out")" "$want" 1e-6 "gdp $f delta $d (jax_privacy)"
done <<'ROWS'
onerun_0.csv 25 1e-05 7.315466925386317
onerun_0.csv 25 0.001 5.431773973699709
onerun_2.csv 47 1e-05 3.960067692770796
onerun_4.csv 3 0.001 15.265919458349098
ROWS
expect_status 0 $T "$GOLD/onerun_0.csv" -m gdp --delta 1e-5 --json
expect_eq "$("$PYTHON" -c 'import json,sys; j=json.load(sys.stdin); print(j["thresholds_tried"], j["alpha_per_rate"], j["epsilon"] < 7.315466925386317)' <"$TMP/out")" \
  "1000 2.5e-05 True" "gdp bonferroni over the distinct scores"
expect_error 2 'gdp needs --delta in \(0,1\)' $T "$TMP/separated.csv" -m gdp
expect_error 2 'gdp needs --delta in \(0,1\)' $T "$TMP/separated.csv" -m gdp --delta 0
for t in split multi-split; do
  expect_status 0 $T "$TMP/separated.csv" -m gdp --delta 1e-5 --thresholds $t --seed 2 --threads 2
  cp "$TMP/out" "$TMP/gdp2"
  expect_status 0 $T "$TMP/separated.csv" -m gdp --delta 1e-5 --thresholds $t --seed 2 --threads 1
  cmp -s "$TMP/out" "$TMP/gdp2" || fail "gdp $t differs between --threads 1 and 2"
done
# No rule refutes anything (identical classes): mu 0 and eps 0, never -inf.
printf 'label,score\n1,1\n1,2\n0,1\n0,2\n' >"$TMP/same.csv"
expect_status 0 $T "$TMP/same.csv" -m gdp --delta 1e-5 --json
expect_eq "$("$PYTHON" -c 'import json,sys; j=json.load(sys.stdin); print(j["mu"], j["epsilon"])' <"$TMP/out")" "0.0 0.0" "gdp without evidence"
expect_error 2 'gdp takes no' $T "$TMP/separated.csv" -m gdp --delta 1e-5 --one-sided
expect_error 1 'no rows with label 1' $T "$TMP/no_in.csv" -m gdp --delta 1e-5

expect_error 2 '--delta: value 1 is not in \[0,1\)' $T "$TMP/separated.csv" --delta 1
expect_error 2 '--delta: value -0.5 is not in \[0,1\)' $T "$TMP/separated.csv" --delta=-0.5
expect_error 2 "--delta: value abc is not in \[0,1\)" $T "$TMP/separated.csv" --delta abc
expect_error 2 '--alpha: value 0 is not in \(0,1\)' $T "$TMP/separated.csv" --alpha 0
expect_error 2 '--alpha: value 1.5 is not in \(0,1\)' $T "$TMP/separated.csv" --alpha 1.5
expect_error 2 'gauss-fit needs --delta' $T "$TMP/gauss.csv" -m gauss-fit
expect_error 2 'gauss-fit takes no --thresholds' $T "$TMP/gauss.csv" -m gauss-fit --delta 1e-5 --one-sided
expect_error 2 'error: .*--method' $T "$TMP/gauss.csv" -m bayes
expect_error 2 'error: .*--null-dim' $T "$TMP/cosines.csv" --null-dim 1
expect_error 2 'error: .*--in.*excludes|error: .*scores.*excludes' $T "$TMP/separated.csv" --in "$TMP/in.npy"
expect_error 2 '--in needs --out' $T --in "$TMP/in.npy"
expect_error 2 'error: .*--fail-above' $T "$TMP/separated.csv" --fail-above -1

# ---- --bootstrap (gauss-fit's fit-region interval, threshold's BCa interval) ------
# 400 in ~ N(1,1) and 400 out ~ N(0,1) (numpy seed 5).
"$PYTHON" - "$TMP/normal.csv" <<'PY'
import sys
import numpy as np
r = np.random.default_rng(5)
with open(sys.argv[1], "w") as f:
    f.write("label,score\n")
    f.writelines(f"1,{x!r}\n" for x in r.normal(1, 1, 400))
    f.writelines(f"0,{x!r}\n" for x in r.normal(0, 1, 400))
PY
# Byte-identical for any --threads (one Philox stream per replicate).
expect_status 0 $T "$TMP/normal.csv" -m gauss-fit --delta 1e-5 --bootstrap 200 --seed 4 --threads 1 --json
cp "$TMP/out" "$TMP/boot1"
expect_status 0 $T "$TMP/normal.csv" -m gauss-fit --delta 1e-5 --bootstrap 200 --seed 4 --threads 2 --json
cmp -s "$TMP/out" "$TMP/boot1" || fail "--bootstrap differs between --threads 1 and 2"
# The interval brackets the estimate here (the estimate itself unchanged by --bootstrap),
# and the JSON says what it is: gauss-fit's fit region of (d, log sd ratio), 200
# replicates, 95%, radius 2.2668 (test_gauss_fit_interval), centred on the fits: d =
# (0.94797 - 0.032173) / 1.00748 = 0.90900, log(0.963317 / 1.00748) = -0.044820.
expect_status 0 $T "$TMP/normal.csv" -m gauss-fit --delta 1e-5 --json
expect_eq "$("$PYTHON" -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); o=a.pop("bootstrap"); print(a == b, o["method"], o["parameters"], o["replicates"], o["confidence"], o["seed"], o["lower"] < a["epsilon"] < o["upper"], round(o["radius"], 4), [round(c, 5) for c in o["center"]], o["covariance"][0][1] == o["covariance"][1][0])' "$TMP/boot1" "$TMP/out")" \
  "True fit-region ['d', 'log_sd_ratio'] 200 0.95 4 True 2.2668 [0.909, -0.04482] True" "gauss-fit --bootstrap JSON"
# Another seed, other replicates.
expect_status 0 $T "$TMP/normal.csv" -m gauss-fit --delta 1e-5 --bootstrap 200 --seed 5 --json
expect_eq "$("$PYTHON" -c 'import json,sys; a=json.load(open(sys.argv[1]))["bootstrap"]; b=json.load(open(sys.argv[2]))["bootstrap"]; print(a["lower"] != b["lower"], a["center"] == b["center"])' "$TMP/boot1" "$TMP/out")" \
  "True True" "--seed"
expect_status 0 $T "$TMP/normal.csv" -m gauss-fit --delta 1e-5 --bootstrap 200 --seed 4 --report
grep -Eq '^bootstrap +95% fit region \[[0-9.]+, [0-9.]+\] \(B 200, radius 2\.2668\)$' "$TMP/out" ||
  fail "--report has no bootstrap line: $(grep bootstrap "$TMP/out")"
# threshold keeps BCa. An in score at -10 and an out score at 10 keep its estimate finite;
# --jackknife-groups 10 groups each class into 10 (BCa's acceleration), gauss-fit has no
# jackknife.
{ cat "$TMP/normal.csv"; printf '1,-10\n0,10\n'; } >"$TMP/normal2.csv"
expect_status 0 $T "$TMP/normal2.csv" -m threshold --delta 1e-5 --bootstrap 200 --seed 4 --jackknife-groups 10 --json -q
cp "$TMP/out" "$TMP/boot1"
expect_status 0 $T "$TMP/normal2.csv" -m threshold --delta 1e-5 --bootstrap 200 --seed 5 --jackknife-groups 10 --json -q
expect_eq "$("$PYTHON" -c 'import json,sys; a=json.load(open(sys.argv[1]))["bootstrap"]; b=json.load(open(sys.argv[2]))["bootstrap"]; print(b["method"], a["lower"] != b["lower"], b["jackknife_groups"])' "$TMP/boot1" "$TMP/out")" \
  "BCa True {'in': 10, 'out': 10}" "threshold --bootstrap, --seed and --jackknife-groups"
expect_status 0 $T "$TMP/normal2.csv" -m threshold --delta 1e-5 --bootstrap 200 --seed 4 --report -q
grep -Eq '^bootstrap +95% BCa \[[0-9.]+, inf\] \(B 200, z0 -?[0-9.]+, a -?[0-9.]+, not accelerated\)$' "$TMP/out" ||
  fail "--report has no BCa line: $(grep bootstrap "$TMP/out")"
expect_error 2 '--jackknife-groups is for the BCa interval of --method threshold' \
  $T "$TMP/normal.csv" -m gauss-fit --delta 1e-5 --bootstrap 20 --jackknife-groups 10 --json
# Separated scores: the threshold estimate is inf on the scores, every replicate and every
# jackknife deletion, so the interval is [inf, inf] and a is 0 (BC percentile), with a note.
expect_status 0 $T "$TMP/separated.csv" -m threshold --bootstrap 50 --json
expect_eq "$("$PYTHON" -c 'import json,sys; o=json.load(sys.stdin)["bootstrap"]; print(o["lower"], o["upper"], o["z0"], o["accelerated"])' <"$TMP/out")" \
  "inf inf 0.0 False" "threshold --bootstrap on separated scores"
grep -q 'note: a jackknife value is inf: a = 0' "$TMP/err" || fail "no note on the unaccelerated interval: $(cat "$TMP/err")"
expect_status 0 $T "$TMP/separated.csv" -m threshold --bootstrap 50 --json -q
[ -s "$TMP/err" ] && fail "--quiet printed a note: $(cat "$TMP/err")"
# With the cosine null only the in scores are resampled (the label-0 row is ignored).
printf 'label,score\n1,0.1\n1,0.3\n1,0.2\n1,0.25\n1,0.15\n0,0.05\n' >"$TMP/cosines5.csv"
expect_status 0 $T "$TMP/cosines5.csv" --null-dim 100 --delta 1e-5 --bootstrap 20 --json -q
cp "$TMP/out" "$TMP/boot1"
grep -v '^0,' "$TMP/cosines5.csv" >"$TMP/cosines5in.csv"
expect_status 0 $T "$TMP/cosines5in.csv" --null-dim 100 --delta 1e-5 --bootstrap 20 --json -q
expect_eq "$("$PYTHON" -c 'import json,sys; a=json.load(open(sys.argv[1]))["bootstrap"]; b=json.load(open(sys.argv[2]))["bootstrap"]; print(a == b, a["parameters"], a["center"][0])' "$TMP/boot1" "$TMP/out")" \
  "True ['mean_in', 'log_sd_in'] 0.2" "--bootstrap against the null"
# Two in scores: some resample repeats one score, and gauss-fit cannot fit it (bad data, named).
expect_error 1 'gauss-fit needs scores that vary \(bootstrap replicate [0-9]+ of 20\)' \
  $T "$TMP/cosines.csv" --null-dim 100 --delta 1e-5 --bootstrap 20 --json -q
# Refusals: a bound, a game, per round, a split, no --json/--report, B < 2, G without B.
for m in clopper-pearson jeffreys one-run one-run-fdp gdp; do
  expect_error 2 "--bootstrap is for point estimates \(gauss-fit, threshold\); $m already gives a confidence bound" \
    $T "$TMP/separated.csv" -m $m --delta 1e-5 --bootstrap 20 --json
done
expect_error 2 '--bootstrap cannot be used with --decisions' $T --decisions "$TMP/decisions.csv" -m threshold --bootstrap 20 --json
expect_error 2 '--bootstrap is for one estimate: not with --per round' $T "$TMP/hand.csv" --per round -m threshold --bootstrap 20 --json
for t in split multi-split; do
  expect_error 2 '--bootstrap cannot resample a --thresholds split' $T "$TMP/separated.csv" -m threshold --thresholds $t --bootstrap 20 --json
done
expect_error 2 '--bootstrap adds to --json and --report' $T "$TMP/normal.csv" -m gauss-fit --delta 1e-5 --bootstrap 20
expect_error 2 '--bootstrap' $T "$TMP/normal.csv" -m gauss-fit --delta 1e-5 --bootstrap 1 --json
expect_error 2 '--jackknife-groups requires --bootstrap' $T "$TMP/normal.csv" --jackknife-groups 10 --json
expect_error 2 '--seed has nothing to seed' $T "$TMP/normal.csv" --threshold 0.5 --seed 3
expect_status 0 $T "$TMP/normal.csv" -m threshold --threshold 0.5 --seed 3 --bootstrap 20 --json -q

# ---- --tpr-at and the attack metrics ----------------------------------------------
# test_attack_metrics' hand example: in {0.4, 0.8, 0.9}, out {0.1, 0.4, 0.7}. FPR <= 0.34
# allows one false positive, but the rule 0.7 adds no in: TPR 2/3; the hull AUROC 8/9;
# the best accuracy 5/6 at score >= 0.8, its bound 1 - the 1 - 0.05/6 quantile of
# Beta(2, 5) = 0.2830760220048413 (tests/golden/attack_metrics.py, scipy).
printf 'label,score\n1,0.4\n1,0.8\n1,0.9\n0,0.1\n0,0.4\n0,0.7\n' >"$TMP/metrics.csv"
expect_status 0 $T "$TMP/metrics.csv" --tpr-at 0.34 --json
"$PYTHON" - "$TMP/out" <<'PY' || fail "attack metrics of the hand example"
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
assert s["tpr_at_fpr"] == {"0.34": 2 / 3}, s["tpr_at_fpr"]
assert abs(s["auroc"] - 7.5 / 9) < 1e-12 and abs(s["auroc_convex_hull"] - 8 / 9) < 1e-12
a = s["max_accuracy"]
assert abs(a["value"] - 5 / 6) < 1e-12 and a["threshold"] == 0.8 and a["decision_rule"] == "in when score >= 0.8", a
assert abs(a["lower_bound"] - 0.2830760220048413) < 1e-12, a
assert abs(s["max_balanced_accuracy"]["lower_bound"] - 0.09933031825938082) < 1e-12
assert s["accuracy_rules"] == 6 and s["accuracy_alpha"] == 0.05
PY
# The default targets keep today's keys; --negate reports the rule in the input's units.
expect_status 0 $T "$TMP/metrics.csv" --json
expect_eq "$("$PYTHON" -c 'import json,sys; print(sorted(json.load(sys.stdin)["summary"]["tpr_at_fpr"]))' <"$TMP/out")" \
  "['0.001', '0.01', '0.1']" "default --tpr-at"
sed 's/,\([0-9]\)/,-\1/' "$TMP/metrics.csv" >"$TMP/metrics_neg.csv"
expect_status 0 $T "$TMP/metrics_neg.csv" --negate --json
expect_eq "$("$PYTHON" -c 'import json,sys; a=json.load(sys.stdin)["summary"]["max_accuracy"]; print(a["threshold"], a["decision_rule"])' <"$TMP/out")" \
  "-0.8 in when score <= -0.8" "max accuracy rule with --negate"
expect_status 0 $T "$TMP/metrics.csv" --tpr-at 0,0.34 --report
grep -Eq '^TPR at FPR 34% +0.666667$' "$TMP/out" || fail "--report TPR at 34%: $(grep TPR "$TMP/out")"
grep -Eq '^max accuracy +0.833333 \(>= 0.283076 at 95% over 6 rules\), in when score >= 0.8$' "$TMP/out" ||
  fail "--report max accuracy: $(grep accuracy "$TMP/out")"
grep -Eq '^AUROC \(convex hull\) +0.888889$' "$TMP/out" || fail "--report hull AUROC"
# Against the null: TPR at the targets, no accuracies (no sampled outs).
expect_status 0 $T "$TMP/cosines.csv" --null-dim 100 --delta 1e-5 --tpr-at 0.5 --json -q
expect_eq "$("$PYTHON" -c 'import json,sys; s=json.load(sys.stdin)["summary"]; print(list(s["tpr_at_fpr"]), "max_accuracy" in s)' <"$TMP/out")" \
  "['0.5'] False" "--tpr-at against the null"
expect_error 2 "'2' is not a false-positive rate in \[0,1\] \(in .2.\) \(--tpr-at\)" $T "$TMP/metrics.csv" --tpr-at 2 --json
expect_error 2 "'' is not a false-positive rate in \[0,1\] \(in .0.1,,0.2.\) \(--tpr-at\)" $T "$TMP/metrics.csv" --tpr-at 0.1,,0.2 --json
expect_error 2 '0.1 is listed twice' $T "$TMP/metrics.csv" --tpr-at 0.1,0.1 --json
expect_error 2 '--tpr-at adds to --json and --report' $T "$TMP/metrics.csv" --tpr-at 0.1
expect_error 2 '--tpr-at cannot be used with --method one-run' $T "$TMP/metrics.csv" -m one-run --tpr-at 0.1 --json
expect_error 2 '--tpr-at cannot be used with --decisions' $T --decisions "$TMP/decisions.csv" --tpr-at 0.1 --json

# ---- what each number assumes (eps-from-scores(1), What each number assumes) --------------
assumes() { "$PYTHON" -c 'import json,sys; j=json.load(sys.stdin); print(j["guarantee"], "|", j["assumes"], *[j[k] for k in sys.argv[1:]])' "$@" <"$TMP/out"; }
expect_status 0 $T "$TMP/separated.csv" --json
expect_eq "$(assumes)" "lower bound | none" "clopper-pearson bonferroni: a lower bound that assumes nothing"
[ -s "$TMP/err" ] && fail "clopper-pearson printed a note: $(cat "$TMP/err")"
expect_status 0 $T "$TMP/separated.csv" --json --thresholds max
expect_eq "$(assumes)" "not a bound | none" "--thresholds max is not a bound"
grep -q "note: this epsilon takes the best rule without paying for the choice" "$TMP/err" || fail "no note on max: $(cat "$TMP/err")"
expect_status 0 $T "$TMP/separated.csv" --json -m jeffreys
expect_eq "$(assumes)" "approximate bound | none" "jeffreys: an approximate bound"
expect_status 0 $T "$TMP/separated.csv" -m gdp --delta 1e-5 --json
expect_eq "$(assumes mu_guarantee mu_assumes)" "lower bound | gaussian trade-off curve lower bound none" "gdp: eps assumes the curve, mu nothing"
[ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "note: this epsilon assumes the mechanism's trade-off curve is Gaussian" "$TMP/err" ||
  fail "gdp: not one note on its assumption: $(cat "$TMP/err")"
expect_status 0 $T "$TMP/separated.csv" -m gdp --delta 1e-5 -q
[ -s "$TMP/err" ] && fail "-q still prints gdp's note"
expect_status 0 $T "$TMP/separated.csv" -m gdp --delta 1e-5 --report -q
grep -Eq '^guarantee +lower bound, assumes gaussian trade-off curve$' "$TMP/out" || fail "--report guarantee line: $(cat "$TMP/out")"
# A gate on an assumption-bound number says so in its one line, and prints no note.
expect_error 3 '^eps-from-scores: error: epsilon [0-9.]+ \(lower bound, assumes gaussian trade-off curve\) exceeds the budget --fail-above 0\.1' \
  $T "$TMP/separated.csv" -m gdp --delta 1e-5 --fail-above 0.1
expect_status 0 $T "$TMP/half.csv" -m one-run-fdp --delta 1e-5 --json -q
expect_eq "$(assumes)" "lower bound | gaussian trade-off curve" "one-run-fdp, Gaussian curve"
expect_status 0 $T "$TMP/half.csv" -m one-run-fdp --curve dp --delta 1e-5 --json
expect_eq "$(assumes)" "lower bound | none" "one-run-fdp --curve dp"
expect_status 0 $T "$TMP/cosines.csv" --null-dim 100 --delta 1e-5 --json -q
expect_eq "$(assumes)" "point estimate | gaussian scores" "gauss-fit"
expect_status 0 $T --decisions "$TMP/decisions.csv" --json
expect_eq "$(assumes)" "lower bound | none" "a game's one decision rule"

finish
