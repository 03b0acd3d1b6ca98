#!/usr/bin/env bash
# needs: dp-train
# The sequential gate end to end: dp-train sgd (both engines) and ldp stream their trial rows
# to stdout as the trials finish, in trial order, the same bytes as -o FILE for any --threads;
# `eps-from-scores --sequential --fail-above E` stops at the first trial where its
# anytime-valid bound exceeds E (exit 3), and the closed pipe stops the trainer quietly
# (exit 0, nothing on its stderr). Runs asking for 10^8 trials finish in a second or two
# only because they stop: a trainer that ignored the closed pipe would run for hours and
# time the test out.
source "$SRC/tests/cli/lib.bash"
cd "$TMP"
set -o pipefail

# gate CMD...: runs `CMD | eps-from-scores --sequential ... --fail-above 2`; sets STATUS to
# both exit statuses, keeps the trainer's stderr in gate.err and the gate's in gate.out.
gate() {
  CHECKS=$((CHECKS + 1))
  "$@" 2>gate.err | eps-from-scores --sequential "${SEQ_INPUT[@]}" --fail-above 2 2>gate.out
  STATUS="${PIPESTATUS[*]}"
}

# --- the simulated malicious-dataset game (Nasr et al. 2021, Sec. IV-G) with a trainer that
# skips clipping: caught at trial 82 (a pure function of the seed: the rows and the bound's
# arithmetic are deterministic), the trainer stopped by the closed pipe.
SIM=(dp-train sgd --threat malicious-dataset --engine simulate --eps 2 --quiet)
SEQ_INPUT=(-)
gate "${SIM[@]}" --fault no-clip --trials 100000000
expect_eq "$STATUS" "0 3" "trainer and gate statuses (simulate, no-clip)"
expect_eq "$(cat gate.err)" "" "the stopped trainer's stderr"
expect_eq "$(cat gate.out)" "eps-from-scores: error: epsilon 2.02 (anytime-valid lower bound after 82 trials) exceeds the budget --fail-above 2 (stdin)" "the gate's decision"

# Streamed rows are -o's bytes, whatever the thread count.
expect_status 0 "${SIM[@]}" --trials 9000 -o whole.csv
for threads in 1 2; do
  "${SIM[@]}" --trials 9000 --threads $threads >streamed.csv
  expect_eq "$(cmp streamed.csv whole.csv && echo same)" "same" "streamed rows, --threads $threads"
done

# --- the trained game (LibTorch; a small synthetic task): the no-clip fault caught at trial
# 94 (measured when the streaming landed; the rows are a pure function of the seed, whatever
# the threads, so the trial is too), over two threads that take trials as they finish; `head` reads three rows of a run of
# 10^6 trials and the trainer stops, so the rows come as the trials finish.
TRAIN=(dp-train sgd --task synthetic --train-size 200 --steps 20 --threat malicious-dataset
  --eps 2 --quiet)
gate "${TRAIN[@]}" --fault no-clip --trials 1000000 --threads 2
expect_eq "$STATUS" "0 3" "trainer and gate statuses (train, no-clip)"
expect_eq "$(cat gate.err)" "" "the stopped trainer's stderr (train)"
expect_eq "$(grep -o 'after [0-9]* trials' gate.out)" "after 94 trials" "the trained game's decision"
CHECKS=$((CHECKS + 1))
"${TRAIN[@]}" --trials 1000000 | head -3 >head.csv
expect_eq "${PIPESTATUS[*]}" "0 0" "a reader of three rows stops the trainer"
expect_status 0 "${TRAIN[@]}" --trials 6 -o six.csv
expect_eq "$(head -3 six.csv)" "$(cat head.csv)" "the first rows, streamed and whole"
"${TRAIN[@]}" --trials 6 --threads 2 >six-streamed.csv
expect_eq "$(cmp six-streamed.csv six.csv && echo same)" "same" "trained rows streamed over 2 threads"

# --- dp-train ldp (Matsumoto et al. 2022): the correct eps-4 mechanism exceeds a budget of 2,
# caught at trial 112 (measured likewise; deterministic for the seed).
SEQ_INPUT=(--decisions -)
gate dp-train ldp --crafter dummy-gradient --eps 4 --trials 10000000 --threads 2 --quiet
expect_eq "$STATUS" "0 3" "trainer and gate statuses (ldp)"
expect_eq "$(cat gate.err)" "" "the stopped trainer's stderr (ldp)"
expect_eq "$(grep -o 'after [0-9]* trials' gate.out)" "after 112 trials" "the LDP game's decision"
expect_status 0 dp-train ldp --crafter dummy-gradient --eps 4 --trials 300 --quiet -o ldp.csv
dp-train ldp --crafter dummy-gradient --eps 4 --trials 300 --threads 2 --quiet >ldp-streamed.csv
expect_eq "$(cmp ldp-streamed.csv ldp.csv && echo same)" "same" "ldp rows streamed over 2 threads"

# --- a write error that is not a closed pipe is an error: exit 1, one line
expect_error 1 "^dp-train: error: cannot write to stdout$" \
  sh -c 'dp-train sgd --threat malicious-dataset --engine simulate --eps 2 --trials 10000 >/dev/full'

finish
