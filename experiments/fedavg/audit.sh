#!/usr/bin/env bash
# audit.sh RUN_DIR: the one-shot audit of a `dp-train fedavg` run (003 Alg. 2-3).
# Prints one JSON object: the run's analytic epsilon (eps_run: the whole run), eps_est/eps_lo on the final
# model (seen canaries vs the exact cosine null of 003 Thm 3.1) and on all iterates
# (max-over-rounds cosines of seen vs unseen canaries), test accuracy, dim and delta.
# eps_est: Gaussian fit (003 Sec. 3.2); eps_lo: Jeffreys 95% bound, Bonferroni over
# thresholds (eps-from-scores defaults), at the run's delta.
set -euo pipefail
RUN=$1
PYTHON=${PYTHON:-/usr/bin/python3}
field() { "$PYTHON" -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval('d' + sys.argv[2]))" "$RUN/run.json" "$1"; }
dim=$(field "['dim']")
delta=$(field "['delta']")
est_final=$(eps-from-scores -q "$RUN/scores_final.csv" --null-dim "$dim" --method gauss-fit --delta "$delta")
lo_final=$(eps-from-scores -q "$RUN/scores_final.csv" --null-dim "$dim" --method jeffreys --delta "$delta")
est_all=$(eps-from-scores -q "$RUN/scores_all.csv" --method gauss-fit --delta "$delta")
lo_all=$(eps-from-scores -q "$RUN/scores_all.csv" --method jeffreys --delta "$delta")
"$PYTHON" - "$RUN/run.json" "$est_final" "$lo_final" "$est_all" "$lo_all" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
est_final, lo_final, est_all, lo_all = sys.argv[2:6]
print(json.dumps({
    "noise_multiplier": run["config"]["noise_multiplier"],
    "canary_repeats": run["config"]["canary_repeats"],
    "analytic_eps": run["analytic_epsilon"]["eps_run"],
    "eps_est_final": est_final, "eps_lo_final": lo_final,
    "eps_est_all": est_all, "eps_lo_all": lo_all,
    "test_accuracy": run["test_accuracy"], "dim": run["dim"], "delta": run["delta"],
    "wall_seconds": run["wall_seconds"]}))
PY
