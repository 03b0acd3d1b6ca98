#!/bin/bash
# dp-train sum, one thread: CPU time per canary coordinate (user + sys of the whole process,
# divided by k x d) and peak RSS per dimension, at d = 10^6 with k = 1,000 canaries (the
# Table 2 pipe's size, release on a pipe), d = 10^7 (k = 10) and d = 10^8 (k = 3), and a
# one-coordinate release (what loading the program costs). Best of REPS runs each (the
# largest RSS); with BEFORE, that dp-train takes turns with this one, run for run.
# Usage: [BEFORE=OLD/bin/dp-train] [BASELINE=COMMIT] bench/sum/run.sh [BUILD_DIR] [REPS]
#   BUILD_DIR: a Release build with bin/dp-train and bin/canary-gen (default build)
#   BASELINE:  an earlier commit: its lib/mechanisms/gaussian_sum.{hpp,cpp} are compiled
#              into bench/sum/sum_rate.cpp beside this build's library and timed in the same
#              process (no start-up, no output) with this build's two paths (one pass, the
#              terms kept; two passes), at d = 10^6, 2^21 (the largest one pass on one
#              thread) and 10^7, and the releases compared bit for bit
set -euo pipefail
build=${1:-build} reps=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
now=$build/bin/dp-train
[ -x "$now" ] || { echo "run.sh: $now not found" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(git -C "$root" rev-parse --short HEAD); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"

# run DP_TRAIN DIM K: "cpu_seconds peak_kb" of one run, release to a pipe
run() {
  local spec=$tmp/c$3-$2.json
  [ -f "$spec" ] || "$build/bin/canary-gen" --count "$3" --dim "$2" --seed 7 >"$spec"
  /usr/bin/time -f "%U %S %M" -o "$tmp/time" "$1" sum --dim "$2" --canaries "$spec" \
    --noise 0.541 --seed 1 --threads 1 -q -o - | cat >/dev/null
  awk '{ printf "%.3f %d\n", $1 + $2, $3 }' "$tmp/time"
}

printf '| d | k | dp-train | CPU s | ns per canary coordinate | peak RSS | bytes per dimension |\n'
printf '|---|---|---|---|---|---|---|\n'
for dk in "1 1" "1000000 1000" "10000000 10" "100000000 3"; do
  read -r d k <<<"$dk"
  declare -A cpu=() rss=()
  for ((r = 0; r < reps; r++)); do
    for which in ${BEFORE:+before} now; do
      bin=$now
      [ "$which" = before ] && bin=$BEFORE
      read -r c m < <(run "$bin" "$d" "$k")
      if [ -z "${cpu[$which]:-}" ] || awk "BEGIN { exit !($c < ${cpu[$which]}) }"; then cpu[$which]=$c; fi
      if [ -z "${rss[$which]:-}" ] || [ "$m" -gt "${rss[$which]}" ]; then rss[$which]=$m; fi
    done
  done
  for which in ${BEFORE:+before} now; do
    awk -v d="$d" -v k="$k" -v w="$which" -v c="${cpu[$which]}" -v m="${rss[$which]}" 'BEGIN {
      if (d == 1) { printf "| 1 (start-up) | 1 | %s | %.2f | - | %.0f MiB | - |\n", w, c, m / 1024; exit }
      printf "| %d | %d | %s | %.2f | %.2f | %.0f MiB | %.1f |\n", d, k, w, c, c * 1e9 / (d * k), m / 1024, m * 1024 / d }'
  done
  unset cpu rss
done

if [ -n "${BASELINE:-}" ]; then
  lib=$build/lib
  mkdir -p "$tmp/inc/mechanisms"
  for f in hpp cpp; do
    git -C "$root" show "$BASELINE:lib/mechanisms/gaussian_sum.$f" >"$tmp/inc/mechanisms/gaussian_sum.$f"
  done
  cxx=${CXX:-g++}
  $cxx -O3 -DNDEBUG -std=c++17 -I"$tmp/inc" -I"$root/lib" -DFixedPointSum=BaselineFixedPointSum \
    -Dgaussian_sum_release=baseline_gaussian_sum_release \
    -c "$tmp/inc/mechanisms/gaussian_sum.cpp" -o "$tmp/baseline.o"
  $cxx -O2 -std=c++17 -I"$root/lib" -DBASELINE "$here/sum_rate.cpp" "$tmp/baseline.o" \
    "$lib/libdpaudit_mechanisms.a" "$lib/libdpaudit_canary.a" "$lib/libdpaudit_io.a" \
    "$lib/libdpaudit_random.a" "$lib/libdpaudit_core.a" -lhwy_contrib -lhwy -lfmt -lz -pthread \
    -o "$tmp/sum_rate"
  echo
  echo "In one process (gaussian_sum_release alone), against $BASELINE's:"
  "$tmp/sum_rate" 1000000 100 "$reps"
  "$tmp/sum_rate" 2097152 50 "$reps"
  "$tmp/sum_rate" 10000000 10 "$reps"
fi
