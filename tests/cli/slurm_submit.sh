#!/bin/bash
# experiments/slurm/submit and scripts/slurm-cluster refuse bad usage with one line and exit 2,
# before asking Slurm anything (the recipe itself runs on a real Slurm: make test-cluster).
source "$SRC/tests/cli/lib.bash"
submit=$SRC/experiments/slurm/submit
expect_error 2 "^submit: no target \(usage: " "$submit"
expect_error 2 "^submit: no target \(usage: " "$submit" --wait
expect_error 2 "^submit: unknown option --array \(usage: .*\)$" "$submit" --array 0-3 sgd
expect_error 2 "^submit: --jobs needs a folder$" "$submit" --jobs
expect_error 2 "^submit: 'SGD_SHARDS' is not a make variable VAR=VALUE$" "$submit" sgd SGD_SHARDS
expect_error 2 "^usage: scripts/slurm-cluster start\|stop\|status\|env$" "$SRC/scripts/slurm-cluster"
expect_error 2 "^usage: scripts/slurm-cluster start\|stop\|status\|env$" "$SRC/scripts/slurm-cluster" restart
finish
