#!/usr/bin/env bash
# needs: dp-train
# dp-train canife (Maddock et al. 2023 at sample level): bad input, the output folder, same bytes whatever
# --threads, the audit scores as Maddock et al. 2023 model them (means near 0 and 1), and eps_hat
# against composing the audits' eps_r again.
source "$SRC/tests/cli/lib.bash"
cd "$TMP"

BASE=(dp-train canife --task synthetic --q 0.05 --rounds 60 --quiet)
TOY=("${BASE[@]}" --audit-every 20 --design-steps 200 --design-pool 64)

# --- bad input: one line on stderr, exit 2, nothing written
expect_error 2 "audit period 60 must lie in \[1, 60\).*--audit-every" "${BASE[@]}" --noise-multiplier 1 --audit-every 60 --out bad
[ -e bad ] && fail "bad/ written on error"
expect_error 2 "over 1e18 rounds: give --rounds.*--q" dp-train canife --task synthetic --q 1e-300 --noise-multiplier 1 --out bad
expect_error 2 "at most 2\^50 rounds \(--rounds\)$" dp-train canife --task synthetic --rounds 18446744073709551615 \
  --noise-multiplier 1 --out bad
expect_error 2 "n >= 2 mock rounds.*--audit-rounds" "${TOY[@]}" --noise-multiplier 1 --audit-rounds 1 --out bad
expect_error 2 "design pool is empty.*--design-pool" "${BASE[@]}" --audit-every 20 --noise-multiplier 1 --design-pool 0 --out bad
expect_error 2 "design pool 600 exceeds the 500 test examples.*--design-pool" "${BASE[@]}" --audit-every 20 --noise-multiplier 1 --design-pool 600 --out bad
expect_error 2 "at least one design step.*--design-steps" "${BASE[@]}" --audit-every 20 --noise-multiplier 1 --design-steps 0 --out bad
expect_error 2 "dense models only.*--model" "${TOY[@]}" --noise-multiplier 1 --model cnn --out bad
expect_error 2 "unknown loss 'cosine'.*--loss" "${TOY[@]}" --noise-multiplier 1 --loss cosine --out bad
expect_error 2 "give the noise" "${TOY[@]}" --out bad
# a diverged model (learning rate 1e30): exit 1, said as such, nothing written
expect_error 1 "canary's gradient is not finite: the model has diverged \(a smaller --lr" \
  "${BASE[@]}" --noise-multiplier 0.5 --lr 1e30 --audit-every 1 --design-steps 1 --audit-rounds 2 --design-pool 16 --out bad
[ -e bad ] && fail "bad/ written on error"
# ... and the cause named: the noise, the clip norm, or the crafted input (each said "the
# model has diverged (a smaller --lr or --server-lr)")
SMALL=("${BASE[@]}" --audit-every 1 --design-steps 2 --audit-rounds 2 --design-pool 16)
expect_error 2 "^dp-train: error: eps 1e\+300 is met by any noise multiplier above 0.0001 \(--eps\)$" "${SMALL[@]}" --eps 1e300 --out bad
expect_error 1 "noise's standard deviation z C = 1e\+300 overflows single precision: lower --noise-multiplier \(--noise-multiplier\)$" \
  "${SMALL[@]}" --noise-multiplier 1e300 --out bad
expect_error 2 "clip norm must lie in \[1e-30, 1e30\] \(--clip\)$" "${SMALL[@]}" --noise-multiplier 1 --clip 1e300 --out bad
expect_error 1 "after 1 design steps: the crafted input has diverged \(a smaller --design-lr or --norm-constant\)$" \
  "${SMALL[@]}" --noise-multiplier 1 --design-lr 1e300 --out bad
[ -e bad ] && fail "bad/ written on error"

# --- the run: eps_hat on stdout, the five files; byte-identical --out folders with 1 and
# 2 threads (run.json and audits.csv hold no timings: --timings FILE has them)
expect_status 0 "${TOY[@]}" --noise-multiplier 1 --threads 1 --out t1
eps_hat=$(cat "$TMP/out")
expect_status 0 "${TOY[@]}" --noise-multiplier 1 --threads 2 --out t2 --timings t2.json
expect_eq "$(diff -r t1 t2 && echo same)" same "--out with --threads 1 and 2"
expect_eq "$(ls t2 | tr '\n' ' ')" "audits.csv canaries.npy metrics.csv run.json scores.csv " "the files of --out"
expect_eq "$("$PYTHON" -c "import json,sys; t = json.load(open(sys.argv[1])); a = t['audits']
print(sorted(t), [r['round'] for r in a], t['seconds'] > 0 and all(r['design_seconds'] > 0 and r['mock_seconds'] > 0 for r in a))" \
  t2.json)" "['audits', 'peak_memory_mb', 'seconds', 'threads'] [0, 20, 40] True" "--timings FILE"
