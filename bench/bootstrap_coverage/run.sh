#!/bin/bash
# The coverage of eps-from-scores --bootstrap's interval of gauss-fit's eps_est
# (bench/bootstrap_coverage.md): the six two-Gaussian cells N(0,1) out vs N(mu,1) in, mu
# 1, 2, 3, n = 10^3 and 10^4 scores per class, delta 1e-5, 95%, B replicates, RUNS seeded
# audits each, for the old BCa interval and the fit-region interval on the same scores;
# then the fit-region interval alone where the spreads differ (in ~ N(2, 1.1^2): the
# regular case). Two cells at a time (make -j2's share of the machine).
# usage: bench/bootstrap_coverage/run.sh BUILD_DIR [RUNS] [B]
# BUILD_DIR: a Release build (make); the driver coverage.cpp is compiled against its library
# layers here (bench/compile_driver.sh).
set -eu
build=$(cd "$1" && pwd)
runs=${2:-500}
b=${3:-1000}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
data=$build/bench-data
mkdir -p "$data"
source "$root/bench/compile_driver.sh"
compile_driver "$here/coverage.cpp" "$data/coverage" "$build"

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); nproc $(nproc); $runs runs per cell, B = $b, delta 1e-5"
cells=()
for n in 1000 10000; do for mu in 1 2 3; do cells+=("both $mu $n $runs $b 1"); done; done
for n in 1000 10000; do cells+=("region 2 $n $runs $b 1.1"); done
printf '%s\n' "${cells[@]}" | xargs -P 2 -L 1 "$data/coverage" >"$data/coverage.txt"
echo
echo "| interval | mu | sd in | n per class | runs | true eps | coverage | lower end above truth | upper end below truth | mean eps_est / truth | mean replicate / truth | an end at the outermost replicates | CPU s per interval |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
sort -k1,1 -k4,4n -k3,3n -k2,2n "$data/coverage.txt" |
  awk '{printf "| %s | %s | %s | %s | %s | %.4f | %.1f%% | %.1f%% | %.1f%% | %.3f | %.3f | %.1f%% | %.3f |\n",
        ($1 == "bca" ? "BCa (before)" : "fit region"), $2, $3, $4, $5, $6, 100*$7, 100*$8, 100*$9, $10, $11, 100*$12, $13}'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
