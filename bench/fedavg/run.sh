#!/usr/bin/env bash
# bench/fedavg/run.sh BIN [ROUNDS] [THREADS]: dp-train fedavg against the plain PyTorch
# peer (fedavg_torch.py, Debian's python3-torch on the same LibTorch 1.13) on the demo's
# configuration: Fashion-MNIST, mlp (101,770 parameters), 3,000 clients + 1,000 seen and
# 1,000 unseen canaries, 100 participants per round, noise multiplier 0.5. Prints one
# line per implementation: seconds per round (training loop only, canary observation
# included) and test accuracy after ROUNDS rounds.
set -euo pipefail
BIN=$1
ROUNDS=${2:-40}
THREADS=${3:-2}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
HERE=$(cd "$(dirname "$0")" && pwd)
"$BIN/dp-train" fedavg --model mlp --clients 3000 --clients-per-round 100 --rounds "$ROUNDS" --local-epochs 2 \
  --local-batch 16 --client-lr 0.1 --clip 1 --noise-multiplier 0.5 --server-lr 1 --server-momentum 0.9 \
  --num-canaries 1000 --num-unseen 1000 --seed 1 --threads "$THREADS" --eval-every "$ROUNDS" --quiet --out "$OUT/run"
/usr/bin/python3 -c "
import json; d = json.load(open('$OUT/run/run.json'))
print(f\"dp-train  seconds/round {d['seconds_per_round']:.3f}  accuracy {d['test_accuracy']:.4f}  peak {d['peak_memory_mb']:.0f} MiB\")"
/usr/bin/python3 "$HERE/fedavg_torch.py" --rounds "$ROUNDS" --threads "$THREADS" | /usr/bin/python3 -c "
import json, sys; d = json.loads(sys.stdin.read())
print(f\"pytorch   seconds/round {d['seconds_per_round']:.3f}  accuracy {d['test_accuracy']:.4f}\")"