expect_eq "$("$PYTHON" -c "import json,sys; g = json.load(open(sys.argv[1]))['eps_hat_guarantee']; print(g['guarantee'], '/', g['assumes'])" t1/run.json)" \
  "point estimate / gaussian trade-off curve" "eps_hat says what it is"
expect_eq "$(head -1 t1/scores.csv)" "round,trial,label,score" "scores header"
expect_eq "$(tail -n +2 t1/scores.csv | cut -d, -f1 | sort -u | tr '\n' ' ')" "0 20 40 " "audits before rounds 0, 20, 40"
expect_eq "$(wc -l <t1/scores.csv)" 301 "3 audits x 100 mock rounds"
"$PYTHON" "$SRC/tests/cli/canife_metrics.py" t1 60 sample || fail "metrics.csv of the sample-level run"
CHECKS=$((CHECKS + 1))

# Maddock et al. 2023, Sec. 3.2: a well-crafted canary's scores are N(0, z^2) without it and N(1, z^2) with
# it. Over the 3 x 50 rounds of each kind: mean difference 1 and sd z = 1, each within
# about 4 standard errors (0.16 for the difference, 0.06 for the sd); health near 1.
"$PYTHON" - t1/scores.csv t1/audits.csv <<'PY' || fail "audit scores are not the two Gaussians of Maddock et al. 2023, Sec. 3.2"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
w = [float(r["score"]) for r in rows if r["label"] == "1"]
wo = [float(r["score"]) for r in rows if r["label"] == "0"]
diff = statistics.mean(w) - statistics.mean(wo)
sd = (statistics.pstdev(w) + statistics.pstdev(wo)) / 2
health = [float(r["health"]) for r in csv.DictReader(open(sys.argv[2]))]
print(f"mean difference {diff:.3f}, sd {sd:.3f}, health {min(health):.3f}")
sys.exit(0 if abs(diff - 1) < 0.65 and abs(sd - 1) < 0.25 and min(health) > 0.9 else 1)
PY
CHECKS=$((CHECKS + 1))

# eps_hat is Alg. 2 over the audits' eps_r: sigma_r for each eps_r (rdp-compose --eps at
# q 1, one step, delta 1/n = 0.01, floor 0.15), then RDP over the rounds each covers
# (backward: 1, 20, 39 of the 60 rounds) at q 0.05, delta 1e-5.
events=$("$PYTHON" - t1/audits.csv <<'PY'
import csv, sys
for row, steps in zip(csv.DictReader(open(sys.argv[1])), (1, 20, 39)):
    print(f"{max(float(row['eps_r']), 0.15)},{steps}")
PY
)
{
  echo "sigma,q,steps"
  while IFS=, read -r eps steps; do
    echo "$(rdp-compose --eps "$eps" --q 1 --steps 1 --delta 0.01),0.05,$steps"
  done <<<"$events"
} >events.csv
expect_near "$eps_hat" "$(rdp-compose --events events.csv --delta 1e-5)" 1e-6r "eps_hat against rdp-compose"

# --eps-hat code-2022, the recipe of Maddock et al.'s first public code (October 2022): eps_r at
# each audit's max-accuracy threshold ("in" when score > t, the highest such t) at delta 1e-5,
# inf when either error count is 0 (skipped, its rounds joining the next finite audit's); each
# finite eps_r the eps of its segment at q 0.05 (rdp-compose --eps at the segment's rounds).
"$PYTHON" - t1/scores.csv t1/run.json >seg.txt <<'PY' || fail "the first public code's recipe from the scores"
import csv, json, math, sys
rounds = {}
for r in csv.DictReader(open(sys.argv[1])):
    rounds.setdefault(int(r["round"]), ([], []))[r["label"] == "0"].append(float(r["score"]))
