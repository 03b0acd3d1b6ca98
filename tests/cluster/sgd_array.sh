#!/bin/bash
# make test-cluster: the Slurm job array recipe of experiments/slurm/ on a real Slurm, a
# one-node cluster started on this machine (scripts/slurm-cluster; its own folder and ports,
# so a cluster the user runs is left alone). A small sharded sgd audit (api and the trained
# malicious dataset at eps 4, 40 trials per hypothesis in 3 shards each, 200 images, 12
# steps; the simulated cell at 2,000 trials) submitted with `sbatch --array` and a dependent
# merge must equal `make -j2`'s files byte for byte; a shard that fails cancels the merge.
# Needs: root or the calling user able to run munged and slurmd; BIN, SRC, PYTHON as the CLI tests.
source "$SRC/tests/cli/lib.bash"
export SLURM_CLUSTER_DIR=$TMP/cluster SLURM_CLUSTER_PORT=${SLURM_CLUSTER_PORT:-16837}
trap '"$SRC/scripts/slurm-cluster" stop; rm -rf "$TMP"' EXIT
eval "$("$SRC/scripts/slurm-cluster" env)"

expect_status 0 "$SRC/scripts/slurm-cluster" start
[ "$CHECKS" -eq "$((FAILS + 1))" ] || { cat "$TMP/err" "$SLURM_CLUSTER_DIR"/*.log >&2; finish; exit 1; }
expect_eq "$(sinfo --noheader --format=%T)" idle "node state after start"
expect_status 0 "$SRC/scripts/slurm-cluster" start # a no-op on a running cluster
expect_eq "$(cat "$TMP/out" "$TMP/err")" "" "output of a second start"

small=(BIN="$BIN" PYTHON="$PYTHON" SGD_THREATS="api malicious-dataset" SGD_EPS=4 SGD_TRIALS=40
  SGD_SHARDS=3 SGD_SIM_TRIALS=2000 SGD_OPTIONS="--train-size 200 --q 0.1 --steps 12 --delta 1e-5")
expect_status 0 make -s -C "$SRC/experiments" -j2 sgd OUT="$TMP/make" "${small[@]}"
expect_status 0 "$SRC/experiments/slurm/submit" --wait --jobs "$TMP/jobs" sgd OUT="$TMP/slurm" "${small[@]}"
expect_eq "$(wc -l <"$TMP/jobs/shards.txt")" 6 "shards submitted (2 threats x 3 shards)"
logs=("$TMP"/jobs/shard-*_*.out)
expect_eq "${#logs[@]}" 6 "array task logs"
expect_eq "$(grep -c '' "$TMP/slurm/sgd/cells/api_4.csv")" 81 "rows of the merged api cell (header, 2 x 40)"
expect_status 0 diff -r "$TMP/make/sgd" "$TMP/slurm/sgd"
expect_eq "$(cat "$TMP/out")" "" "difference between make -j2 and the job array"
grep -q '^| 4 ' "$TMP/slurm/sgd/fig1.md" || fail "fig1.md has no eps 4 row"

# Everything made: a resubmission submits no array, only the merge, which finds nothing to do.
expect_status 0 "$SRC/experiments/slurm/submit" --wait --jobs "$TMP/again" sgd OUT="$TMP/slurm" "${small[@]}"
expect_eq "$(wc -l <"$TMP/again/shards.txt")" 0 "shards submitted again"

# A shard that fails (--steps 0 is refused) cancels the dependent merge: submit --wait fails.
expect_status 1 "$SRC/experiments/slurm/submit" --wait --jobs "$TMP/bad" sgd OUT="$TMP/bad-out" \
  "${small[@]}" SGD_THREATS=api SGD_OPTIONS="--train-size 200 --q 0.1 --steps 0 --delta 1e-5"
[ -e "$TMP/bad-out/sgd/fig1.md" ] && fail "a merge ran after a failed shard"

expect_status 0 "$SRC/scripts/slurm-cluster" stop
for p in slurmd slurmctld munge/munged; do
  [ -e "$SLURM_CLUSTER_DIR/$p.pid" ] && fail "$p.pid left after stop"
done
expect_status 1 "$SRC/scripts/slurm-cluster" status
finish
