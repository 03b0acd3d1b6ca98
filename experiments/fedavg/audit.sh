#!/usr/bin/env bash
# audit.sh RUN_DIR: the one-shot audit of a `dp-train fedavg` run (Andrew et al. 2024, Alg. 2-3).
# Prints one JSON object: the run's analytic epsilon (eps_run: the whole run), the last-iterate
# heuristic a final-model audit reads against (Steinke et al. 2025; a target, not a bound), eps_est/eps_lo on the final
# model (seen canaries vs the exact cosine null of Andrew et al. 2024, Thm 3.1) and on all iterates
# (max-over-rounds cosines of seen vs unseen canaries), test accuracy, dim and delta.
# eps_est: Gaussian fit (Andrew et al. 2024, Sec. 3.2); eps_lo: Jeffreys 95% bound, Bonferroni over
# thresholds (eps-from-scores defaults), at the run's delta; eps_lo_*_max: Andrew et al. 2024's eps_lo, a
# 95% Jeffreys bound on each estimated error rate at the best threshold without a
# correction for choosing it (--thresholds uncorrected).
# eps_one_round: the Gaussian mechanism of one participation (a canary inserted once; eps_run is the
# whole run, every client and canary at its most participations).
# fit_final_seen, null_std, fit_all_seen, fit_all_unseen: the Gaussians gauss-fit fitted (mean, std).
# anderson_final: the Anderson-Darling statistic of the final-model seen cosines (Andrew et al. 2024, App. B).
set -euo pipefail
RUN=$1
PYTHON=${PYTHON:-/usr/bin/python3}
field() { "$PYTHON" -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval('d' + sys.argv[2]))" "$RUN/run.json" "$1"; }
dim=$(field "['dim']")
delta=$(field "['delta']")
final=(-q "$RUN/scores_final.csv" --null-dim "$dim" --delta "$delta")
eps-from-scores "${final[@]}" --method gauss-fit --json >"$RUN/fit_final.json"
lo_final=$(eps-from-scores "${final[@]}" --method jeffreys)
lo_final_max=$(eps-from-scores "${final[@]}" --method jeffreys --thresholds uncorrected)
all=(-q "$RUN/scores_all.csv" --delta "$delta")
if [ "$(field "['unseen_canaries']")" -gt 0 ]; then
  eps-from-scores "${all[@]}" --method gauss-fit --json >"$RUN/fit_all.json"
  est_all=$("$PYTHON" -c "import json,sys; print(json.load(open(sys.argv[1]))['epsilon'])" "$RUN/fit_all.json")
  lo_all=$(eps-from-scores "${all[@]}" --method jeffreys)
  lo_all_max=$(eps-from-scores "${all[@]}" --method jeffreys --thresholds uncorrected)
else
  echo '{}' >"$RUN/fit_all.json"
  est_all=nan lo_all=nan lo_all_max=nan  # no unseen canaries: no all-iterates audit (Andrew et al. 2024, Alg. 3)
fi
"$PYTHON" - "$RUN/run.json" "$RUN/fit_final.json" "$RUN/fit_all.json" "$lo_final" "$lo_final_max" "$est_all" "$lo_all" "$lo_all_max" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
fit = json.load(open(sys.argv[2]))
fit_all = json.load(open(sys.argv[3]))
lo_final, lo_final_max, est_all, lo_all, lo_all_max = sys.argv[4:9]
nan = float("nan")
print(json.dumps({
    "noise_multiplier": run["config"]["noise_multiplier"],
    "canary_repeats": run["config"]["canary_repeats"],
    "adaptive_clip": run["config"].get("adaptive_clip", False),
    "seed": run["config"]["seed"],
    "analytic_eps": run["analytic_epsilon"]["eps_run"],
    "eps_one_round": run["analytic_epsilon"]["eps_gaussian_per_round"],
    "last_iterate_eps": run["analytic_epsilon"]["eps_last_iterate_heuristic"],
    "eps_est_final": fit["epsilon"], "eps_lo_final": lo_final, "eps_lo_final_max": lo_final_max,
    "eps_est_all": est_all, "eps_lo_all": lo_all, "eps_lo_all_max": lo_all_max,
    "anderson_final": fit["summary"]["in"]["anderson_darling"], "seen": fit["n_in"],
    "final_clip": run["final_clip"],
    "fit_final_seen": fit["fit_in"], "null_std": run["dim"] ** -0.5,
    "fit_all_seen": fit_all.get("fit_in", {"mean": nan, "std": nan}),
    "fit_all_unseen": fit_all.get("fit_out", {"mean": nan, "std": nan}),
    "rounds": run["config"]["rounds"], "clients": run["config"]["clients"],
    "clients_per_round": run["config"]["clients_per_round"],
    "test_accuracy": run["test_accuracy"], "dim": run["dim"], "delta": run["delta"]}))
PY
