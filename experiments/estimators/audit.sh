#!/bin/bash
# Every estimator of eps-from-scores on one scores CSV (label 1 = inserted canary, 0 =
# never inserted; score = cosine with the model (delta); a dim column), as one JSON line:
#   audit.sh SCORES.csv DELTA ANALYTIC_EPS NAME > row.json
# Seen against unseen canaries: threshold, clopper-pearson, jeffreys (Bonferroni over the
# distinct scores), gauss-fit (Andrew et al. 2024, Alg. 3) with its 95% bootstrap interval, one-run,
# one-run-fdp (Gaussian curve), gdp, and the attack metrics; against the exact cosine null
# (in cosines only): jeffreys (Andrew et al. 2024's eps_lo-final, Bonferroni) and gauss-fit (Andrew et al. Alg. 2,
# eps_est) with its interval. 95% everywhere; B = 1000, seed 1, 2 threads; wall seconds each.
set -euo pipefail
scores=$1 delta=$2 analytic=$3 name=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() {  # run KEY ARGS...: eps-from-scores --json ARGS > $tmp/KEY.json, its wall time in $tmp/KEY.s
  local key=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  eps-from-scores "$scores" --json -q "$@" >"$tmp/$key.json"
  t1=$(date +%s.%N)
  echo "$t0 $t1" >"$tmp/$key.s"
}
boot=(--bootstrap 1000 --seed 1 --threads 2)
run threshold -m threshold
run clopper_pearson -m clopper-pearson --delta "$delta"
run jeffreys -m jeffreys --delta "$delta"
run gauss_fit -m gauss-fit --delta "$delta" "${boot[@]}"
run one_run -m one-run --delta "$delta"
run one_run_fdp -m one-run-fdp --delta "$delta"
run gdp -m gdp --delta "$delta"
# Against the cosine null only where the scores are cosines (a dim column); Nasr et al. 2021's game
# scores (losses, watermark statistics) have no null.
if head -1 "$scores" | tr ',' '\n' | grep -qx dim; then
  run null_jeffreys --null exact -m jeffreys --delta "$delta"
  run null_gauss_fit --null exact -m gauss-fit --delta "$delta" "${boot[@]}"
fi
"${PYTHON:-/usr/bin/python3}" - "$tmp" "$name" "$delta" "$analytic" <<'PY'
import json, os, sys
tmp, name, delta, analytic = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
row = {"name": name, "delta": delta, "analytic": analytic}
for f in sorted(os.listdir(tmp)):
    if f.endswith(".json"):
        key = f[:-5]
        row[key] = json.load(open(os.path.join(tmp, f)))
        t0, t1 = map(float, open(os.path.join(tmp, key + ".s")).read().split())
        row[key]["wall_seconds"] = round(t1 - t0, 3)
print(json.dumps(row, sort_keys=True))
PY
