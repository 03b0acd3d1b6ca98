#!/bin/bash
# Times the BCa bootstrap (lib/stats/bootstrap) of gauss-fit's eps_est, B replicates on
# N scores (half in, half out), on 1 and 2 threads, with the grouped (1000 groups per
# class, the default) and the delete-1 jackknife, beside scipy.stats.bootstrap's BCa of
# the same statistic on the same scores (bootstrap_scipy.py), in the same run; and the
# fit-region interval (lib/stats/gauss_fit_interval), which eps-from-scores --bootstrap
# gives gauss-fit since bench/bootstrap_coverage.md, on the same replicates.
# usage: bench/eps_from_scores/bootstrap.sh BUILD_DIR [N] [B]
# BUILD_DIR: a Release build (make); the driver bootstrap.cpp is compiled against its library
# layers here (bench/compile_driver.sh), as the library is (-O3).
set -eu
build=$(cd "$1" && pwd)
n=${2:-10000}
b=${3:-1000}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
data=$build/bench-data
mkdir -p "$data"
scores=$data/scores-$n.csv
[ -s "$scores" ] || /usr/bin/python3 "$here/make_scores.py" "$n" "$scores"
source "$root/bench/compile_driver.sh"
compile_driver "$here/bootstrap.cpp" "$data/bootstrap" "$build"

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); nproc $(nproc); n = $n scores, B = $b, delta 1e-5"
echo
echo "| run | jackknife | wall s | CPU s | eps_est | 95% BCa interval | q' of its ends | z0 | a |"
echo "|---|---|---|---|---|---|---|---|---|"
# Best of 3 runs (wall-clock and CPU seconds of bootstrap + interval, reading excluded).
ours() {
  local threads=$1 groups=$2 label=$3 best=999 cpu=999 rbest=999 rcpu=999 line
  for _ in 1 2 3; do
    line=$("$data/bootstrap" "$scores" "$b" "$threads" "$groups" 1e-5)
    read -r nin nout est lo hi z0 a s c us qlo qhi rlo rhi rs rc <<<"$line"
    best=$(/usr/bin/python3 -c "print(min($best, $s))")
    cpu=$(/usr/bin/python3 -c "print(min($cpu, $c))")
    rbest=$(/usr/bin/python3 -c "print(min($rbest, $rs))")
    rcpu=$(/usr/bin/python3 -c "print(min($rcpu, $rc))")
  done
  printf '| dpaudit BCa, %s | %s | %s | %s | %.4f | [%.4f, %.4f] | %s, %s | %.3f | %.6f |\n' "$label" "$4" "$best" "$cpu" \
    "$est" "$lo" "$hi" "$qlo" "$qhi" "$z0" "$a"
  [ "$groups" = 1000 ] && printf '| dpaudit fit region, %s | none | %s | %s | %.4f | [%.4f, %.4f] | | | |\n' "$label" \
    "$rbest" "$rcpu" "$est" "$rlo" "$rhi"
  echo "$best" >"$data/bootstrap-$threads-$groups.s"
}
ours 1 1000 "1 thread" "1000 groups per class"
ours 2 1000 "2 threads" "1000 groups per class"
ours 2 1000000000 "2 threads" "delete-1"
read -r est lo hi z0 a s c < <(/usr/bin/python3 "$here/bootstrap_scipy.py" "$scores" "$b" 1e-5)
printf '| scipy.stats.bootstrap BCa, 1 thread | delete-1 | %s | %s | %.4f | [%.4f, %.4f] | | %.3f | %.6f |\n' "$s" "$c" \
  "$est" "$lo" "$hi" "$z0" "$a"
one=$(cat "$data/bootstrap-1-1000.s") two=$(cat "$data/bootstrap-2-1000.s") del=$(cat "$data/bootstrap-2-1000000000.s")
echo
/usr/bin/python3 -c "print(f'2 threads vs 1: {$one / $two:.2f}x; scipy vs dpaudit on 2 threads: {$s / $two:.0f}x (grouped), {$s / $del:.0f}x (both delete-1)')"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
