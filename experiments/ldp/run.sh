#!/usr/bin/env bash
# One run of Matsumoto et al. 2022's LDP test: run.sh PREFIX DP-TRAIN-LDP-OPTIONS...
# writes PREFIX.csv (decisions) and PREFIX.json (dp-train's summary plus eps_eq3, the
# point estimate of Matsumoto et al. 2022, Eq. 3, and eps_cp95, the 95% Clopper-Pearson lower bound, both
# from eps-from-scores --decisions; eps_eq3_reversed and eps_cp95_reversed: the same for
# the opposite rule, every guess negated, i.e. the complement rejection region that
# Matsumoto et al. 2022, Thm. 1 also quantifies over).
set -euo pipefail
prefix=$1
shift
dp-train ldp "$@" --quiet -o "$prefix.csv" --json >"$prefix.summary"
eq3=$(eps-from-scores --decisions "$prefix.csv" --method threshold)
cp95=$(eps-from-scores --decisions "$prefix.csv" --method clopper-pearson)
reversed() { awk -F, 'NR == 1 { print; next } { print $1 "," 1 - $2 }' "$prefix.csv"; }
eq3_reversed=$(reversed | eps-from-scores --decisions - --method threshold)
cp95_reversed=$(reversed | eps-from-scores --decisions - --method clopper-pearson)
"${PYTHON:-/usr/bin/python3}" - "$prefix.summary" "$eq3" "$cp95" "$eq3_reversed" "$cp95_reversed" >"$prefix.json.tmp" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
run["eps_eq3"], run["eps_cp95"], run["eps_eq3_reversed"], run["eps_cp95_reversed"] = sys.argv[2:6]
print(json.dumps(run, sort_keys=True))
PY
rm "$prefix.summary"
mv "$prefix.json.tmp" "$prefix.json"
