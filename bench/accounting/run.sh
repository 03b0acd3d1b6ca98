#!/bin/bash
# Benchmarks of the accounting tools (issue 2 targets):
#   eps-gauss2 --batch: at least 100,000 eps per second on one core;
#   rdp-compose: 10,000 heterogeneous events with 100 orders in under 0.5 s.
# Usage: bench/accounting/run.sh [BIN_DIR]   (default build/bin); best of 3 runs each.
# Prints wall and CPU (user+sys) seconds; the figures go to bench/accounting.md.
set -euo pipefail
BIN=${1:-build/bin}
HERE=$(cd "$(dirname "$0")" && pwd)
PY=/usr/bin/python3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

"$PY" "$HERE/make_gauss2_rows.py" 100000 >"$TMP/rows.csv"
"$PY" "$HERE/make_events.py" 10000 >"$TMP/events.csv"
# 100 orders: 1.1..5.9 by 0.1 without the integers, and the integers 2..56
ORDERS100=$("$PY" -c "print(','.join([str(1 + x / 10) for x in range(1, 50) if x % 10] + [str(a) for a in range(2, 57)]))")

# best_of3 LABEL CMD...: runs CMD 3 times (stdout to /dev/null), prints the fastest wall and its CPU time
best_of3() {
  local label=$1; shift
  local best=""
  for _ in 1 2 3; do
    local t
    t=$( { /usr/bin/time -f "%e %U %S" "$@" >/dev/null; } 2>&1 | tail -1)
    if [ -z "$best" ] || awk -v a="${t%% *}" -v b="${best%% *}" 'BEGIN{exit !(a<b)}'; then best=$t; fi
  done
  set -- $best
  printf '%-52s wall %6.2f s   cpu %6.2f s\n' "$label" "$1" "$(awk -v u="$2" -v s="$3" 'BEGIN{print u+s}')"
  LAST_WALL=$1
  LAST_CPU=$(awk -v u="$2" -v s="$3" 'BEGIN{print u+s}')
}

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
best_of3 "eps-gauss2 --batch, 100000 rows" "$BIN/eps-gauss2" --batch "$TMP/rows.csv"
awk -v w="$LAST_WALL" -v c="$LAST_CPU" 'BEGIN{printf "  -> %.0f eps/s (wall), %.0f eps/s (cpu)\n", 100000/w, 100000/c}'
best_of3 "rdp-compose, 10000 events, 100 orders, 1 thread" "$BIN/rdp-compose" --events "$TMP/events.csv" --delta 1e-5 --orders "$ORDERS100" --threads 1
best_of3 "rdp-compose, 10000 events, 100 orders, all cores" "$BIN/rdp-compose" --events "$TMP/events.csv" --delta 1e-5 --orders "$ORDERS100"
best_of3 "rdp-compose, 10000 events, 156 default orders, 1 thread" "$BIN/rdp-compose" --events "$TMP/events.csv" --delta 1e-5 --threads 1
best_of3 "rdp-compose, 10000 events, 156 default orders, all cores" "$BIN/rdp-compose" --events "$TMP/events.csv" --delta 1e-5
