#!/usr/bin/env bash
# eps.sh OUT.eps SCORES_FINAL.csv...: eps_est-final (Andrew et al. 2024, Alg. 2: Gaussian fit of the seen
# cosines against the exact null, at the runs' delta) of the pooled cosines of one or more
# `dp-train fedavg` runs; every run must have the same dim and delta (run.json beside).
set -euo pipefail
out=$1
shift
PYTHON=${PYTHON:-/usr/bin/python3}
read -r dim delta < <("$PYTHON" - "$@" <<'PY'
import json, os, sys
runs = [json.load(open(os.path.join(os.path.dirname(p), "run.json"))) for p in sys.argv[1:]]
keys = {(r["dim"], r["delta"]) for r in runs}
if len(keys) != 1:
    sys.exit(f"eps.sh: runs differ in dim or delta: {sorted(keys)}")
print(*keys.pop())
PY
)
{ head -n 1 "$1"; for f in "$@"; do tail -n +2 "$f"; done; } |
  eps-from-scores -q --null-dim "$dim" --method gauss-fit --delta "$delta" >"$out.tmp"
mv "$out.tmp" "$out"
