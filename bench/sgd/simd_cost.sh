#!/usr/bin/env bash
# bench/sgd/simd_cost.sh [HIDDEN] [LOT] [REPS]: the per-example clipped sum of dp-train sgd
# (dense_per_example.cpp) built as dp-train builds it (-O3, baseline x86-64: SSE2) and with
# AVX2 + FMA (-march=x86-64-v3), one thread, same inputs; prints ms per lot for each.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for flags in "" "-march=x86-64-v3"; do
  g++ -std=c++17 -O3 -DNDEBUG $flags -I/usr/include/eigen3 -I"$ROOT/lib" \
    "$HERE/simd_cost.cpp" "$ROOT/lib/train/dense_per_example.cpp" -o "$OUT/simd_cost"
  printf '%-18s ' "${flags:-baseline (SSE2)}"
  "$OUT/simd_cost" "${1:-128}" "${2:-256}" "${3:-200}"
done
