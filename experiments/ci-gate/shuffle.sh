#!/usr/bin/env bash
# experiments/ci-gate.mk's shuffle table: where the gates catch a trainer that shuffles its
# lots (fixed-size batches, each record once an epoch) while its accountant assumes Poisson
# sampling (dp-train sgd --fault shuffle-as-poisson), on the malicious-dataset game: simulated
# (GATE_SHUFFLE_ENGINE=simulate, the default) or trained (train: DP-SGD on the synthetic task).
# For each noise z, B = 1/q batches an epoch and E epochs (T = E B steps):
#   lower / poisson: rdp-compose --sampling shuffle's certified lower bound on the shuffled
#     mechanism's eps beside the Poisson upper bound the faulty pipeline reports (delta 1e-5);
#   the curve gate (eps-from-scores --against-curve, the Poisson PLD's trade-off curve) on the
#     faulty trainer's scores, D3's llr and Chua et al. 2024's epoch-max statistic, at each
#     trial count: 3 caught, 0 passed;
#   the correct shuffled and balls-in-bins trainers (--sampling shuffle, balls-in-bins) against
#     the curve of their own accounting (no amplification: E Gaussian mechanisms), the largest
#     trial count, epoch-max.
# usage: GATE_SHUFFLE_CELLS="z:B:E ..." GATE_SHUFFLE_TRIALS="1000 10000" \
#        GATE_SHUFFLE_ENGINE=simulate|train shuffle.sh
set -uo pipefail
cells=${GATE_SHUFFLE_CELLS:-"0.3:10:1 0.3:100:1 0.3:10:10 0.4:10:1 0.4:100:1 0.5:100:1 0.8:100:1"}
trials=${GATE_SHUFFLE_TRIALS:-"1000 10000"}
engine=${GATE_SHUFFLE_ENGINE:-simulate}
case $engine in
  simulate) engine_args=(--engine simulate) what="simulated malicious-dataset game" ;;
  train) engine_args=(--engine train --task synthetic --threads 2) what="trained malicious-dataset game (DP-SGD on the synthetic task)" ;;
  *) echo "shuffle.sh: GATE_SHUFFLE_ENGINE must be simulate or train, not '$engine'" >&2; exit 2 ;;
esac
last=${trials##* }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
json() { "${PYTHON:-/usr/bin/python3}" -c "import json,sys; print('%.3g' % json.load(sys.stdin)$1)"; }
echo "Shuffle-as-poisson at delta 1e-5, $what (train size 1000)."
echo "Cells: lower bound on the shuffled mechanism / the Poisson bound it is reported with; then"
echo "the curve gate against the Poisson curve (3 caught, 0 passed) per score and trial count;"
echo "last, the correct shuffled and balls-in-bins trainers against their own curve ($last trials,"
echo "epoch-max)."
echo
printf '| z | B | E | lower / poisson |'
for n in $trials; do printf ' llr %s | epoch-max %s |' "$n" "$n"; done
echo ' correct shuffled trainer | correct balls-in-bins trainer |'
printf '|---|---|---|---|'
for n in $trials; do printf -- '---|---|'; done
echo '---|---|'
for cell in $cells; do
  IFS=: read -r z b e <<<"$cell"
  q=$("${PYTHON:-/usr/bin/python3}" -c "print(repr(1 / $b))")
  steps=$((b * e))
  shuffle=$(rdp-compose --sampling shuffle --sigma "$z" --epochs "$e" --batches "$b" --delta 1e-5 --json)
  lower=$(json "['eps_lower']" <<<"$shuffle")
  poisson=$(rdp-compose --accountant pld --sigma "$z" --q "$q" --steps "$steps" --delta 1e-5)
  rdp-compose --accountant pld --sigma "$z" --q "$q" --steps "$steps" --tradeoff "$tmp/poisson.csv"
  rdp-compose --accountant pld --sigma "$z" --q 1 --steps "$e" --tradeoff "$tmp/own.csv"
  printf '| %s | %s | %s | %s / %.3g |' "$z" "$b" "$e" "$lower" "$poisson"
  game=(dp-train sgd --threat malicious-dataset "${engine_args[@]}" --noise-multiplier "$z" --steps "$steps" --quiet)
  for n in $trials; do
    for score in llr epoch-max; do
      "${game[@]}" --q "$q" --fault shuffle-as-poisson --score "$score" --trials "$n" -o "$tmp/s.csv"
      eps-from-scores "$tmp/s.csv" --against-curve "$tmp/poisson.csv" --fail-on-refute >/dev/null 2>&1
      printf ' %s |' "$?"
    done
  done
  for sampling in shuffle balls-in-bins; do
    "${game[@]}" --sampling "$sampling" --batch $((1000 / b)) --score epoch-max --trials "$last" -o "$tmp/s.csv"
    eps-from-scores "$tmp/s.csv" --against-curve "$tmp/own.csv" --fail-on-refute >/dev/null 2>&1
    printf ' %s |' "$?"
  done
  echo
done
