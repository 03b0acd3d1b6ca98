#!/bin/bash
# dp-train fedavg's canary observation (the cosines of 1,000 seen + 1,000 unseen canaries at
# D = 101,770 with one vector) in f64 and f32 against one streaming read of a buffer of the
# matrix's size, threads 1 and 2, best of REPS (bench/fedavg.md has the figures).
# Usage: bench/fedavg/observe.sh [BUILD_DIR] [REPS]    (a Release build with lib/libdpaudit_*.a)
set -euo pipefail
build=${1:-build} reps=${2:-10}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$root/bench/compile_driver.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
compile_driver "$here/observe.cpp" "$tmp/observe" "$build"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(git -C "$root" rev-parse --short HEAD); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$tmp/observe" "$reps"
