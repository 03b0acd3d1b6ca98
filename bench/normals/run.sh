#!/bin/bash
# Nanoseconds per normal number and per Philox word, one thread, CPU time, best of REPS
# rounds, for each instruction set this CPU has (bench/normals.md has the figures).
# Usage: bench/normals/run.sh [BUILD_DIR] [REPS]
#   BUILD_DIR: a Release build with lib/libdpaudit_random.a (default build)
set -euo pipefail
build=${1:-build} reps=${2:-10}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
lib="$build/lib/libdpaudit_random.a"
[ -f "$lib" ] || { echo "run.sh: $lib not found: cmake --build $build --target dpaudit_random" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CXX:-g++} -O2 -std=c++17 -I"$root/lib" "$here/normal_rate.cpp" "$lib" -o "$tmp/normal_rate"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$tmp/normal_rate" "$reps"
