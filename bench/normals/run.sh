#!/bin/bash
# Nanoseconds per normal number and per Philox word, one thread, CPU time, best of REPS
# rounds, for each instruction set this CPU has (bench/normals.md has the figures).
# Usage: [BASELINE=DIR] bench/normals/run.sh [BUILD_DIR] [REPS]
#   BUILD_DIR: a Release build with lib/libdpaudit_random.a (default build)
#   BASELINE:  another checkout with its Release build in DIR/build (e.g. a git worktree of
#              an earlier commit): its best instruction set is timed too, the two programs
#              taking turns three times, so that both see the same load
set -euo pipefail
build=${1:-build} reps=${2:-10}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
compile() {  # compile SOURCE_ROOT LIBRARY OUTPUT [FLAGS]
  [ -f "$2" ] || { echo "run.sh: $2 not found: build its dpaudit_random target" >&2; exit 2; }
  ${CXX:-g++} -O2 -std=c++17 ${4:-} -I"$1/lib" "$here/normal_rate.cpp" "$2" -o "$3"
}
compile "$root" "$build/lib/libdpaudit_random.a" "$tmp/current"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -z "${BASELINE:-}" ]; then
  "$tmp/current" "$reps"
  exit 0
fi
compile "$BASELINE" "$BASELINE/build/lib/libdpaudit_random.a" "$tmp/baseline" -DBASELINE_API
for turn in 1 2 3; do
  echo "== current ($(git -C "$root" rev-parse --short HEAD)), turn $turn"
  "$tmp/current" "$reps"
  echo "== baseline ($(git -C "$BASELINE" rev-parse --short HEAD)), turn $turn"
  "$tmp/baseline" "$reps"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
