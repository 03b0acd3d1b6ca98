#!/usr/bin/env bash
# needs: dp-train
# dp-train fedavg (and canife at user level) over several ranks (LibTorch's c10d with Gloo,
# train/torch/rank_group.hpp): the same bytes for 1, 2 and 3 ranks and any --threads, and the
# faults: a killed rank, a rank
# that never joins, a port in use, an unreachable master, a world-size mismatch, a malformed
# environment. Each fails with exit 1 (2 for the environment), one line naming the rank, and no
# output folder. Tiny runs (logreg on the synthetic task, D = 650), short --timeout.
source "$SRC/tests/cli/lib.bash"
cd "$TMP"

BASE=(fedavg --task synthetic --model logreg --clients 60 --clients-per-round 10 --eval-every 3
  --num-canaries 6 --num-unseen 6 --noise-multiplier 0.5 --adaptive-clip --quiet)
RUN=("${BASE[@]}" --rounds 6)
free_port() { "$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# no_output DIR: neither DIR nor a staging folder beside it
no_output() {
  CHECKS=$((CHECKS + 1))
  [ -z "$(ls -d "$1" "$1".partial-* 2>/dev/null)" ] || fail "$1 (or its staging folder) left behind"
}

# --- the same bytes: one process, 2 ranks, 3 ranks with 2 threads each
expect_status 0 dp-train "${RUN[@]}" --out one
expect_status 0 dp-train "${RUN[@]}" --out two --ranks 2
[ -s "$TMP/err" ] && fail "2 ranks: stderr not empty with --quiet: $(cat "$TMP/err")"
expect_status 0 dp-train "${RUN[@]}" --out three --ranks 3 --threads 2
for d in two three; do
  CHECKS=$((CHECKS + 1))
  diff -r one "$d" >/dev/null || fail "--out of $d ranks differs from one process"
done
# run.json counts the canaries' insertions the same way whoever trained the clients.
expect_eq "$(ls one | tr '\n' ' ')" \
  "canaries.json delta.npy final_model.npy metrics.csv run.json scores_all.csv scores_final.csv unseen.json " \
  "files of a run"
# dp-train canife at user level runs the same round: the same DIR and eps_hat on 2 ranks.
CANIFE=(canife --level user --task synthetic --hidden 16 --clients 60 --clients-per-round 10 --rounds 6
  --audit-every 3 --audit-rounds 10 --design-pool 20 --design-steps 5 --noise-multiplier 1 --quiet)
expect_status 0 dp-train "${CANIFE[@]}" --out canife1
eps1=$(cat "$TMP/out")
expect_status 0 dp-train "${CANIFE[@]}" --out canife2 --ranks 2
expect_eq "$(cat "$TMP/out")" "$eps1" "canife eps_hat printed once, the same on 2 ranks"
CHECKS=$((CHECKS + 1))
diff -r canife1 canife2 >/dev/null || fail "canife --out of 2 ranks differs from one process"
expect_error 2 "the sample level runs in one process" \
  env RANK=0 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 dp-train canife --level sample --noise-multiplier 1 --out sample
no_output sample
# torchrun's variables by hand: two processes, one port.
port=$(free_port)
RANK=1 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port dp-train "${RUN[@]}" --out never 2>rank1.err &
worker=$!
expect_status 0 env RANK=0 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port dp-train "${RUN[@]}" --out env2
wait $worker || fail "rank 1 by hand: exit $? ($(cat rank1.err))"
CHECKS=$((CHECKS + 1))
diff -r one env2 >/dev/null || fail "--out of 2 environment-launched ranks differs from one process"
no_output never  # ranks > 0 write nothing

# --- a killed rank: rank R of 3 gets SIGKILL during a long run; rank 0 names it (or the
# launcher does, when it died before joining or was rank 0), the others are stopped, no output
# (a killed rank 0 cannot remove its staging folder: the launcher does).
kill_rank() {
  local rank=$1 out=$2 launcher victim=
  dp-train "${BASE[@]}" --rounds 100000 --out "$out" --ranks 3 --timeout 5 >/dev/null 2>"$out.err" &
  launcher=$!
  for _ in $(seq 100); do
    for p in $(pgrep -P $launcher); do
      tr '\0' '\n' </proc/$p/environ 2>/dev/null | grep -qx "RANK=$rank" && victim=$p
    done
    [ -n "$victim" ] && break
    sleep 0.1
  done
  sleep 1
  kill -9 "$victim"
  wait $launcher
  expect_eq "$?" 1 "exit status with rank $rank killed"
  expect_eq "$(wc -l <"$out.err")" 1 "one stderr line for a killed rank ($(cat "$out.err"))"
  grep -Eq "^dp-train: error: rank $rank (was killed by signal 9|left the run)" "$out.err" ||
    fail "killed rank $rank not named: $(cat "$out.err")"
  no_output "$out"
  CHECKS=$((CHECKS + 1))
  [ -z "$(pgrep -P $launcher)" ] || fail "ranks outlive a failed run"
}
kill_rank 1 killed1
kill_rank 0 killed0

# --- a rank that never joins: rank 0 of 2 alone
port=$(free_port)
expect_error 1 "^dp-train: error: rank 1 did not join within 1 s \(a world of 2 ranks at 127.0.0.1:$port\)$" \
  env RANK=0 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port dp-train "${RUN[@]}" --out missing --timeout 1
no_output missing

# --- the master's port in use
"$PYTHON" -c 'import socket,sys,time; s=socket.socket(); s.bind(("0.0.0.0",0)); s.listen(); print(s.getsockname()[1], flush=True); time.sleep(30)' >held &
holder=$!
for _ in $(seq 50); do [ -s held ] && break; sleep 0.1; done
port=$(cat held)
expect_error 1 "^dp-train: error: rank 0 cannot listen on port $port: the port is in use \(MASTER_PORT\)$" \
  env RANK=0 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port dp-train "${RUN[@]}" --out inuse --timeout 1
no_output inuse
# A world of one is one process and opens no socket, so the port in use does not matter
# (Slurm array tasks on one node all have SLURM_PROCID=0, SLURM_NTASKS=1).
expect_status 0 env SLURM_PROCID=0 SLURM_NTASKS=1 SLURM_JOB_NODELIST=localhost MASTER_PORT=$port \
  dp-train "${RUN[@]}" --out world1
CHECKS=$((CHECKS + 1))
diff -r one world1 >/dev/null || fail "--out of a world of one differs from one process"
kill $holder

# --- an unreachable master: rank 1 with nobody listening
port=$(free_port)
expect_error 1 "^dp-train: error: rank 1 cannot reach the master 127.0.0.1:$port within 1 s" \
  env RANK=1 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port dp-train "${RUN[@]}" --out unreachable --timeout 1
no_output unreachable

# --- a world-size mismatch: rank 1 thinks there are 3
port=$(free_port)
RANK=1 WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port dp-train "${RUN[@]}" --out mismatch --timeout 5 2>mismatch1.err &
worker=$!
expect_error 1 "^dp-train: error: world size mismatch: rank 1 was started with 3 ranks, rank 0 with 2$" \
  env RANK=0 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port dp-train "${RUN[@]}" --out mismatch --timeout 5
wait $worker
expect_eq "$?" 1 "rank 1's exit status with a world-size mismatch"
grep -q "world size mismatch" mismatch1.err || fail "rank 1 does not say world size mismatch: $(cat mismatch1.err)"
no_output mismatch

# --- a malformed environment: a usage error before any work
expect_error 2 "^dp-train: error: RANK=x is not an integer in \[0, 2147483646\] \(environment\)$" \
  env RANK=x WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 dp-train "${RUN[@]}" --out malformed
no_output malformed

finish
