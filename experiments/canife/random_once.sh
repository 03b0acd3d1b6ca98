#!/usr/bin/env bash
# experiments/canife.mk's canife-sec54 target, second table: Andrew et al. 2024's random canaries on
# R1's training, each seen canary inserted in exactly one round (--canary-repeats 1), one row per
# seed. OUT "SEEDS" -> markdown on stdout. Columns: eps_est-final (Gaussian fit of the seen cosines
# with the final model delta against the exact cosine null, Alg. 2), eps_est-all (Gaussian fits of
# the max-over-rounds cosines of the seen and of the unseen canaries, Alg. 3: the paper's 1,000
# unseen canaries imply this one), the Jeffreys bound on the same max-over-rounds cosines, the
# spreads of the two fits, and (not Alg. 3, a what-if) the eps of the same two means with one
# spread, the seen canaries': the Gaussian mechanism at mu = (mean_in - mean_out) / sd_in.
set -euo pipefail
out=$1 seeds=$2
echo "| seed | eps_est-final (Alg. 2) | eps_est-all (Alg. 3, Gaussian fits) | Jeffreys 95% bound, all rounds | sd of the seen / unseen maxima | what-if: one spread | test accuracy |"
echo "|---|---|---|---|---|---|---|"
for s in $seeds; do
  d=$out/random1_$s
  final=$(eps-from-scores -q "$d/scores_final.csv" --null-dim 101770 --method gauss-fit --delta 1e-5)
  fit=$(eps-from-scores -q "$d/scores_all.csv" --method gauss-fit --delta 1e-5 --json)
  all=$(jq .epsilon <<<"$fit")
  sds=$(printf '%.4f / %.4f' $(jq -r '.fit_in.std, .fit_out.std' <<<"$fit"))
  one=$(rdp-compose --accountant gdp --q 1 --steps 1 --delta 1e-5 \
    --sigma "$(jq '.fit_in.std / (.fit_in.mean - .fit_out.mean)' <<<"$fit")")
  jeff=$(eps-from-scores -q "$d/scores_all.csv" --method jeffreys --delta 1e-5)
  acc=$(jq .test_accuracy "$d/run.json")
  printf '| %s | %.2f | %.1f | %.2f | %s | %.1f | %.3f |\n' "$s" "$final" "$all" "$jeff" "$sds" "$one" "$acc"
done
