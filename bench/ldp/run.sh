#!/bin/bash
# Times dp-train ldp: the dummy-gradient white-box test at d = 10^5 (target: 10,000 trials
# in under 10 s) and trials per second of the model-based crafters (Matsumoto et al. 2022's CNN on
# Fashion-MNIST, d = 10,650).
# usage: bench/ldp/run.sh BUILD_DIR [MODEL_TRIALS]
set -eu
build=$1
model_trials=${2:-2000}
tool=$build/bin/dp-train
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
field() { /usr/bin/python3 -c "import json,sys; print(round(json.load(open(sys.argv[1]))[sys.argv[2]], 3))" "$tmp/out" "$1"; }

# Best of 3: whole-process wall seconds (start-up included), the trial loop's own seconds
# (dp-train's "seconds"), CPU seconds, and Eq. 3's eps.
run() {
  local label=$1; shift
  local wall=999 loop=999 cpu=999
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$tool" ldp "$@" --quiet --json >"$tmp/out"
    read -r s user sys <"$tmp/time"
    wall=$(/usr/bin/python3 -c "print(min($wall, $s))")
    cpu=$(/usr/bin/python3 -c "print(round(min($cpu, $user + $sys), 2))")
    loop=$(/usr/bin/python3 -c "print(min($loop, $(field seconds)))")
  done
  local k
  k=$(field trials)
  printf '| %-62s | %6s | %6s | %6s | %7.0f | %s |\n' "$label" "$wall" "$loop" "$cpu" \
    "$(/usr/bin/python3 -c "print($k / $loop)")" "$(field eps_empirical)"
}

echo "| command (dp-train ldp ...) | wall s | trial loop s | CPU s | trials/s | eps (Eq. 3) |"
echo "|---|---|---|---|---|---|"
for threads in 1 2; do
  run "dummy-gradient white-box d=1e5 eps=4 K=10000 threads=$threads" \
    --crafter dummy-gradient --dim 100000 --eps 4 --trials 10000 --threads $threads
done
run "dummy-gradient black-box d=1e5 eps=4 K=10000 threads=2" \
  --crafter dummy-gradient --dim 100000 --eps 4 --trials 10000 --threads 2 --distinguisher black-box
for crafter in benign input-perturbation parameter-retrogression gradient-flip collusion; do
  for d in white-box black-box; do
    run "$crafter $d cnn eps=4 K=$model_trials threads=2" \
      --crafter "$crafter" --distinguisher "$d" --eps 4 --trials "$model_trials" --threads 2
  done
done
