#!/usr/bin/env bash
# needs: dp-train
# dp-train fedavg (Andrew et al. 2024, Alg. 2-3) on the synthetic task with logistic regression
# (D = 8*8*10 + 10 = 650 parameters): fast runs that check the audit's known answers.
source "$SRC/tests/cli/lib.bash"
cd "$TMP"

SYN=(--task synthetic --model logreg --clients 200 --clients-per-round 20 --rounds 40 --delta 1e-5 --quiet)
# expect_true WHAT PYTHON-EXPRESSION
expect_true() { CHECKS=$((CHECKS + 1)); "$PYTHON" -c "import sys; sys.exit(0 if ($2) else 1)" || fail "$1"; }
json_field() { "$PYTHON" -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval('d' + sys.argv[2]))" "$@"; }
# mean and sample sd of the scores with label $2 in CSV $1
score_stats() {
  "$PYTHON" - "$1" "$2" <<'PY'
import sys, numpy as np
a = np.genfromtxt(sys.argv[1], delimiter=",", names=True)
s = a["score"][a["label"] == int(sys.argv[2])]
print(s.mean(), s.std(ddof=1))
PY
}

# --- clipping only (z = 0): all iterates separate seen from unseen canaries; the final
# model leaks far less (Andrew et al. 2024, Table 3/4, first row: eps_est-all >> eps_est-final).
expect_status 0 dp-train fedavg "${SYN[@]}" --num-canaries 100 --num-unseen 100 --noise-multiplier 0 --out z0 --save-deltas --threads 1
for f in final_model.npy delta.npy deltas.npy scores_final.csv scores_all.csv metrics.csv run.json canaries.json unseen.json; do
  [ -s "z0/$f" ] || fail "z0/$f missing"
done
expect_eq "$(json_field z0/run.json "['dim']")" 650 "parameter count of logreg on 8x8x10"
expect_eq "$(json_field z0/run.json "['analytic_epsilon']['eps_gaussian_per_round']")" inf "analytic eps without noise"
expect_eq "$(wc -l <z0/metrics.csv)" 41 "metrics: header + one row per round"
expect_eq "$(head -1 z0/metrics.csv)" "round,train_loss,update_norm,clip,test_accuracy" "metrics header"
eps_all=$(eps-from-scores z0/scores_all.csv --method gauss-fit --delta 1e-5)
eps_final=$(eps-from-scores -q z0/scores_final.csv --null-dim 650 --delta 1e-5)
# Measured with this command (seed 1): eps_est-all = 732, eps_est-final = 30.0.
expect_true "eps_est-all with z = 0 is large ($eps_all)" "float('$eps_all') > 100"
expect_true "eps_est-final ($eps_final) far below eps_est-all ($eps_all)" "float('$eps_final') < float('$eps_all') / 5"
# The test set of the synthetic task is learnable: accuracy well above chance (0.1).
expect_true "test accuracy" "$(json_field z0/run.json "['test_accuracy']") > 0.8"

# The outputs are what score-dump computes from the written model delta and specs:
# byte-identical for the final model, to float32 precision for the saved per-round deltas.
score-dump --canaries z0/canaries.json --unseen z0/unseen.json --model z0/delta.npy >final_again.csv
expect_eq "$(cmp final_again.csv z0/scores_final.csv && echo same)" same "score-dump on delta.npy = scores_final.csv"
score-dump --canaries z0/canaries.json --unseen z0/unseen.json --deltas z0/deltas.npy --reduce max >all_again.csv
expect_near "$("$PYTHON" -c "
import numpy as np
a = np.genfromtxt('all_again.csv', delimiter=',', names=True)['score']
b = np.genfromtxt('z0/scores_all.csv', delimiter=',', names=True)['score']
print(abs(a - b).max())")" 0 1e-6 "score-dump --deltas --reduce max = scores_all.csv"

# --- same seed, --threads 1 and 2: byte-identical --out folders, run.json
# included (timings go to --timings FILE, which has the run's seconds and peak memory).
expect_status 0 dp-train fedavg "${SYN[@]}" --num-canaries 100 --num-unseen 100 --noise-multiplier 0 --out z0t2 --save-deltas \
  --threads 2 --timings z0t2.timings.json
