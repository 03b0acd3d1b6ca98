#!/usr/bin/env bash
# bench/fedavg/run.sh BIN [ROUNDS] [THREADS] [SEEDS]: dp-train fedavg against the plain
# PyTorch peer (fedavg_torch.py: Debian's python3-torch, the same LibTorch 1.13) on the
# demo's configuration: Fashion-MNIST, mlp (101,770 parameters), 3,000 clients + 1,000
# seen and 1,000 unseen canaries, 100 participants per round, noise multiplier 0.5.
# For each seed (default "1 2 3") prints one line per implementation: seconds per round
# (the training loop, canary observation included) and test accuracy after ROUNDS
# rounds; then the means.
#   BASELINE=DIR   also runs DIR/dp-train (an earlier build) in the same seeds: "dp-train-base"
#   PEER_F32=1     also runs the peer with its canaries in float32 (--canary-dtype float32):
#                  "pytorch-f32"
#   CPU=1          seconds per round in CPU time (user + sys of the whole process), steady on
#                  a loaded machine: each run is made at ROUNDS/4 and at ROUNDS rounds and the
#                  difference divided by the rounds between (start-up, data and canaries cancel)
set -euo pipefail
BIN=$1
ROUNDS=${2:-40}
THREADS=${3:-1}
SEEDS=${4:-1 2 3}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
HERE=$(cd "$(dirname "$0")" && pwd)
IMPLS="dp-train${BASELINE:+ dp-train-base} pytorch${PEER_F32:+ pytorch-f32}"
# impl seed rounds: one run, its JSON into $OUT/$impl-$seed.json and its CPU seconds into
# $OUT/$impl-$seed-$rounds.cpu
run() {
  local impl=$1 seed=$2 rounds=$3 bin=$BIN cmd
  [ "$impl" != dp-train-base ] || bin=$BASELINE
  case $impl in
    dp-train*) cmd=("$bin/dp-train" fedavg --model mlp --clients 3000 --clients-per-round 100 --rounds "$rounds" \
      --local-epochs 2 --local-batch 16 --client-lr 0.1 --clip 1 --noise-multiplier 0.5 --server-lr 1 \
      --server-momentum 0.9 --num-canaries 1000 --num-unseen 1000 --seed "$seed" --threads "$THREADS" \
      --eval-every "$rounds" --quiet --force --out "$OUT/$impl-run-$seed" --timings "$OUT/$impl-$seed.timings.json" --json) ;;
    pytorch) cmd=(/usr/bin/python3 "$HERE/fedavg_torch.py" --rounds "$rounds" --threads "$THREADS" --seed "$seed") ;;
    pytorch-f32) cmd=(/usr/bin/python3 "$HERE/fedavg_torch.py" --rounds "$rounds" --threads "$THREADS" --seed "$seed"
      --canary-dtype float32) ;;
  esac
  /usr/bin/time -f "%U %S" -o "$OUT/$impl-$seed-$rounds.cpu" "${cmd[@]}" >"$OUT/$impl-$seed.json"
}
for seed in $SEEDS; do
  for impl in $IMPLS; do
    if [ -n "${CPU:-}" ]; then run "$impl" "$seed" $((ROUNDS / 4)); fi
    run "$impl" "$seed" "$ROUNDS"
  done
done
/usr/bin/python3 - "$OUT" "$THREADS" "$IMPLS" "$ROUNDS" "${CPU:-}" $SEEDS <<'PY'
import json, statistics, sys
out, threads, impls, rounds, cpu, seeds = sys.argv[1], sys.argv[2], sys.argv[3].split(), int(sys.argv[4]), sys.argv[5], sys.argv[6:]
def cpu_seconds(impl, s, r):
    return sum(map(float, open(f"{out}/{impl}-{s}-{r}.cpu").read().split()[-2:]))
rows = {}
if cpu:
    print(f"seconds per round in CPU time: (CPU of {rounds} rounds - CPU of {rounds // 4}) / {rounds - rounds // 4}")
for impl in impls:
    runs = [json.load(open(f"{out}/{impl}-{s}.json")) for s in seeds]
    if impl.startswith("dp-train"):  # its timings are beside run.json (--timings), not in it
        runs = [{**r, **json.load(open(f"{out}/{impl}-{s}.timings.json"))} for s, r in zip(seeds, runs)]
    if cpu:
        for s, r in zip(seeds, runs):
            r["seconds_per_round"] = (cpu_seconds(impl, s, rounds) - cpu_seconds(impl, s, rounds // 4)) / (rounds - rounds // 4)
    for s, r in zip(seeds, runs):
        print(f"{impl:13} threads {threads} seed {s}  seconds/round {r['seconds_per_round']:.3f}  accuracy {r['test_accuracy']:.4f}")
    rows[impl] = (statistics.mean(r["seconds_per_round"] for r in runs), statistics.mean(r["test_accuracy"] for r in runs))
for impl, (sec, acc) in rows.items():
    print(f"{impl:13} threads {threads} mean  seconds/round {sec:.3f}  accuracy {acc:.4f}")
for impl in impls:
    if impl.startswith("pytorch"):
        print(f"speed-up over {impl}: {rows[impl][0] / rows['dp-train'][0]:.2f}x, accuracy difference "
              f"{100 * (rows['dp-train'][1] - rows[impl][1]):+.2f} points"
              + (f" (dp-train-base: {rows[impl][0] / rows['dp-train-base'][0]:.2f}x)" if "dp-train-base" in rows else ""))
PY
