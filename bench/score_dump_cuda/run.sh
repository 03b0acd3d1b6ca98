#!/bin/bash
# score-dump's GPU scorer against two CPU cores (bench/score_dump_cuda.md): K canaries of
# dimension D scored on the GPU, 10 of them on THREADS CPU threads, the 10 scores compared bit
# for bit. Exits 77 (make bench: skipped) in a build without CUDA or where no GPU answers.
# Usage: bench/score_dump_cuda/run.sh [BUILD_DIR] [D] [K] [THREADS]
set -euo pipefail
build=${1:-build} dim=${2:-100000000} k=${3:-1000} threads=${4:-2}
here=$(cd "$(dirname "$0")" && pwd)
cudart=$(sed -n 's/^CUDA_cudart_static_LIBRARY:FILEPATH=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
if [ -z "$cudart" ] || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "score_dump_cuda: needs a build with CUDA and a CUDA GPU: skipped"
  exit 77
fi
source "$here/../compile_driver.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
compile_driver "$here/rate.cpp" "$tmp/rate" "$build"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(nvidia-smi --query-gpu=name --format=csv,noheader); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$tmp/rate" "$dim" "$k" 10 "$threads"