expect_eq "$(diff -r z0 z0t2 && echo same)" same "--out with --threads 1 and 2"
expect_eq "$(ls z0t2 | tr '\n' ' ')" "canaries.json delta.npy deltas.npy final_model.npy metrics.csv run.json scores_all.csv scores_final.csv unseen.json " \
  "the files of --out"
expect_eq "$("$PYTHON" -c "import json,sys; t = json.load(open(sys.argv[1])); print(sorted(t), all(v > 0 for v in t.values()))" \
  z0t2.timings.json)" "['peak_memory_mb', 'seconds_per_round', 'threads', 'wall_seconds'] True" "--timings FILE"

# --- large noise (z = 100): every canary's final cosine follows the null N(0, 1/D) of
# Andrew et al. 2024, Thm 3.1: mean 0 and sd 1/sqrt(650) = 0.03922; the seen ones as well.
expect_status 0 dp-train fedavg "${SYN[@]}" --num-canaries 500 --num-unseen 500 --noise-multiplier 100 --out z100
read -r mean sd <<<"$(score_stats z100/scores_final.csv 1)"
expect_near "$mean" 0 0.0053 "seen final cosine mean (3 standard errors: 3 * 0.03922 / sqrt(500))"
expect_near "$sd" 0.03922 0.1r "seen final cosine sd (10% = 3 sd of the estimate)"
read -r mean sd <<<"$(score_stats z100/scores_final.csv 0)"
expect_near "$mean" 0 0.0053 "unseen final cosine mean"
expect_near "$sd" 0.03922 0.1r "unseen final cosine sd"
# Per-round bound for z = 100 at delta 1e-5 is 0.05; the estimate from 500 + 500 cosines
# stays near its sampling floor (0.90 measured with this command).
eps_all=$(eps-from-scores z100/scores_all.csv --method gauss-fit --delta 1e-5)
expect_near "$eps_all" 0.9 1.1 "eps_est-all with z = 100"

# --- analytic epsilon in run.json: Andrew et al. 2024, Table 2, sigma 0.541 <-> eps 10 at delta 1e-6
# (0.541 is rounded there, hence 2%); Poisson sampling adds RDP = rdp-compose's answer.
expect_status 0 dp-train fedavg --task synthetic --model logreg --clients 100 --rounds 3 --sampling poisson --q 0.2 \
  --noise-multiplier 0.541 --delta 1e-6 --out poisson --quiet
expect_near "$(json_field poisson/run.json "['analytic_epsilon']['eps_gaussian_per_round']")" 10 0.02r "Andrew et al. 2024, Table 2"
expect_near "$(json_field poisson/run.json "['analytic_epsilon']['eps_rdp_poisson']")" \
  "$(rdp-compose --sigma 0.541 --q 0.2 --steps 3 --delta 1e-6)" 1e-12 "RDP bound = rdp-compose"
# delta defaults to clients^-1.1 (Andrew et al. 2024, Sec. 5.1): 100^-1.1 = 0.0063096
expect_status 0 dp-train fedavg --task synthetic --model logreg --clients 100 --rounds 1 --out d --quiet
expect_near "$(json_field d/run.json "['delta']")" 0.0063095734448 1e-12 "default delta"

# --- participation: with every member in every round (clients-per-round = 30 clients + 10
# canaries), each canary is inserted every round: 10 x 4 = 40; with --canary-repeats 3
# each canary is inserted exactly 3 times: 30.
expect_status 0 dp-train fedavg --task synthetic --model logreg --clients 30 --clients-per-round 40 --rounds 4 \
  --num-canaries 10 --out every --quiet
expect_eq "$(json_field every/run.json "['canary_insertions']")" 40 "canaries in every round"
expect_status 0 dp-train fedavg --task synthetic --model logreg --clients 30 --clients-per-round 10 --rounds 8 \
  --num-canaries 10 --canary-repeats 3 --out rep --quiet
expect_eq "$(json_field rep/run.json "['canary_insertions']")" 30 "fixed canary repetitions"

# --- the whole run's analytic epsilon (issue 9 item 8): k participations at known rounds
# compose to one Gaussian mechanism at z / sqrt(k). Everyone in each of 4 rounds at
# z = 1.082 is one release at 0.541: Andrew et al. 2024, Table 2's eps 10 (the per-round bound of the
# Poisson run above, at the same delta).
expect_status 0 dp-train fedavg --task synthetic --model logreg --clients 30 --clients-per-round 40 --rounds 4 \
  --num-canaries 10 --noise-multiplier 1.082 --delta 1e-6 --out every4 --quiet
