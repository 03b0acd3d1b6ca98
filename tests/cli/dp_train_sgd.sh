#!/usr/bin/env bash
# needs: dp-train
# dp-train sgd (Nasr et al. 2021's game on DP-SGD): bad input, the CSV, shards and threads giving the
# same bytes, the noise calibration against rdp-compose, the malicious-dataset game's
# simulation against real training, and the CI gate catching a broken trainer.
source "$SRC/tests/cli/lib.bash"
cd "$TMP"

json_field() { "$PYTHON" -c "import json,sys; print(json.load(sys.stdin)[sys.argv[1]])" "$1"; }
SYN=(dp-train sgd --task synthetic --train-size 200 --steps 20 --quiet)

# --- bad input: one line on stderr, exit 2, nothing on stdout or in -o FILE
expect_error 2 "unknown threat 'dataset'.*--threat" "${SYN[@]}" --threat dataset --eps 1
expect_error 2 "unknown fault 'no-noise'.*--fault" "${SYN[@]}" --eps 1 --fault no-noise
expect_error 2 "sampling rate q must lie in \(0, 1\].*--q" "${SYN[@]}" --eps 1 --q 0 -o bad.csv
[ -e bad.csv ] && fail "bad.csv written on error"
expect_error 2 "sampling rate q must lie in \(0, 1\].*--q" "${SYN[@]}" --eps 1 --q 1.5
expect_error 2 "trial range 5:3 is not a non-empty part of \[0, 10\).*--trial-range" \
  "${SYN[@]}" --eps 1 --trials 10 --trial-range 5:3
expect_error 2 "trial range 0:11 is not a non-empty part of \[0, 10\)" "${SYN[@]}" --eps 1 --trials 10 --trial-range 0:11
expect_error 2 "trial range must be A:B" "${SYN[@]}" --eps 1 --trials 10 --trial-range 4
expect_error 2 "excludes" "${SYN[@]}" --eps 1 --noise-multiplier 1
expect_error 2 "give the noise" "${SYN[@]}"
expect_error 2 "train size 5000 exceeds the 2000 training examples of synthetic.*--train-size" \
  dp-train sgd --task synthetic --train-size 5000 --eps 1
expect_error 2 "--batch is the lot size of --sampling shuffle" "${SYN[@]}" --eps 1 --batch 10
expect_error 2 "shuffled lots need a lot size B" "${SYN[@]}" --eps 1 --sampling shuffle
expect_error 2 "balls-in-bins lots need a lot size B in \[1, --train-size\].*--batch" "${SYN[@]}" --eps 1 --sampling balls-in-bins --batch 500
expect_error 2 "--q is the rate of --sampling poisson \(lots by epochs use --batch\)" "${SYN[@]}" --eps 1 --sampling balls-in-bins --batch 10 --q 0.1
expect_error 2 "unknown sampling 'uniform' \(poisson, shuffle or balls-in-bins\)" "${SYN[@]}" --eps 1 --sampling uniform
expect_error 2 "sets the learning rate to 0.*--lr" "${SYN[@]}" --threat malicious-dataset --eps 1 --lr 0.1
expect_error 2 "only the malicious-dataset game reduces.*--engine" "${SYN[@]}" --eps 1 --engine simulate
expect_error 2 "even number 2n >= 2.*--watermark-coords" "${SYN[@]}" --threat gradient-canary --eps 1 --watermark-coords 3
expect_error 2 "watermark's 1000 coordinates exceed the model's 650 parameters \(--watermark-coords\)$" \
  "${SYN[@]}" --threat gradient-canary --model logreg --eps 1 --watermark-coords 1000
