#!/bin/bash
# Nanoseconds per normal number and per Philox word, one thread, CPU time, best of REPS
# rounds, for each instruction set this CPU has (bench/normals.md has the figures).
# Usage: [BASELINE=DIR] bench/normals/run.sh [BUILD_DIR] [REPS]
#   BUILD_DIR: a Release build with lib/libdpaudit_random.a (default build)
#   BASELINE:  an earlier checkout (e.g. a git worktree of commit 2f51381 or later):
#              its philox.cpp and ziggurat.cpp are compiled into the same program, in a
#              namespace of their own, and timed in the same rounds (its best set)
set -euo pipefail
build=${1:-build} reps=${2:-100}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
lib="$build/lib/libdpaudit_random.a"
[ -f "$lib" ] || { echo "run.sh: $lib not found: build the dpaudit_random target" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cxx=${CXX:-g++}
extra=()
if [ -n "${BASELINE:-}" ]; then
  for f in philox ziggurat; do
    $cxx -O3 -std=c++17 -I"$BASELINE/lib" -Ddpaudit=dpaudit_baseline \
      -c "$BASELINE/lib/random/$f.cpp" -o "$tmp/baseline_$f.o"
    extra+=("$tmp/baseline_$f.o")
  done
  extra+=(-DBASELINE)
fi
$cxx -O2 -std=c++17 -I"$root/lib" "$here/normal_rate.cpp" "$lib" "${extra[@]}" -o "$tmp/normal_rate"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(git -C "$root" rev-parse --short HEAD)${BASELINE:+ against $(git -C "$BASELINE" rev-parse --short HEAD)}; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$tmp/normal_rate" "$reps"
