#!/usr/bin/env bash
# bench/fedavg/run.sh BIN [ROUNDS] [THREADS] [SEEDS]: dp-train fedavg against the plain
# PyTorch peer (fedavg_torch.py: Debian's python3-torch, the same LibTorch 1.13) on the
# demo's configuration: Fashion-MNIST, mlp (101,770 parameters), 3,000 clients + 1,000
# seen and 1,000 unseen canaries, 100 participants per round, noise multiplier 0.5.
# For each seed (default "1 2 3") prints one line per implementation: seconds per round
# (the training loop, canary observation included) and test accuracy after ROUNDS
# rounds; then the means.
set -euo pipefail
BIN=$1
ROUNDS=${2:-40}
THREADS=${3:-1}
SEEDS=${4:-1 2 3}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
HERE=$(cd "$(dirname "$0")" && pwd)
for seed in $SEEDS; do
  "$BIN/dp-train" fedavg --model mlp --clients 3000 --clients-per-round 100 --rounds "$ROUNDS" --local-epochs 2 \
    --local-batch 16 --client-lr 0.1 --clip 1 --noise-multiplier 0.5 --server-lr 1 --server-momentum 0.9 \
    --num-canaries 1000 --num-unseen 1000 --seed "$seed" --threads "$THREADS" --eval-every "$ROUNDS" --quiet \
    --out "$OUT/run-$seed" --timings "$OUT/dp-train-$seed.timings.json" --json >"$OUT/dp-train-$seed.json"
  /usr/bin/python3 "$HERE/fedavg_torch.py" --rounds "$ROUNDS" --threads "$THREADS" --seed "$seed" >"$OUT/pytorch-$seed.json"
done
/usr/bin/python3 - "$OUT" "$THREADS" $SEEDS <<'PY'
import json, statistics, sys
out, threads, seeds = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = {}
for impl in ("dp-train", "pytorch"):
    runs = [json.load(open(f"{out}/{impl}-{s}.json")) for s in seeds]
    if impl == "dp-train":  # its timings are beside run.json (--timings), not in it
        runs = [{**r, **json.load(open(f"{out}/{impl}-{s}.timings.json"))} for s, r in zip(seeds, runs)]
    for s, r in zip(seeds, runs):
        print(f"{impl:9} threads {threads} seed {s}  seconds/round {r['seconds_per_round']:.3f}  accuracy {r['test_accuracy']:.4f}")
    rows[impl] = (statistics.mean(r["seconds_per_round"] for r in runs), statistics.mean(r["test_accuracy"] for r in runs))
for impl, (sec, acc) in rows.items():
    print(f"{impl:9} threads {threads} mean  seconds/round {sec:.3f}  accuracy {acc:.4f}")
print(f"speed-up {rows['pytorch'][0] / rows['dp-train'][0]:.2f}x, accuracy difference "
      f"{100 * (rows['dp-train'][1] - rows['pytorch'][1]):+.2f} points")
PY