eps = []
for ins, outs in rounds.values():
    t = max(sorted(set(ins + outs), reverse=True),
            key=lambda t: (sum(s > t for s in ins) + sum(s <= t for s in outs), t))
    fp, fn = sum(s > t for s in outs) / len(outs), sum(s <= t for s in ins) / len(ins)
    eps.append(math.inf if fp == 0 or fn == 0 else
               max(0.0, math.log(max((1 - 1e-5 - fp) / fn, (1 - 1e-5 - fn) / fp))))
got = json.load(open(sys.argv[2]))["empirical_code_2022"]["eps_r"]
assert all(abs(a - b) < 1e-9 * max(1, b) for a, b in zip(got, eps)), (got, eps)
pending, last, seg = 0, None, []
for e, n in zip(eps, (1, 20, 39)):
    pending += n
    if not math.isinf(e):
        seg.append([max(e, 0.15), pending]); pending, last = 0, len(seg) - 1
seg[last][1] += pending
for e, n in seg:
    print(f"{e!r},{n}")
PY
CHECKS=$((CHECKS + 1))
{
  echo "sigma,q,steps"
  while IFS=, read -r eps steps; do
    echo "$(rdp-compose --eps "$eps" --q 0.05 --steps "$steps" --delta 1e-5),0.05,$steps"
  done <seg.txt
} >seg_events.csv
expect_near "$(jq .empirical_code_2022.eps_hat t1/run.json)" "$(rdp-compose --events seg_events.csv --delta 1e-5)" 1e-6r \
  "the first public code's eps_hat against rdp-compose"
expect_status 0 "${TOY[@]}" --noise-multiplier 1 --threads 2 --eps-hat code-2022 --json --out t22
expect_eq "$(jq -r --slurpfile t t1/run.json '.config.eps_hat, (.eps_hat == .empirical_code_2022.eps_hat),
  (.empirical_code_2022 == $t[0].empirical_code_2022)' "$TMP/out" | tr '\n' ' ')" "code-2022 true true " \
  "--eps-hat code-2022 is the headline"
expect_error 2 "unknown eps_hat rule 'alg3' \(code-2023, forward, capped or code-2022\) \(--eps-hat\)$" \
  "${TOY[@]}" --noise-multiplier 1 --eps-hat alg3 --out bad

# eps-from-scores reads the scores per audit round; --method canife gives audits.csv's
# eps_r and interval (Maddock et al. 2023's rule, delta 1/n) from scores.csv alone.
expect_status 0 eps-from-scores t1/scores.csv --per round --method threshold
expect_eq "$(wc -l <"$TMP/out")" 4 "one eps per audit round (and a header)"
expect_status 0 eps-from-scores t1/scores.csv --per round --method canife
expect_eq "$(cat "$TMP/out")" "$(echo round,epsilon,eps_lo,eps_hi; tail -n +2 t1/audits.csv | cut -d, -f1,12,13,14)" \
  "eps-from-scores --method canife = audits.csv's eps_r"
expect_error 2 "canife method is per audit round.*--method" eps-from-scores t1/scores.csv --method canife
expect_error 2 "--seed cannot be used with --method canife" eps-from-scores t1/scores.csv --per round --method canife --seed 3

# the same eps_hat as a pipe: eps-from-scores --method canife | rdp-compose --empirical
got=$(eps-from-scores t1/scores.csv --per round --method canife |
  rdp-compose --empirical - --q 0.05 --rounds 60 --round-delta 0.01 --delta 1e-5 --sigma-if-inf 1)
expect_near "$got" "$eps_hat" 1e-12r "eps_hat through the pipe"
got=$(eps-from-scores t1/scores.csv --per round --method canife |
  rdp-compose --empirical - --q 0.05 --rounds 60 --round-delta 0.01 --delta 1e-5 --sigma-if-inf 1 --json)
expect_eq "$("$PYTHON" -c "import json,sys; print(json.load(sys.stdin)['rounds_covered'])" <<<"$got")" "[1, 20, 39]" \
  "backward covering of audits at 0, 20, 40 of 60 rounds"