expect_eq "$(json_field every4/run.json "['analytic_epsilon']['max_participations']")" 4 "max participations, every round"
expect_eq "$(json_field every4/run.json "['analytic_epsilon']['eps_run']")" \
  "$(json_field poisson/run.json "['analytic_epsilon']['eps_gaussian_per_round']")" "4 rounds at z = 2 x 0.541"
expect_eq "$(json_field every4/run.json "['analytic_epsilon']['assumes']")" "every client and seen canary takes part in \
at most max_participations rounds, each known to the adversary: the Gaussian mechanism at noise multiplier / \
sqrt(max_participations); no amplification by shuffling" "what eps_run assumes (shuffle)"
# 30 clients shuffled alone 10 per round over 8 rounds: 3 epochs begun, so some client
# takes part 3 times, as every canary (--canary-repeats 3).
expect_status 0 dp-train fedavg --task synthetic --model logreg --clients 30 --clients-per-round 10 --rounds 8 \
  --num-canaries 10 --canary-repeats 3 --noise-multiplier 2 --delta 1e-5 --out rep3 --quiet
expect_eq "$(json_field rep3/run.json "['analytic_epsilon']['max_participations']")" 3 "max participations, 3 repeats"
expect_near "$(json_field rep3/run.json "['analytic_epsilon']['eps_run']")" \
  "$(eps-gauss2 --gaussian-mechanism --sigma "$("$PYTHON" -c 'print(repr(2 / 3 ** 0.5))')" --delta 1e-5)" 1e-12 \
  "eps_run = the Gaussian mechanism at z / sqrt(3)"
# Poisson clients with fixed-repeats canaries: the larger of the RDP bound and R canary rounds.
expect_status 0 dp-train fedavg --task synthetic --model logreg --clients 100 --rounds 8 --sampling poisson --q 0.1 \
  --num-canaries 5 --canary-repeats 4 --noise-multiplier 2 --delta 1e-5 --out prep --quiet
expect_near "$(json_field prep/run.json "['analytic_epsilon']['eps_rdp_poisson']")" \
  "$(rdp-compose --sigma 2 --q 0.1 --steps 8 --delta 1e-5)" 1e-12 "RDP bound of the Poisson clients"
expect_near "$(json_field prep/run.json "['analytic_epsilon']['eps_run']")" \
  "$(eps-gauss2 --gaussian-mechanism --sigma 1 --delta 1e-5)" 1e-12 "eps_run: 4 canary rounds at z = 2 dominate"
# An all-Poisson run's eps_run is the smaller sound bound of PLD and RDP, as rdp-compose's.
expect_near "$(json_field poisson/run.json "['analytic_epsilon']['eps_run']")" \
  "$(rdp-compose --accountant pld --sigma 0.541 --q 0.2 --steps 3 --delta 1e-6)" 1e-12r "eps_run of an all-Poisson run"
expect_eq "$(json_field poisson/run.json "['analytic_epsilon']['poisson_headline']")" pld "PLD is the headline there"
expect_eq "$(json_field z0/run.json "['analytic_epsilon']['eps_run']")" inf "eps_run without noise"

# --- adaptive clipping (Andrew et al. 2021): starting far above every update norm, each
# round counts all updates (and canaries, at norm C) below C, so with a negligible count
# noise C_t = 10 exp(-0.2 (1 - 0.5) (t - 1)): 9.0483742 in round 2, 6.7032005 in round 5.
expect_status 0 dp-train fedavg --task synthetic --model logreg --clients 100 --clients-per-round 20 --rounds 5 \
  --num-canaries 10 --adaptive-clip --clip 10 --clip-count-noise 1e-9 --out adaptive --quiet
expect_near "$(awk -F, '$1 == 2 { print $4 }' adaptive/metrics.csv)" 9.0483742 1e-6 "adaptive clip, round 2"
expect_near "$(awk -F, '$1 == 5 { print $4 }' adaptive/metrics.csv)" 6.7032005 1e-6 "adaptive clip, round 5"
# The updates' noise multiplier when the count takes its share: z = 1, sigma_b = 1 gives
# (1 - 1/4)^(-1/2) = 2/sqrt(3) = 1.1547005.
expect_status 0 dp-train fedavg --task synthetic --model logreg --clients 100 --clients-per-round 20 --rounds 2 \
  --adaptive-clip --noise-multiplier 1 --clip-count-noise 1 --out adaptive_z --quiet
