#!/bin/bash
# Benchmarks of the accounting tools (issue 2 and issue 13 targets):
#   eps-gauss2 --batch: at least 100,000 eps per second on one core;
#   rdp-compose: 10,000 heterogeneous events with 100 orders in under 0.5 s;
#   rdp-compose --accountant pld: 10,000 DP-SGD steps in under 1 s and 200 MiB; 1,000
#   heterogeneous events measured beside RDP; every row of dp_accounting's reference
#   (tests/golden/pld_dp_accounting.csv) against its own seconds;
#   the mixture-of-Gaussians PLD (issue 23): 10,000 steps of gradient accumulation in under 1 s and
#   200 MiB, and the last-iterate heuristic at 10^4 and 10^5 steps.
#   issue 26: every row of dp_accounting's reference files, the short ones and the long ones
#   (10^5 to 10^6 steps), at our default lattice and at its 1e-4, our CPU time over its own (its
#   CPU seconds from the csv; it runs live too where `import dp_accounting` works), and our peak
#   memory at 10^6 steps (target: under 200 MiB).
# Usage: bench/accounting/run.sh [BIN_DIR] [REFERENCE_CSV...]   (default build/bin, and
# ../shared/reference/pld_dp_accounting.csv and pld_dp_accounting_long.csv beside the checkout,
# else tests/golden/pld_dp_accounting.csv); best of 3 runs each.
# Prints wall and CPU (user+sys) seconds and peak memory; the figures go to bench/accounting.md.
set -euo pipefail
BIN=${1:-build/bin}
HERE=$(cd "$(dirname "$0")" && pwd)
SHARED=$HERE/../../../shared/reference
if [ $# -gt 1 ]; then
  REFS=("${@:2}")
elif [ -f "$SHARED/pld_dp_accounting_long.csv" ]; then
  REFS=("$SHARED/pld_dp_accounting.csv" "$SHARED/pld_dp_accounting_long.csv")
else
  REFS=(tests/golden/pld_dp_accounting.csv)
fi
PY=/usr/bin/python3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

"$PY" "$HERE/make_gauss2_rows.py" 100000 >"$TMP/rows.csv"
"$PY" "$HERE/make_events.py" 10000 >"$TMP/events.csv"
# 100 orders: 1.1..5.9 by 0.1 without the integers, and the integers 2..56
ORDERS100=$("$PY" -c "print(','.join([str(1 + x / 10) for x in range(1, 50) if x % 10] + [str(a) for a in range(2, 57)]))")

# best_of3 LABEL CMD...: runs CMD 3 times (stdout to /dev/null), prints the fastest wall, its CPU
# time and its peak resident memory
best_of3() {
  local label=$1; shift
  local best=""
  for _ in 1 2 3; do
    local t
    t=$( { /usr/bin/time -f "%e %U %S %M" "$@" >/dev/null; } 2>&1 | tail -1)
    if [ -z "$best" ] || awk -v a="${t%% *}" -v b="${best%% *}" 'BEGIN{exit !(a<b)}'; then best=$t; fi
  done
  set -- $best
  printf '%-62s wall %6.2f s   cpu %6.2f s   peak %5.0f MiB\n' "$label" "$1" "$(awk -v u="$2" -v s="$3" 'BEGIN{print u+s}')" "$(awk -v k="$4" 'BEGIN{print k/1024}')"
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

# PLD (issue 13): 10,000 DP-SGD steps (sigma 1.1, 256 of 60,000 a step, as Andrew et al. 2024's and Nasr et al. 2021's
# MNIST runs), 1,000 heterogeneous segments, and dp_accounting's reference rows
"$PY" "$HERE/make_events.py" 1000 >"$TMP/events1000.csv"
DPSGD=(--sigma 1.1 --q 0.004266666666666667 --steps 10000 --delta 1e-5)
best_of3 "pld, 10000 DP-SGD steps, 1 thread" "$BIN/rdp-compose" --accountant pld "${DPSGD[@]}" --threads 1
best_of3 "rdp (156 orders), the same run" "$BIN/rdp-compose" "${DPSGD[@]}" --threads 1
best_of3 "pld, 1000 heterogeneous segments, 1 thread" "$BIN/rdp-compose" --accountant pld --events "$TMP/events1000.csv" --delta 1e-5 --threads 1
best_of3 "pld, 1000 heterogeneous segments, all cores" "$BIN/rdp-compose" --accountant pld --events "$TMP/events1000.csv" --delta 1e-5
best_of3 "rdp (156 orders), 1000 heterogeneous segments, 1 thread" "$BIN/rdp-compose" --events "$TMP/events1000.csv" --delta 1e-5 --threads 1
# The mixture-of-Gaussians PLD (issue 23): gradient accumulation, 10,000 steps of 4 micro-batches
# (each Poisson at the DP-SGD rate above); the last-iterate heuristic at 10^4 and 10^5 steps (the
# whole --release final command, the all-iterates PLD above included)
best_of3 "pld, 10000 steps x 4 micro-batches (--accumulate 4), 1 thread" "$BIN/rdp-compose" --accountant pld "${DPSGD[@]}" --accumulate 4 --threads 1
LAST=(--sigma 1.1 --q 0.01 --delta 1e-5)
best_of3 "pld, 10^4 steps, all iterates alone, 1 thread" "$BIN/rdp-compose" --accountant pld "${LAST[@]}" --steps 10000 --threads 1
best_of3 "pld, 10^4 steps, --release final, 1 thread" "$BIN/rdp-compose" --accountant pld "${LAST[@]}" --steps 10000 --release final --threads 1
best_of3 "pld, 10^5 steps, all iterates alone, 1 thread" "$BIN/rdp-compose" --accountant pld "${LAST[@]}" --steps 100000 --threads 1
best_of3 "pld, 10^5 steps, --release final, 1 thread" "$BIN/rdp-compose" --accountant pld "${LAST[@]}" --steps 100000 --release final --threads 1
# Issue 26: peak memory at 10^6 steps (the long reference rows), at the default lattice and at 1e-4
for row in "2 0.001" "4 0.01"; do
  set -- $row
  best_of3 "pld, sigma $1, q $2, 10^6 steps, default lattice, 1 thread" "$BIN/rdp-compose" --accountant pld --sigma "$1" --q "$2" --steps 1000000 --delta 1e-5 --threads 1
  best_of3 "pld, sigma $1, q $2, 10^6 steps, --lattice 1e-4, 1 thread" "$BIN/rdp-compose" --accountant pld --sigma "$1" --q "$2" --steps 1000000 --delta 1e-5 --lattice 1e-4 --threads 1
done
echo
"$PY" "$HERE/pld_reference.py" "$BIN" "${REFS[@]}"
