#!/bin/bash
# One run of Andrew et al. 2024, Table 2 (d = 1e6, k = 1e3, sigma = 0.541, delta = 1e-6): the dpaudit
# pipeline stage by stage, the same pipeline as one pipe, and the NumPy Alg. 1 of
# alg1_numpy.py, with wall time, CPU time (user + sys) and peak memory of each process.
# Usage: BIN=build/bin bench/table2/one_run.sh [DIM] [CANARIES] [THREADS]
set -euo pipefail
BIN=${BIN:-build/bin}
PYTHON=${PYTHON:-/usr/bin/python3}
dim=${1:-1000000} count=${2:-1000} threads=${3:-0}
export PATH="$BIN:$PATH"
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
measure() {  # measure NAME CMD...: one line NAME wall cpu peak_MB
  local name=$1; shift
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$@"
  read -r wall user sys kb <"$tmp/time"
  awk -v n="$name" -v w="$wall" -v u="$user" -v s="$sys" -v k="$kb" \
    'BEGIN { printf "%-18s %8.2f s %8.2f s %8.0f MB\n", n, w, u + s, k / 1024 }'
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); nproc $(nproc); d=$dim k=$count threads=$threads"
printf '%-18s %10s %10s %11s\n' stage wall cpu peak
measure canary-gen canary-gen --count "$count" --dim "$dim" --seed 1 -o "$tmp/c.json"
measure "dp-train sum" dp-train sum --dim "$dim" --canaries "$tmp/c.json" --noise 0.541 --seed 1 \
  --threads "$threads" -o "$tmp/release.npy"
measure score-dump score-dump --canaries "$tmp/c.json" --model "$tmp/release.npy" --threads "$threads" -o "$tmp/scores.csv"
measure eps-from-scores eps-from-scores "$tmp/scores.csv" --null-dim "$dim" --method gauss-fit --delta 1e-6 -o "$tmp/eps"
echo "eps_est $(cat "$tmp/eps")"
start=$(date +%s%N)
canary-gen --count "$count" --dim "$dim" --seed 1 >"$tmp/c.json"
dp-train sum --dim "$dim" --canaries "$tmp/c.json" --noise 0.541 --seed 1 --threads "$threads" -o - |
  score-dump --canaries "$tmp/c.json" --model - --threads "$threads" |
  eps-from-scores --null-dim "$dim" --method gauss-fit --delta 1e-6 >/dev/null
awk -v s="$start" -v e="$(date +%s%N)" 'BEGIN { printf "%-18s %8.2f s  (one pipe, the whole run)\n", "pipeline", (e - s) / 1e9 }'
measure "numpy Alg. 1" "$PYTHON" "$here/alg1_numpy.py" --dim "$dim" --canaries "$count" --sigma 0.541 --seed 1
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
