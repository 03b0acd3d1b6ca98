#!/usr/bin/env bash
# One run of Matsumoto et al. 2022's LDP test: run.sh PREFIX DP-TRAIN-LDP-OPTIONS...
# writes PREFIX.csv (decisions) and PREFIX.json (dp-train's summary plus the numbers of
# summarize.sh: Eq. 3's point estimate and its 95% Clopper-Pearson lower bound, for the rule
# and for the reversed rule).
set -euo pipefail
prefix=$1
shift
dp-train ldp "$@" --quiet -o "$prefix.csv" --json >"$prefix.summary"
"$(dirname "$0")/summarize.sh" "$prefix" "$prefix.summary" "$prefix.csv"
rm "$prefix.summary"