# counts beyond the random streams were read through a signed cast (steps 2^64 - 1 as -1)
expect_error 2 "at most 2\^50 steps .*\(--steps\)$" dp-train sgd --task synthetic --eps 1 --steps 18446744073709551615
expect_error 2 "at most 2\^39 trials .*\(--trials\)$" "${SYN[@]}" --eps 1 --trials 18446744073709551615
expect_error 2 "^dp-train: error: eps 1e\+300 is met by any noise multiplier above 0.0001 \(--eps\)$" "${SYN[@]}" --eps 1e300
# the trainer's floats: a clip norm or watermark beyond them
expect_error 2 "clip norm must lie in \[1e-30, 1e30\] \(--clip\)$" "${SYN[@]}" --eps 1 --clip 1e300
expect_error 2 "at most 1e30 \(--canary-norm\)$" "${SYN[@]}" --threat gradient-canary --eps 1 --canary-norm 1e40

# --- blind audits: options under which every score is the same, or a fault changes
# nothing the distinguisher sees, are usage errors naming the option (--observe-steps 0
# gave identical scores, and the gate passed a no-clip trainer it catches at 1).
expect_error 2 "chooses its coordinates from the steps it observes.*\(--observe-steps\)$" \
  "${SYN[@]}" --threat gradient-canary --eps 1 --observe-steps 0
expect_error 2 "learning rate 0 the model never moves.*\(--lr\)$" "${SYN[@]}" --eps 1 --lr 0
expect_error 2 "learning rate 0 the model never moves.*\(--lr\)$" "${SYN[@]}" --threat static-poison --eps 1 --lr 0
expect_error 2 "no-clip changes nothing D3 sees at --canary-norm <= 1.*\(--fault\)$" \
  "${SYN[@]}" --threat malicious-dataset --engine simulate --eps 1 --fault no-clip --canary-norm 1
expect_error 2 "noise-ignores-clip changes nothing at --clip 1.*\(--fault\)$" "${SYN[@]}" --eps 1 --fault noise-ignores-clip
expect_error 2 "shuffle-as-poisson changes nothing at --q 1.*\(--fault\)$" "${SYN[@]}" --eps 1 --q 1 --fault shuffle-as-poisson
# A watermark within the clip norm (--canary-norm 0.5) reaches the correct trainer whole:
# its simulated signal is 0.5, not the clip norm 1 (scores of D' then sit lower).
sim_mean() { dp-train sgd --threat malicious-dataset --engine simulate --noise-multiplier 1 --q 1 --steps 1 --score sum \
  --trials 20000 --quiet "$@" | "$PYTHON" -c "import csv,sys,statistics; print(statistics.mean(float(r['score']) for r in csv.DictReader(sys.stdin) if r['label'] == '1'))"; }
expect_near "$(sim_mean --canary-norm 0.5)" 0.5 0.03 "D' mean at --canary-norm 0.5 (4 standard errors: 0.028)"
expect_near "$(sim_mean)" 1 0.03 "D' mean at the default --canary-norm 10, clipped to 1"

# --- scores are finite or the run fails: exit 1, one line naming the cause and the
# option, nothing written (noise 1e-300 wrote -nan with exit 0; with --json the estimate
# then allocated 13.6 GB).
MAL=(dp-train sgd --threat malicious-dataset --trials 10 --quiet)
for out in "-o bad.csv" --json; do
  expect_error 1 "at noise multiplier z = 1e-300 D3's llr score, of order 1/z\^2 per step, overflows a double: raise --noise-multiplier \(--noise-multiplier\)$" \
    bash -c "ulimit -v 4000000; exec ${MAL[*]} --engine simulate --noise-multiplier 1e-300 $out"
done
expect_error 1 "D3's paper score, of order 1/z\^2 per step, overflows a double: raise --noise-multiplier" \
  "${MAL[@]}" --task synthetic --train-size 200 --score paper --noise-multiplier 1e-160
expect_error 1 "noise's standard deviation z C = 1e\+300 overflows the trainer's single precision: lower --noise-multiplier \(--noise-multiplier\)$" \
  "${SYN[@]}" --noise-multiplier 1e300
expect_error 1 "an update, C max\(1, z\) / \(q N\) = .*, overflows the trainer's single precision: the expected lot q N = 2e-38 is too small \(--q\)$" \
  "${SYN[@]}" --noise-multiplier 1 --q 1e-40
