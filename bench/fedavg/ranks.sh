#!/usr/bin/env bash
# bench/fedavg/ranks.sh BIN [ROUNDS] [RANKS...]: dp-train fedavg over 1, 2 and 4 local ranks
# (--ranks, LibTorch's c10d with Gloo over loopback) beside the single-process path, at the
# demo's size (100 clients a round) and at a 10x larger cohort (1,000 a round), one thread per
# rank. Prints seconds per round (rank 0's --timings: the rounds only, not start-up), rounds/s
# and the payload bytes per round through rank 0, and checks that every --out is
# byte-identical to the single-process one. COHORTS="100" runs the demo size only.
set -euo pipefail
BIN=${1:?usage: ranks.sh BIN [ROUNDS] [RANKS...]}
ROUNDS=${2:-3}
shift $(($# < 2 ? $# : 2))
RANKS=${*:-1 2 4}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
printf "%-8s %-6s %10s %9s %16s %s\n" cohort ranks s/round rounds/s bytes/round same-bytes
for cohort in ${COHORTS:-100 1000}; do
  run=("$BIN/dp-train" fedavg --model mlp --clients 3000 --clients-per-round "$cohort" --rounds "$ROUNDS"
    --local-epochs 2 --num-canaries 1000 --num-unseen 1000 --noise-multiplier 0.5 --eval-every 1000
    --seed 1 --threads 1 --quiet)
  "${run[@]}" --out "$OUT/single-$cohort" --timings "$OUT/single-$cohort.json"
  python3 -c "import json,sys; t=json.load(open(sys.argv[1])); s=t['seconds_per_round']; print(f'{sys.argv[2]:<8} {\"single\":<6} {s:10.3f} {1/s:9.3f} {0:16d} -')" \
    "$OUT/single-$cohort.json" "$cohort"
  for n in $RANKS; do
    "${run[@]}" --ranks "$n" --out "$OUT/r$n-$cohort" --timings "$OUT/r$n-$cohort.json"
    same=yes
    diff -r "$OUT/single-$cohort" "$OUT/r$n-$cohort" >/dev/null || same=NO
    python3 -c "import json,sys; t=json.load(open(sys.argv[1])); s=t['seconds_per_round']; print(f'{sys.argv[2]:<8} {sys.argv[3]:<6} {s:10.3f} {1/s:9.3f} {t.get(\"bytes_per_round\", 0):16.0f} {sys.argv[4]}')" \
      "$OUT/r$n-$cohort.json" "$cohort" "$n" "$same"
  done
done