expect_error 2 "--rounds.*required with --empirical|--rounds" rdp-compose --empirical t1/audits.csv --q 0.05 --delta 1e-5
printf 'round,epsilon\n20,1\n0,1\n' >backwards.csv
expect_error 1 "rounds must increase, got 0 after 20 \(backwards.csv, row 3, column 'round'\)" \
  rdp-compose --empirical backwards.csv --q 0.05 --rounds 60 --round-delta 0.01 --delta 1e-5
expect_error 1 "round must be a whole number in \[0, 10\) \(--rounds\), got 20" \
  rdp-compose --empirical backwards.csv --q 0.05 --rounds 10 --round-delta 0.01 --delta 1e-5
expect_error 2 "--orders cannot be used with --empirical" \
  rdp-compose --empirical backwards.csv --q 0.05 --rounds 60 --round-delta 0.01 --delta 1e-5 --orders 2,3
expect_error 1 "missing column 'epsilon'" rdp-compose --empirical t1/scores.csv --q 0.05 --rounds 60 --round-delta 0.01 --delta 1e-5

# --- the accountant (--accountant, default pld): --eps calibrates z by it, run.json's headline
# is its, RDP's beside it, audits.csv's theoretical eps_r by it. rdp reproduces the numbers
# canife gave before the option (RDP throughout): z = 1.28558 for eps 2 here, as rdp-compose's
# RDP calibration gives; pld calibrates less noise, as rdp-compose --accountant pld.
expect_error 2 "unknown accountant 'gdp' \(pld or rdp\).*--accountant" "${SMALL[@]}" --eps 2 --accountant gdp --out bad
ACC=("${BASE[@]}" --audit-every 30 --design-steps 2 --audit-rounds 4 --design-pool 8 --eps 2 --json)
expect_status 0 "${ACC[@]}" --accountant rdp --out rdp
z_rdp=$(jq .noise_multiplier "$TMP/out")
expect_near "$z_rdp" "$(rdp-compose --eps 2 --q 0.05 --steps 60 --delta 1e-5)" 1e-12r "RDP's calibration"
expect_near "$z_rdp" 1.28558 5e-5 "RDP's z as before --accountant"
expect_eq "$(jq -r '.accountant, .config.accountant, (.eps_pld == null), (.analytic_eps == .eps_rdp)' "$TMP/out" | tr '\n' ' ')" \
  "rdp-poisson rdp true true " "--accountant rdp: RDP's headline"
expect_near "$(jq .analytic.eps_rdp_run "$TMP/out")" "$(rdp-compose --sigma "$z_rdp" --q 0.05 --steps 60 --delta 1e-5)" 1e-12r \
  "the run's RDP eps"
expect_near "$(tail -1 rdp/audits.csv | cut -d, -f15)" "$(rdp-compose --sigma "$z_rdp" --q 1 --steps 1 --delta 1e-5)" 1e-12r \
  "one round's RDP eps at delta"
expect_near "$(tail -1 rdp/audits.csv | cut -d, -f16)" "$(rdp-compose --sigma "$z_rdp" --q 1 --steps 1 --delta 0.25)" 1e-12r \
  "one round's RDP eps at 1/n"
expect_status 0 "${ACC[@]}" --out pld
z_pld=$(jq .noise_multiplier "$TMP/out")
expect_near "$z_pld" "$(rdp-compose --accountant pld --eps 2 --q 0.05 --steps 60 --delta 1e-5)" 1e-12r "PLD's calibration"
expect_eq "$(jq -r '.accountant, .config.accountant, (.analytic_eps <= 2), (.eps_pld.lower <= .eps_pld.upper), (.eps_rdp > 2)' "$TMP/out" | tr '\n' ' ')" \
  "pld-poisson pld true true true " "--accountant pld (default): PLD's headline meets eps 2, RDP's at that z does not"
"$PYTHON" - "$z_pld" "$z_rdp" <<'PY' || fail "PLD calibrates less noise than RDP"
import sys
sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)
PY
CHECKS=$((CHECKS + 1))
expect_near "$(tail -1 pld/audits.csv | cut -d, -f15)" "$(jq .analytic.eps_one_round "$TMP/out")" 1e-12r \
  "audits.csv's theoretical eps_r by the accountant"

# a run with few mock rounds still composes (n = 4 can show no finite eps_r above 0)
expect_status 0 "${BASE[@]}" --audit-every 20 --design-pool 16 --noise-multiplier 1 --audit-rounds 4 --design-steps 20 --out small

finish