# a diverged model: the step's noise, not a NaN loss
expect_error 1 "score is (nan|-?inf) in trial 0: training diverged, each step adding noise of sd lr z C / \(q N\) = 5e\+36 to every parameter; lower --lr, lower --noise-multiplier or raise --q \(--lr\)$" \
  "${SYN[@]}" --noise-multiplier 1 --lr 1e38 --trials 1
[ -e bad.csv ] && fail "bad.csv written on error"

# --- the CSV: header, two rows per trial (label 0 then 1); same bytes whatever --threads,
# and shards concatenate to the whole run.
for threat in api gradient-canary malicious-dataset; do
  expect_status 0 "${SYN[@]}" --threat $threat --eps 4 --trials 6 --threads 1 -o $threat-1.csv
  expect_status 0 "${SYN[@]}" --threat $threat --eps 4 --trials 6 --threads 2 -o $threat-2.csv
  cmp -s $threat-1.csv $threat-2.csv || fail "$threat: --threads 1 and 2 differ"
  expect_status 0 "${SYN[@]}" --threat $threat --eps 4 --trials 6 --trial-range 0:4 -o a.csv
  expect_status 0 "${SYN[@]}" --threat $threat --eps 4 --trials 6 --trial-range 4:6 -o b.csv
  # a shard's rows carry the shard columns after trial,label,score (docs/formats.md)
  cmp -s $threat-1.csv <(cut -d, -f1-3 a.csv; tail -n +2 b.csv | cut -d, -f1-3) ||
    fail "$threat: shards 0:4 + 4:6 differ from the whole run"
  CHECKS=$((CHECKS + 2))
done
expect_eq "$(head -1 api-1.csv)" "trial,label,score" "CSV header"
expect_eq "$(tail -n +2 api-1.csv | cut -d, -f1,2 | tr '\n' ' ')" "0,0 0,1 1,0 1,1 2,0 2,1 3,0 3,1 4,0 4,1 5,0 5,1 " \
  "rows: trial, label"

# --- accounting: Poisson lots are accounted by PLD (the headline when below RDP). Golden:
# Google dp_accounting's PLD, pessimistic, at discretisation 1e-4 for sigma 0.8, q 128/60000,
# 469 steps, delta 1e-5: 0.5417377482574032 (tests/golden/pld_dp_accounting.csv);
# RDP gives 1.3737 there (issue 13). --eps E calibrates z on the PLD: the run meets E.
got=$(dp-train sgd --task synthetic --train-size 200 --quiet --noise-multiplier 0.8 --q 0.0021333333333333334 --steps 469 --trials 1 --json)
expect_near "$(json_field analytic_eps <<<"$got")" 0.5417377482574032 1e-4r "PLD eps against dp_accounting"
expect_eq "$(json_field accountant <<<"$got")" "pld-poisson" "the headline accountant"
expect_near "$(json_field eps_rdp <<<"$got")" 1.3737 1e-3r "RDP eps beside it"
expect_near "$("$PYTHON" -c "import json,sys; print(json.load(sys.stdin)['eps_pld']['lower'])" <<<"$got")" \
  0.5417377482574032 1e-4r "the PLD interval's lower end"
# What each estimate is (eps-from-scores(1), What each number assumes).
expect_eq "$("$PYTHON" -c "import json,sys; g = json.load(sys.stdin)['estimates']['guarantee']
print(*[g[k]['guarantee'] + '/' + g[k]['assumes'] for k in ('eps_threshold', 'eps_lower_cp_best_threshold', 'eps_lower_cp')], sep=', ')" <<<"$got")" \
  "point estimate/none, not a bound/none, lower bound/none" "the estimates' guarantees"
got=$("${SYN[@]}" --eps 2 --trials 1 --json | json_field analytic_eps)
expect_near "$got" 2 1e-4r "analytic eps of --eps 2"

