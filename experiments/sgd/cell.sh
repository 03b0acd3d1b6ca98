#!/usr/bin/env bash
# One cell of experiments/sgd.mk: THREAT EPS SCORES.CSV "RUN_JSON_COMMAND" -> one JSON
# line with the run's analytic eps and noise (from a --json run of a few trials), the
# number of trials, Nasr et al. 2021's Clopper-Pearson bound at the best threshold, the
# Bonferroni-corrected one, the point estimate and the AUROC (which does not depend on
# the number of trials the way the bounds do).
set -euo pipefail
threat=$1 eps=$2 scores=$3 run=$4
summary=$($run)
rows=$(($(wc -l <"$scores") - 1))
best=$(eps-from-scores "$scores" --method clopper-pearson --delta 1e-5 --thresholds max --json)
honest=$(eps-from-scores "$scores" --method clopper-pearson --delta 1e-5)
point=$(eps-from-scores "$scores" --method threshold --delta 1e-5)
"${PYTHON:-/usr/bin/python3}" - "$threat" "$eps" "$rows" "$best" "$honest" "$point" "$summary" <<'PY'
import json, sys
threat, eps, rows, best, honest, point, summary = sys.argv[1:]
s, b = json.loads(summary), json.loads(best)
print(json.dumps({"threat": threat, "eps": float(eps), "trials_per_hypothesis": int(rows) // 2,
                  "analytic_eps": s["analytic_eps"], "accountant": s["accountant"],
                  "noise_multiplier": s["noise_multiplier"], "test_accuracy": s.get("test_accuracy"),
                  "eps_lower_cp_best_threshold": float(b["epsilon"]), "eps_lower_cp": float(honest),
                  "eps_threshold": float(point), "auroc": b["summary"]["auroc"]}))
PY
