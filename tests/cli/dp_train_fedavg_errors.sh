#!/usr/bin/env bash
# needs: dp-train
# dp-train fedavg's bad input (issue 5): one line on stderr, exit 1 (bad data) or 2
# (usage), nothing on stdout, and no output folder (not even a half-written one).
source "$SRC/tests/cli/lib.bash"
cd "$TMP"

SYN=(--task synthetic --clients 50 --clients-per-round 10 --rounds 2 --quiet)
# The output folder is `run` (lib.bash keeps stdout in a file named out).
no_output() { CHECKS=$((CHECKS + 1)); if compgen -G "run*" >/dev/null; then fail "output left behind: $1"; fi; }

expect_error 1 "missing Fashion-MNIST file \(Debian package dataset-fashion-mnist provides it\) \(/nonexistent/train-images-idx3-ubyte.gz\)" \
  dp-train fedavg --data /nonexistent --out run
no_output "missing data"
mkdir fake && printf 'not gzip, not idx' >fake/train-images-idx3-ubyte.gz && cp fake/train-images-idx3-ubyte.gz fake/train-labels-idx1-ubyte.gz
expect_error 1 "not an IDX file \(bad magic number\)" dp-train fedavg --data fake --out run
no_output "corrupt data"

expect_error 2 "unknown model 'resnet' \(logreg, mlp or cnn\) \(--model\)" dp-train fedavg "${SYN[@]}" --model resnet --out run
no_output "unknown model"
expect_error 2 "model cnn needs 1x28x28 images" dp-train fedavg "${SYN[@]}" --model cnn --out run
no_output "cnn on 8x8"
expect_error 2 "unknown partition 'dirichlet' \(iid or label-skew\) \(--partition\)" \
  dp-train fedavg "${SYN[@]}" --partition dirichlet --out run
no_output "unknown partition"
expect_error 2 "unknown sampling 'uniform'" dp-train fedavg "${SYN[@]}" --sampling uniform --out run
no_output "unknown sampling"

# 50 clients + 10 canaries sampled with them: at most 60 per round.
expect_error 2 "clients per round \(61\) must be between 1 and the population \(60\) \(--clients-per-round\)" \
  dp-train fedavg --task synthetic --clients 50 --rounds 2 --num-canaries 10 --clients-per-round 61 --out run
no_output "clients per round"
expect_error 2 "more clients \(5000\) than training examples \(2000\) \(--clients\)" \
  dp-train fedavg --task synthetic --clients 5000 --out run
no_output "too many clients"
for q in 0 1.5 -0.1; do
  expect_error 2 "q must be in \(0, 1\] \(--q\)" dp-train fedavg "${SYN[@]}" --sampling poisson --q "$q" --out run
  no_output "q = $q"
done
expect_error 2 "repeats \(3\) must be between 1 and the number of rounds \(2\)" \
  dp-train fedavg "${SYN[@]}" --num-canaries 5 --canary-repeats 3 --out run
no_output "repeats"

# A spec for another model: logreg on the synthetic task has 650 parameters.
canary-gen --count 10 --dim 101770 --seed 1 >big.json
expect_error 1 "canary dim 101770 does not match the model's 650 parameters \(big.json, --canaries\)" \
  dp-train fedavg "${SYN[@]}" --model logreg --canaries big.json --out run
no_output "seen dim"
expect_error 1 "canary dim 101770 does not match the model's 650 parameters \(big.json, --unseen\)" \
  dp-train fedavg "${SYN[@]}" --model logreg --unseen big.json --out run
no_output "unseen dim"
echo '{"kind":"sphere"' >broken.json
expect_error 1 "broken.json" dp-train fedavg "${SYN[@]}" --canaries broken.json --out run
no_output "broken spec"
expect_error 2 "either --canaries or --num-canaries" \
  dp-train fedavg "${SYN[@]}" --canaries big.json --num-canaries 3 --out run
no_output "both canary options"

# Adaptive clipping: the count query cannot take the whole budget (2 sigma_b <= z).
expect_error 2 "must exceed half the noise multiplier" \
  dp-train fedavg "${SYN[@]}" --adaptive-clip --noise-multiplier 1 --clip-count-noise 0.4 --out run
no_output "count noise"
expect_error 2 "--out" dp-train fedavg "${SYN[@]}"
expect_error 2 "noise-multiplier" dp-train fedavg "${SYN[@]}" --noise-multiplier -1 --out run
no_output "negative noise"
# A diverged run (noise 1e300, server lr 1e300) wrote NaN scores and exited 0.
expect_error 1 "training diverged: the model is not finite after round 2 .*\(run\)" dp-train fedavg "${SYN[@]}" --model logreg --noise-multiplier 1e300 --out run
no_output "diverged (noise)"
expect_error 1 "training diverged" dp-train fedavg "${SYN[@]}" --model logreg --server-lr 1e300 --out run
no_output "diverged (server lr)"
# An explicit --delta 0 (0 is the unset default inside) was silently clients^-1.1.
expect_error 2 "--delta: value 0 is not in \(0,1\)" dp-train fedavg "${SYN[@]}" --delta 0 --out run
no_output "delta 0"
# A client learning rate beyond float32: a usage error naming the option (torch's message had no WHERE).
expect_error 2 "client learning rate does not fit in float32 \(--client-lr\)" dp-train fedavg "${SYN[@]}" --client-lr 1e39 --out run
no_output "client lr 1e39"
finish
