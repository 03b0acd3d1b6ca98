#!/usr/bin/env bash
# experiments/ci-gate.mk's table: for each fault and trial count, the gate's exit status
# and the measured eps (Clopper-Pearson, Bonferroni over thresholds, delta 1e-5).
set -uo pipefail
run=(dp-train sgd --threat malicious-dataset --engine simulate --clip "$GATE_CLIP" --eps "$GATE_EPS" --quiet)
analytic=$("${run[@]}" --trials 1 --json | "${PYTHON:-/usr/bin/python3}" -c "import json,sys; print(json.load(sys.stdin)['analytic_eps'])")
# gate FILE: prints "exit EPS" of eps-from-scores --fail-above the analytic eps.
gate() {
  local eps status
  eps=$(eps-from-scores "$1" --method clopper-pearson --delta 1e-5)
  eps-from-scores "$1" --method clopper-pearson --delta 1e-5 --fail-above "$analytic" >/dev/null 2>&1
  status=$?
  printf '%s (%.2f)' "$status" "$eps"
}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
echo "Gate: fail above the analytic eps $analytic (delta 1e-5; noise calibrated for eps $GATE_EPS, clip $GATE_CLIP)."
echo "Each cell: exit status of eps-from-scores --fail-above (0 pass, 3 caught) and the measured eps."
echo
printf '| fault |'; for n in $GATE_TRIALS; do printf ' %s trials |' "$n"; done; echo
printf '|---|'; for n in $GATE_TRIALS; do printf -- '---|'; done; echo
for fault in $GATE_FAULTS; do
  printf '| %s (simulated) |' "$fault"
  for n in $GATE_TRIALS; do
    "${run[@]}" --trials "$n" --fault "$fault" >"$tmp"
    printf ' %s |' "$(gate "$tmp")"
  done
  echo
done
# The same gate on trained models (lr 0, 1,000 crafted inputs), where it is affordable.
for fault in none no-clip; do
  printf '| %s (trained) |' "$fault"
  for n in $GATE_TRIALS; do
    if [ "$n" -gt 300 ]; then printf ' |'; continue; fi
    dp-train sgd --threat malicious-dataset --clip "$GATE_CLIP" --eps "$GATE_EPS" --quiet --trials "$n" --fault "$fault" >"$tmp"
    printf ' %s |' "$(gate "$tmp")"
  done
  echo
done