expect_near "$(json_field adaptive_z/run.json "['update_noise_multiplier']")" 1.1547005 1e-6 "z_Delta"

# --- canaries given as specs (and as NPY): the same run as with --num-canaries.
canary-gen --count 100 --dim 650 --seed 1 >seen.json
canary-gen --count 100 --dim 650 --seed 1 --first-index 100 >unseen.json
expect_status 0 dp-train fedavg "${SYN[@]}" --canaries seen.json --unseen unseen.json --noise-multiplier 0 --out given
expect_eq "$(cmp given/scores_all.csv z0/scores_all.csv && echo same)" same "specs from canary-gen = --num-canaries"
canary-gen --count 100 --dim 650 --seed 1 --npy -o seen.npy
expect_status 0 dp-train fedavg "${SYN[@]}" --canaries seen.npy --unseen unseen.json --noise-multiplier 0 --out npy \
  --canary-memory 0
expect_near "$("$PYTHON" -c "
import numpy as np
a = np.genfromtxt('npy/scores_all.csv', delimiter=',', names=True)['score']
b = np.genfromtxt('z0/scores_all.csv', delimiter=',', names=True)['score']
print(abs(a - b).max())")" 0 1e-12 "NPY canaries, regenerated spec canaries = in-memory spec canaries"

# --- Fashion-MNIST (Debian's dataset-fashion-mnist): a few rounds of logreg learn.
expect_status 0 dp-train fedavg --model logreg --clients 600 --clients-per-round 60 --rounds 5 --out fmnist --quiet
expect_eq "$(json_field fmnist/run.json "['dim']")" 7850 "logreg on 28x28x10"
expect_true "Fashion-MNIST accuracy after 5 rounds (0.687 measured)" "$(json_field fmnist/run.json "['test_accuracy']") > 0.6"

# --- partitions: 200 iid clients of 10 examples from 10 equally likely labels hold on
# average 10 (1 - 0.9^10) = 6.513 distinct labels (sd of the mean over 200 clients ~0.07);
# label skew with Dirichlet alpha = 0.1 concentrates each label on few clients.
expect_near "$(json_field z0/run.json "['partition_summary']['mean_classes_per_client']")" 6.513 0.3 "iid labels per client"
expect_eq "$(json_field z0/run.json "['partition_summary']['empty_clients']")" 0 "iid: no empty client"
expect_status 0 dp-train fedavg --task synthetic --model logreg --clients 200 --partition label-skew --alpha 0.1 \
  --clients-per-round 50 --rounds 2 --out skew --quiet
expect_true "label skew: fewer labels per client" "$(json_field skew/run.json "['partition_summary']['mean_classes_per_client']") < 3"

# --- parameter counts on 28x28 images: mlp 784-128-10 = 101,770 (Andrew et al. 2024, Sec. 5.4; its width, 128, is ours);
# cnn of Matsumoto et al. 2022, Table 2 = 16*64+16 + 32*16*16+32 + 32*32+32 + 32*10+10 = 10,650.
expect_status 0 dp-train fedavg --model mlp --clients 600 --clients-per-round 10 --rounds 1 --out mlp --quiet
expect_eq "$(json_field mlp/run.json "['dim']")" 101770 "mlp parameters"
expect_status 0 dp-train fedavg --model cnn --clients 600 --clients-per-round 10 --rounds 1 --out cnn --quiet
expect_eq "$(json_field cnn/run.json "['dim']")" 10650 "cnn parameters"

# --- --help and --version
expect_status 0 dp-train fedavg --help
grep -q "^EXAMPLES:" "$TMP/out" || fail "fedavg --help has no EXAMPLES"
# Every option of --help is in dp-train(1)'s FEDAVG section.
for opt in $(grep -oE '^ +--[a-z-]+' "$TMP/out" | tr -d ' ' | grep -v -e --help -e --version); do
  sed -n '/^\.SH FEDAVG/,/^\.SH LDP/p' "$SRC/man/dp-train.1" | sed 's/\\-/-/g' | grep -q -- "$opt" || fail "dp-train(1) FEDAVG lacks $opt"
done
finish