# --- the malicious-dataset game: its simulation agrees with real training (lr 0). Both
# score D3's llr; with 150 + 150 trials (the real ones on the synthetic task) the means
# on D and on D' agree within 4 standard errors of the simulated ones.
expect_status 0 "${SYN[@]}" --threat malicious-dataset --eps 4 --trials 150 -o real.csv
expect_status 0 "${SYN[@]}" --threat malicious-dataset --engine simulate --eps 4 --trials 20000 -o sim.csv
"$PYTHON" - real.csv sim.csv <<'PY' || fail "simulated and trained malicious-dataset scores disagree"
import csv, statistics, sys
def by_label(path):
    rows = list(csv.DictReader(open(path)))
    return {l: [float(r["score"]) for r in rows if r["label"] == l] for l in "01"}
real, sim = by_label(sys.argv[1]), by_label(sys.argv[2])
for l in "01":
    se = statistics.stdev(sim[l]) / len(real[l]) ** 0.5
    gap = abs(statistics.mean(real[l]) - statistics.mean(sim[l]))
    print(f"label {l}: real {statistics.mean(real[l]):.4f} sim {statistics.mean(sim[l]):.4f} se {se:.4f}")
    if gap > 4 * se: sys.exit(1)
PY
CHECKS=$((CHECKS + 1))

# --- the CI gate (eps 2): the correct trainer passes, each caught fault exits 3. Numbers
# of trials from experiments/ci-gate.md: no-clip is caught at 100, noise-ignores-clip
# (at clip 4) at 1,000; shuffle-as-poisson is not caught by this audit (documented).
GATE=(eps-from-scores - --method clopper-pearson --delta 1e-5 --fail-above 2)
MAL=(dp-train sgd --threat malicious-dataset --engine simulate --clip 4 --eps 2 --quiet)
"${MAL[@]}" --trials 1000 | "${GATE[@]}" >/dev/null 2>&1
expect_eq $? 0 "gate on the correct trainer (1,000 trials)"
"${MAL[@]}" --trials 100 --fault no-clip | "${GATE[@]}" >/dev/null 2>&1
expect_eq $? 3 "gate on no-clip (100 trials)"
"${MAL[@]}" --trials 1000 --fault noise-ignores-clip | "${GATE[@]}" >/dev/null 2>&1
expect_eq $? 3 "gate on noise-ignores-clip (1,000 trials)"
"${SYN[@]}" --threat malicious-dataset --eps 2 --trials 100 --fault no-clip | "${GATE[@]}" >/dev/null 2>&1
expect_eq $? 3 "gate on no-clip, trained models (100 trials)"

# --- balls-in-bins lots: accounted as one participation an epoch (no amplification claimed),
# the api threat's last-iterate heuristic beside it; in the simulated game the canary's
# pattern is shuffling's (one uniformly drawn step an epoch), so the scores are the same
expect_status 0 "${SYN[@]}" --sampling balls-in-bins --batch 50 --noise-multiplier 1 --trials 4 --json
expect_eq "$(json_field sampling <"$TMP/out") $(json_field accountant <"$TMP/out")" "balls-in-bins gaussian-epochs" "balls-in-bins: accountant"
"$PYTHON" - "$TMP/out" <<'PY' || fail "balls-in-bins --json: assumes, or the heuristic (20 steps, 5 epochs of 4: k 5, z 1, T 20)"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["accountant_assumes"].startswith("balls-in-bins lots: one participation per epoch, 5 epochs"), j["accountant_assumes"]
# the Gaussian mechanism at mu = k / (z sqrt(T)) = 5 / sqrt(20), delta 1e-5 (Balle & Wang; scipy brentq: 4.983306405970753)
assert abs(j["eps_last_iterate_heuristic"] - 4.983306405970753) < 1e-9, j["eps_last_iterate_heuristic"]
assert "not a bound" in j["last_iterate_assumes"], j["last_iterate_assumes"]
PY
SIM=(dp-train sgd --threat malicious-dataset --engine simulate --noise-multiplier 1 --steps 40 --trials 50 --quiet)
"${SIM[@]}" --sampling shuffle --batch 100 -o shuffled.csv && "${SIM[@]}" --sampling balls-in-bins --batch 100 -o bib.csv \
  || fail "simulated game by epochs"
cmp -s shuffled.csv bib.csv || fail "the simulated game's canary pattern differs between shuffle and balls-in-bins"
finish
