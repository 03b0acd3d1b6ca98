#!/usr/bin/env bash
# experiments/ci-gate.mk's tables: for each fault and trial count, the exit status of two
# gates on the same scores:
#   eps gate:   the measured eps (Clopper-Pearson, Bonferroni over thresholds, delta 1e-5)
#               against the analytic eps (--fail-above);
#   curve gate: the scores against the trade-off curve the PLD accountant certifies for the
#               run's noise, rate and steps (rdp-compose --tradeoff; eps-from-scores
#               --against-curve --fail-on-refute: no shape assumed).
set -uo pipefail
run=(dp-train sgd --threat malicious-dataset --engine simulate --clip "$GATE_CLIP" --eps "$GATE_EPS" --quiet)
config=$("${run[@]}" --trials 1 --json)
field() { "${PYTHON:-/usr/bin/python3}" -c "import json,sys; print(repr(json.load(sys.stdin)['$1']))" <<<"$config"; }
analytic=$(field analytic_eps)
tmp=$(mktemp)
curve=$(mktemp)
trap 'rm -f "$tmp" "$curve"' EXIT
# The run's own noise multiplier, rate and steps (Poisson lots), as dp-train accounts them.
rdp-compose --accountant pld --sigma "$(field noise_multiplier)" --q "$(field q)" --steps "$(field steps)" \
  --tradeoff "$curve" || exit 1
# gate FILE: prints "EXIT (EPS) / EXIT (MARGIN)" of the two gates.
gate() {
  local eps status margin refute
  eps=$(eps-from-scores "$1" --method clopper-pearson --delta 1e-5)
  eps-from-scores "$1" --method clopper-pearson --delta 1e-5 --fail-above "$analytic" >/dev/null 2>&1
  status=$?
  margin=$(eps-from-scores "$1" --against-curve "$curve" --report | awk '$1 == "margin" { print $2 }')
  eps-from-scores "$1" --against-curve "$curve" --fail-on-refute >/dev/null 2>&1
  refute=$?
  printf '%s (%.2f) / %s (%+.3f)' "$status" "$eps" "$refute" "$margin"
}
echo "Eps gate: fail above the analytic eps $analytic (delta 1e-5; noise calibrated for eps $GATE_EPS, clip $GATE_CLIP)."
echo "Curve gate: fail when the scores refute the PLD's trade-off curve of the run (95%, Bonferroni over thresholds)."
echo "Each cell: eps gate's exit status (0 pass, 3 caught) and measured eps / curve gate's exit status and"
echo "margin (f(FPR_hi) - FNR_hi of the best rule; > 0 refutes)."
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
# The same gates on trained models (lr 0, 1,000 crafted inputs), where it is affordable.
for fault in none no-clip; do
  printf '| %s (trained) |' "$fault"
  for n in $GATE_TRIALS; do
    if [ "$n" -gt 300 ]; then printf ' |'; continue; fi
    dp-train sgd --threat malicious-dataset --clip "$GATE_CLIP" --eps "$GATE_EPS" --quiet --trials "$n" --fault "$fault" >"$tmp"
    printf ' %s |' "$(gate "$tmp")"
  done
  echo
done
