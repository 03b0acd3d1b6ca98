#!/usr/bin/env bash
# The numbers of one run of Matsumoto et al. 2022's LDP test from its decisions:
#   summarize.sh PREFIX SUMMARY.json DECISIONS.csv...
# writes PREFIX.json: dp-train ldp's --json SUMMARY plus eps_eq3, the point estimate of
# Matsumoto et al. 2022, Eq. 3, and eps_cp95, the 95% Clopper-Pearson lower bound, both from
# eps-from-scores --decisions; eps_eq3_reversed and eps_cp95_reversed: the same for the
# opposite rule, every guess negated, i.e. the complement rejection region that Matsumoto et
# al. 2022, Thm. 1 also quantifies over. Several DECISIONS files are the shards of one run
# (dp-train ldp --trial-range): eps-from-scores checks and merges them, and the summary's
# counts and rates (SUMMARY is one shard's) are recomputed over all of them.
set -euo pipefail
prefix=$1 summary=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
eq3=$(eps-from-scores --decisions "$@" --method threshold)
cp95=$(eps-from-scores --decisions "$@" --method clopper-pearson)
# The reversed rule: column 2 (guess) negated, the other columns (a shard's stamp) kept.
reversed=()
for f in "$@"; do
  reversed+=("$tmp/$(basename "$f")")
  awk -F, -v OFS=, 'NR == 1 { print; next } { $2 = 1 - $2; print }' "$f" >"${reversed[-1]}"
done
eq3_reversed=$(eps-from-scores --decisions "${reversed[@]}" --method threshold)
cp95_reversed=$(eps-from-scores --decisions "${reversed[@]}" --method clopper-pearson)
"${PYTHON:-/usr/bin/python3}" - "$summary" "$eq3" "$cp95" "$eq3_reversed" "$cp95_reversed" "$@" >"$prefix.json.tmp" <<'PY'
import csv, json, sys
run = json.load(open(sys.argv[1]))
run["eps_eq3"], run["eps_cp95"], run["eps_eq3_reversed"], run["eps_cp95_reversed"] = sys.argv[2:6]
shards = sys.argv[6:]
if len(shards) > 1:  # one shard's summary: the whole run's counts and rates instead
    rows = [r for path in shards for r in csv.DictReader(open(path))]
    count = {(l, g): sum(r["label"] == l and r["guess"] == g for r in rows) for l in "01" for g in "01"}
    g1, g2 = count["1", "0"] + count["1", "1"], count["0", "0"] + count["0", "1"]
    run.update(g1_trials=g1, g2_trials=g2, correct=count["0", "0"] + count["1", "1"],
               false_positive_rate=count["0", "1"] / g2 if g2 else 0,
               false_negative_rate=count["1", "0"] / g1 if g1 else 0)
    for key in ("trial_range", "eps_empirical", "seconds", "trials_per_second"):
        run.pop(key, None)  # the shard's, or its own timing
print(json.dumps(run, sort_keys=True))
PY
mv "$prefix.json.tmp" "$prefix.json"
