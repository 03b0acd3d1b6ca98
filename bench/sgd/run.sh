#!/usr/bin/env bash
# bench/sgd/run.sh BIN [SETTING] [THREADS] [SEEDS]: DP-SGD steps/s and accuracy of
# `dp-train sgd` (one-pass per-example clipping, Eigen) against the same DP-SGD in plain
# PyTorch with functorch's vmap(grad) per-sample gradients (dpsgd_functorch.py, Debian's
# python3-torch 1.13), same model, data, lot size, noise, learning rate and thread count.
#
# SETTING (default small):
#   small  Nasr et al. 2021's reduced setting: N 1000, q 0.1 (lot 100), mlp 784-32-10, T 100, lr 0.15
#   full   N 60000, q 256/60000 (lot 256), mlp 784-128-10, T 1000 (4.3 epochs), lr 1
# z = rdp-compose --eps 4 --q Q --steps T --delta 1e-5 for both implementations.
# Environment: STEPS overrides T (speed-only runs), TRIALS dp-train's trials per run
# (default: 20 for small, THREADS for full; dp-train's threads work on different trials).
#
# dp-train trains 2 x TRIALS models per run (D and D'); its steps/s is
# 2 TRIALS (T - 1) / (seconds(T) - seconds(T = 1)), so loading the data and the test
# evaluation cancel; the same for CPU time (user + sys, /usr/bin/time). Its accuracy is
# the model on D (the mean of the first 5 models on D when TRIALS > 1). The PyTorch peer
# times its training loop alone (one model) and evaluates that model.
# Prints one line per seed and implementation, then a Markdown row of the means.
set -euo pipefail
BIN=$1
SETTING=${2:-small}
THREADS=${3:-1}
SEEDS=${4:-1 2 3}
HERE=$(cd "$(dirname "$0")" && pwd)
case $SETTING in
  small) N=1000 Q=0.1 HIDDEN=32 T=${STEPS:-100} LR=0.15 TRIALS=${TRIALS:-20} ;;
  full) N=60000 Q=$(/usr/bin/python3 -c "print(256/60000)") HIDDEN=128 T=${STEPS:-1000} LR=1 TRIALS=${TRIALS:-$THREADS} ;;
  *) echo "run.sh: error: SETTING is small or full ($SETTING)" >&2; exit 2 ;;
esac
Z=$("$BIN/rdp-compose" --eps 4 --q "$Q" --steps "$T" --delta 1e-5)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

dp_train() {  # dp_train STEPS SEED NAME
  /usr/bin/time -f "%U %S" -o "$OUT/$3.time" "$BIN/dp-train" sgd --threat api --model mlp --hidden "$HIDDEN" \
    --train-size "$N" --q "$Q" --steps "$1" --lr "$LR" --clip 1 --noise-multiplier "$Z" --delta 1e-5 \
    --trials "$TRIALS" --threads "$THREADS" --seed "$2" --quiet --json >"$OUT/$3.json"
}

echo "setting $SETTING: N $N, q $Q, mlp 784-$HIDDEN-10, T $T, lr $LR, clip 1, z $Z, threads $THREADS, dp-train trials $TRIALS" >&2
dp_train 1 "${SEEDS%% *}" base
for seed in $SEEDS; do
  dp_train "$T" "$seed" "dp-train-$seed"
  /usr/bin/python3 "$HERE/dpsgd_functorch.py" --train-size "$N" --q "$Q" --hidden "$HIDDEN" --steps "$T" --lr "$LR" \
    --clip 1 --noise-multiplier "$Z" --threads "$THREADS" --seed "$seed" >"$OUT/functorch-$seed.json"
done

/usr/bin/python3 - "$OUT" "$SETTING" "$THREADS" "$T" "$TRIALS" $SEEDS <<'PY'
import json, statistics, sys
out, setting, threads, steps, trials, seeds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6:]

def cpu(name):
    return sum(map(float, open(f"{out}/{name}.time").read().split()))

base = json.load(open(f"{out}/base.json"))
work = 2 * trials * (steps - 1)
rows = {"dp-train": [], "functorch": []}
for s in seeds:
    r = json.load(open(f"{out}/dp-train-{s}.json"))
    rows["dp-train"].append((work / (r["seconds"] - base["seconds"]), work / (cpu(f"dp-train-{s}") - cpu("base")), r["test_accuracy"]))
    f = json.load(open(f"{out}/functorch-{s}.json"))
    rows["functorch"].append((f["steps_per_second"], f["steps"] / f["cpu_seconds"], f["test_accuracy"]))
for impl, runs in rows.items():
    for s, (wall, cpu_rate, acc) in zip(seeds, runs):
        print(f"{impl:9} {setting} threads {threads} seed {s}  steps/s {wall:8.1f} (per CPU second {cpu_rate:7.1f})  accuracy {acc:.4f}")
mean = {impl: [statistics.mean(v[i] for v in runs) for i in range(3)] for impl, runs in rows.items()}
d, f = mean["dp-train"], mean["functorch"]
print("| setting | threads | dp-train steps/s | functorch steps/s | ratio | ratio per CPU s | accuracy dp-train | accuracy functorch |")
print(f"| {setting} T {steps} | {threads} | {d[0]:.1f} | {f[0]:.1f} | {d[0] / f[0]:.1f}x | {d[1] / f[1]:.1f}x "
      f"| {d[2]:.4f} | {f[2]:.4f} |")
print(f"accuracy difference {100 * (d[2] - f[2]):+.2f} points (mean over seeds {' '.join(seeds)})")
PY
