#!/usr/bin/env bash
# needs: dp-train
# Issue 9's reliability contract, on the real tools: -o never replaces a symlink, a
# device or a FIFO; an NPY header cannot make a reader allocate what the input does not
# hold, nor hide data beyond it; a canary spec beyond the limits is refused naming the
# file and the key; SIGINT/SIGTERM leave no partial output and still end the run by the
# signal (exit 130/143); dp-train fedavg never merges into an existing --out.
source "$SRC/tests/cli/lib.bash"
cd "$TMP"

SPEC='{"kind":"sphere","seed":7,"count":2,"dim":100,"first_index":0}'
json_rounds() { "$PYTHON" -c "import json,sys; print(json.load(open(sys.argv[1]))['config']['rounds'])" "$1"; }
GEN=(canary-gen --count 2 --dim 100 --seed 7)
"${GEN[@]}" >c.json
"$PYTHON" - <<'PY'
import struct
import numpy as np
np.save("model.npy", np.arange(100.0) / 100)
def npy(shape, values):  # an f8 NPY v1.0 whose header says `shape`, whatever the body holds
    d = "{'descr': '<f8', 'fortran_order': False, 'shape': %s, }" % (shape,)
    d += " " * ((64 - (10 + len(d) + 1) % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(d)) + d.encode() + np.asarray(values, "<f8").tobytes()
open("claim.npy", "wb").write(npy((2000000000,), np.arange(100.0)))
open("long.npy", "wb").write(npy((50,), np.arange(100.0)))
open("deltas-long.npy", "wb").write(npy((2, 100), np.ones(300)))
with open("scores.csv", "w") as f:
    f.write("label,score\n" + "".join(f"1,{1 + i / 50}\n0,{i / 50}\n" for i in range(50)))
open("v2.npy", "wb").write(b"\x93NUMPY\x02\x00" + struct.pack("<I", 1700000000) + b"{'descr'")
PY

# ---- -o through a symlink: the link stays a link, its final target gets the bytes --
# through_link NAME CMD...: CMD -o link-NAME, where link-NAME -> real/NAME holds an old
# file, writes what CMD -o - prints, and leaves nothing else in real/.
mkdir real
through_link() {
  local name=$1; shift
  "$@" -o - >"want-$name" 2>/dev/null || fail "$* -o - failed"
  printf 'old\n' >"real/$name"
  ln -s "real/$name" "link-$name"
  expect_status 0 "$@" -o "link-$name"
  [ -L "link-$name" ] || fail "$1 -o replaced the symlink link-$name"
  cmp -s "real/$name" "want-$name" || fail "$1 -o link-$name: the target does not hold the output"
  [ "$(ls -A real | grep -c "$name")" -eq 1 ] || fail "$1: a temporary file was left beside real/$name"
}
through_link spec.json "${GEN[@]}"
expect_eq "$(cat real/spec.json)" "$SPEC" "spec written through a link"
through_link scores.csv score-dump --canaries c.json --model model.npy
through_link eps.txt eps-from-scores scores.csv --method gauss-fit --delta 1e-5
through_link sum.npy dp-train sum --dim 100 --canaries c.json --noise 1 --seed 1
through_link decisions.csv dp-train ldp --crafter dummy-gradient --dim 11 --eps 1 --trials 20 --quiet
# A dangling link: the file it names is created, the link kept.
ln -s real/new.json dangling.json
expect_status 0 "${GEN[@]}" -o dangling.json
[ -L dangling.json ] || fail "dangling link replaced"
expect_eq "$(cat real/new.json)" "$SPEC" "spec created through a dangling link"

# ---- devices, FIFOs, /dev/stdout: written directly, never replaced --------------------
expect_error 1 '^canary-gen: error: disk full \(/dev/full\)$' "${GEN[@]}" -o /dev/full
expect_error 1 '^score-dump: error: disk full \(/dev/full\)$' score-dump --canaries c.json --model model.npy -o /dev/full
expect_error 1 '^dp-train: error: disk full \(/dev/full\)$' dp-train sum --dim 100 --noise 1 -o /dev/full
[ -c /dev/full ] || fail "/dev/full is no longer a character device"
# stdout on /dev/full: --json output lost was exit 0 for dp-train fedavg and ldp.
expect_error 1 '^dp-train: error: cannot write to stdout$' bash -c \
  'dp-train fedavg --task synthetic --model logreg --clients 50 --clients-per-round 10 --rounds 1 --quiet --out json-run --json >/dev/full'
expect_error 1 '^dp-train: error: cannot write to stdout$' bash -c \
  'dp-train ldp --crafter dummy-gradient --dim 11 --eps 1 --trials 20 --quiet --json >/dev/full'
# ... and for dp-train sgd (--json and the CSV) and canife (eps_hat and --json).
SGD_SIM=(dp-train sgd --threat malicious-dataset --engine simulate --eps 2 --trials 20 --quiet)
for out in "" --json; do
  expect_error 1 '^dp-train: error: cannot write to stdout$' bash -c "${SGD_SIM[*]} $out >/dev/full"
  expect_error 1 '^dp-train: error: cannot write to stdout$' bash -c \
    "dp-train canife --task synthetic --q 0.05 --rounds 4 --audit-every 2 --design-steps 2 --design-pool 8 --audit-rounds 4 \
     --noise-multiplier 1 --quiet --out canife-full$out $out >/dev/full"
done
# A file-size limit (EFBIG, as a full disk) fails the run and leaves no output folder; the
# message names the file inside --out (not the staging folder DIR.partial-PID).
expect_error 1 '^dp-train: error: cannot write output: file too large \(fsize/final_model\.npy\)$' bash -c \
  'trap "" XFSZ; ulimit -f 4; exec dp-train fedavg --task synthetic --model logreg --clients 50 --clients-per-round 10 --rounds 1 --quiet --num-canaries 3 --out fsize'
expect_error 1 '^dp-train: error: cannot write output: file too large \(fsize-canife/scores\.csv\)$' bash -c \
  'trap "" XFSZ; ulimit -f 4; exec dp-train canife --task synthetic --q 0.05 --rounds 6 --audit-every 2 --design-steps 2 --design-pool 8 --noise-multiplier 1 --quiet --out fsize-canife/'
! compgen -G "fsize*" >/dev/null || fail "a failed write left $(compgen -G "fsize*")"
# An allocation failure is one line naming the options its size grows with (LibTorch's
# allocator printed its message and a 24-line C++ stack trace); under a 1.5 GB address
# space a 4M-unit hidden layer (1 GB of parameters) cannot be allocated.
expect_error 1 '^dp-train: error: out of memory: its size grows with the model \(--model, --hidden\), the canaries' bash -c \
  'ulimit -v 1500000; exec dp-train fedavg --task synthetic --model mlp --hidden 4000000 --clients 20 --clients-per-round 5 --rounds 1 --quiet --out oom'
expect_error 1 '^dp-train: error: out of memory: its size grows with the model \(--model, --hidden\), --train-size' bash -c \
  'ulimit -v 1500000; exec dp-train sgd --task synthetic --hidden 1048576 --train-size 200 --steps 2 --eps 1 --threads 1 --quiet'
[ -e oom ] && fail "an allocation failure left oom/"
mkfifo pipe
cat pipe >from-pipe &
expect_status 0 "${GEN[@]}" -o pipe
wait $!
expect_eq "$(cat from-pipe)" "$SPEC" "content through a FIFO"
[ -p pipe ] || fail "the FIFO was replaced"
CHECKS=$((CHECKS + 1))
printf 'first\n' >log
"${GEN[@]}" -o /dev/stdout >>log || fail "-o /dev/stdout >> log failed"
expect_eq "$(cat log)" "first
$SPEC" "-o /dev/stdout appends to what stdout is open on"
expect_eq "$("${GEN[@]}" -o /dev/stdout | cat)" "$SPEC" "-o /dev/stdout into a pipe"
mkdir outdir
expect_error 1 '^canary-gen: error: is a directory, not an output file \(outdir\)$' "${GEN[@]}" -o outdir

# ---- NPY sizes: checked before allocating, data beyond the header is an error -------
expect_error 1 '^score-dump: error: NPY data truncated: header says 2000000000 values, file holds 100 \(claim.npy\)$' \
  score-dump --canaries c.json --model claim.npy
# From stdin the size is unknown: memory grows with what arrives (1 GiB of address
# space is plenty for 100 values, and far from the 16 GB claimed).
expect_error 1 '^score-dump: error: NPY data truncated: header says 2000000000 values, stdin holds 100 \(stdin\)$' \
  bash -c 'ulimit -v 1048576; exec score-dump --canaries c.json --model - <claim.npy'
expect_error 1 '^score-dump: error: NPY data too long: header says 50 values, file holds 100 \(long.npy\)$' \
  score-dump --canaries c.json --model long.npy
expect_error 1 '^score-dump: error: NPY data too long: header says 50 values, stdin holds more \(stdin\)$' \
  bash -c 'exec score-dump --canaries c.json --model - <long.npy'
expect_error 1 '^score-dump: error: NPY data too long: header says 200 values, file holds 300 \(deltas-long.npy\)$' \
  score-dump --canaries c.json --deltas deltas-long.npy
expect_error 1 '^score-dump: error: NPY data too long: header says 200 values, stdin holds more \(stdin\)$' \
  bash -c 'exec score-dump --canaries c.json --deltas - <deltas-long.npy'
expect_error 1 '^score-dump: error: NPY header length 1700000000 is over the limit of 10000 bytes \(v2.npy\)$' \
  score-dump --canaries c.json --model v2.npy

# ---- canary specs: limits refused before work, every error names file and key ------
echo '{"kind":"sphere","seed":1,"count":1000000000000,"dim":100}' >count.json
echo '{"kind":"sphere","seed":1,"count":3,"dim":1e400}' >dim.json
expect_error 1 '^score-dump: error: canary count 1000000000000 is too large \(at most 2\^32\) \(count.json, field count\)$' \
  score-dump --canaries count.json --model model.npy
expect_error 1 '^dp-train: error: canary count 1000000000000 is too large \(at most 2\^32\) \(count.json, field count\)$' \
  dp-train sum --dim 100 --canaries count.json --noise 1 -o sum.npy
expect_error 1 '^score-dump: error: number out of range \(dim.json, field dim\)$' score-dump --canaries dim.json --model model.npy
# clip^2 overflowed: every cosine was 0 with exit 0.
echo '{"kind":"dummy","count":2,"dim":100,"clip":1e308}' >clip.json
expect_error 1 "^score-dump: error: clip 1e\\+308 is too large \\(at most 1e154: the canary's squared norm would overflow\\) \\(clip.json, field clip\\)$" \
  score-dump --canaries clip.json --model model.npy
expect_error 1 '^canary-gen: error: count 1048576 x dim 1099511627776 is too many entries to regenerate \(at most 2\^50\) \(spec, fields count and dim\)$' \
  canary-gen --count 1048576 --dim 1099511627776
[ -e sum.npy ] && fail "dp-train sum wrote sum.npy after an error"

# ---- the scores record their dimension: eps-from-scores checks --null-dim against it --
canary-gen --count 20 --dim 100 --seed 3 >seen20.json
canary-gen --count 20 --dim 100 --seed 3 --first-index 20 >unseen20.json
score-dump --canaries seen20.json --unseen unseen20.json --model model.npy -o dim.csv
expect_eq "$(sed -n '1p;2p' dim.csv | cut -d, -f4 | tr '\n' ' ')" "dim 100 " "score-dump's dim column"
expect_error 1 "^eps-from-scores: error: the scores were computed in dimension 100, not --null-dim 1000 \(dim.csv, row 2, column 'dim'\)$" \
  eps-from-scores dim.csv --null-dim 1000 --delta 1e-5
expect_status 0 eps-from-scores dim.csv --null-dim 100 --delta 1e-5 -q
want=$(cat "$TMP/out")
expect_status 0 eps-from-scores dim.csv --null exact --delta 1e-5 -q
expect_eq "$(cat "$TMP/out")" "$want" "--null without --null-dim takes D from the dim column"
expect_error 2 '^eps-from-scores: error: --null needs --null-dim: the scores have no dim column$' \
  bash -c 'cut -d, -f1-3 dim.csv | eps-from-scores --null exact --delta 1e-5'
expect_status 0 bash -c 'cut -d, -f1-3 dim.csv | eps-from-scores --null-dim 100 --delta 1e-5 -q'
expect_eq "$(cat "$TMP/out")" "$want" "a scores CSV without dim still takes --null-dim"
sed '3s/,100$/,101/' dim.csv >dim-mixed.csv
expect_error 1 "^eps-from-scores: error: dim 101 differs from the dim 100 of the rows above \(dim-mixed.csv, row 3, column 'dim'\)$" \
  eps-from-scores dim-mixed.csv --method threshold
sed '2s/,100$/,2.5/' dim.csv >dim-frac.csv
expect_error 1 "^eps-from-scores: error: dim 2.5 is not a whole number >= 1 \(dim-frac.csv, row 2, column 'dim'\)$" \
  eps-from-scores dim-frac.csv --method threshold
sed 's/,100$/,1/' dim.csv >dim-one.csv
expect_error 1 '^eps-from-scores: error: the cosine null needs a dimension >= 2, the scores. dim is 1 \(dim-one.csv\)$' \
  eps-from-scores dim-one.csv --null exact --delta 1e-5 -q

# ---- smaller contract breaks (items 11-13) -------------------------------------------
# inf is an epsilon: --fail-above inf never fails, even on an infinite estimate.
expect_status 0 eps-from-scores dim-one.csv --method threshold --fail-above inf
expect_eq "$(cat "$TMP/out")" inf "a separable audit under --fail-above inf"
expect_error 3 '^eps-from-scores: error: epsilon inf exceeds the budget --fail-above 1e\+300 \(dim-one.csv\)$' \
  eps-from-scores dim-one.csv --method threshold --fail-above 1e300
expect_error 2 "^eps-from-scores: error: --fail-above: 'infinity' is not a number >= 0 or inf$" \
  eps-from-scores dim.csv --fail-above infinity
# A 10 MB field is quoted as 77 characters and an ellipsis.
"$PYTHON" -c "print('label,score'); print('1,' + '7' * 10000000 + 'x')" >huge.csv
expect_error 1 "^eps-from-scores: error: '7{77}\.\.\.' is not a finite number \(huge.csv, row 2, column 'score'\)$" \
  eps-from-scores huge.csv
"$PYTHON" -c 'import json; print(json.dumps({"kind": "k" * 1000000, "count": 1, "dim": 100}))' >kind.json
expect_error 1 "^score-dump: error: unknown canary kind 'k{77}\.\.\.' \(sphere or dummy\) \(kind.json, field kind\)$" \
  score-dump --canaries kind.json --model model.npy
# --threads: one validator everywhere, 0 is all cores (dp-train fedavg refused 0).
FED1=(dp-train fedavg --task synthetic --model logreg --clients 50 --clients-per-round 10 --rounds 2 --num-canaries 5 --quiet)
expect_status 0 "${FED1[@]}" --threads 1 --out threads-1
expect_status 0 "${FED1[@]}" --threads 0 --out threads-0
cmp -s threads-1/scores_all.csv threads-0/scores_all.csv || fail "fedavg --threads 0 changed the scores"
expect_error 2 '^dp-train: error: --threads: value 1025 is not a thread count in \[0, 1024\] \(0: all cores\)$' \
  "${FED1[@]}" --threads 1025 --out threads-big

# ---- canary-gen --npy streams rows: 320 MB to stdout in 300 MB of address space (the
# whole matrix, held twice, needed 700), the same bytes as -o FILE --------------------
BIG=(canary-gen --count 40 --dim 1000000 --seed 1 --npy)
"${BIG[@]}" -o big.npy || fail "canary-gen --npy -o big.npy failed"
expect_status 0 bash -c 'ulimit -v 300000; set -o pipefail; "$@" | md5sum' _ "${BIG[@]}"
expect_eq "$(cut -c1-32 "$TMP/out")" "$(md5sum <big.npy | cut -c1-32)" "streamed NPY = the file"
rm -f big.npy
# Every check before the first byte: nothing on stdout when f4 cannot hold the first row.
expect_error 1 '^canary-gen: error: value 5e\+153 at index 0 does not fit in f4 \(use f8\) \(stdout\)$' \
  canary-gen --kind dummy --dim 4 --clip 1e154 --npy --dtype f4
expect_error 1 '^canary-gen: error: cannot write to stdout$' bash -c 'canary-gen --count 3 --dim 10 --npy >/dev/full'
expect_error 2 '^score-dump: error: --canaries and --model cannot both be - \(stdin\)$' \
  bash -c 'score-dump --canaries - --model - <model.npy'
# The same canaries as seen and unseen: a note, unless -q.
expect_status 0 score-dump --canaries c.json --unseen c.json --model model.npy
expect_eq "$(cat "$TMP/err")" "score-dump: note: --canaries and --unseen share canaries: those are scored as both inserted and not" \
  "note for a shared spec"
expect_status 0 score-dump --canaries c.json --unseen c.json --model model.npy -q
expect_eq "$(cat "$TMP/err")" "" "-q silences the note"
canary-gen --count 3 --dim 650 --seed 1 >c650.json
expect_status 0 dp-train fedavg --task synthetic --model logreg --clients 50 --clients-per-round 10 --rounds 1 \
  --canaries c650.json --unseen c650.json --out shared-run
expect_eq "$(cat "$TMP/err")" "dp-train: note: --canaries and --unseen share canaries: those are scored as both inserted and not" \
  "fedavg's note for a shared spec"
# --clip and --flip shape dummy canaries only; with sphere they were silently ignored.
expect_error 2 '^canary-gen: error: --clip cannot be used with --kind sphere$' canary-gen --dim 10 --clip 2
expect_error 2 '^canary-gen: error: --flip cannot be used with --kind sphere$' canary-gen --dim 10 --flip --npy

# ---- signals: nothing partial left, the run still ends by the signal ----------------
FED=(dp-train fedavg --task synthetic --model logreg --clients 50 --clients-per-round 10 --rounds 100000 --quiet)
# interrupt SIG STATUS [ENV-OPTION]: starts a long fedavg run (with SIG at its default
# action: bash starts background jobs with SIGINT ignored), waits until its staging
# folder exists, sends SIG and expects STATUS and no folder left.
interrupt() {
  local sig=$1 want=$2 out=run-$1
  CHECKS=$((CHECKS + 1))
  env --default-signal="$sig" "${FED[@]}" --out "$out" 2>"err-$sig" &
  local pid=$! i
  for i in $(seq 600); do
    compgen -G "$out.partial-*" >/dev/null || ! kill -0 "$pid" 2>/dev/null && break
    sleep 0.1
  done
  compgen -G "$out.partial-*" >/dev/null || fail "no staging folder after 60 s ($sig)"
  kill -s "$sig" "$pid"
  wait "$pid"
  local got=$?
  [ "$got" -eq "$want" ] || fail "SIG$sig: exit $got, wanted $want ($(head -c 300 "err-$sig"))"
  ! compgen -G "$out*" >/dev/null || fail "SIG$sig left $(compgen -G "$out*")"
}
interrupt INT 130
interrupt TERM 143
# A run started with SIGINT ignored (nohup) keeps ignoring it; SIGTERM still cleans up.
CHECKS=$((CHECKS + 1))
env --ignore-signal=INT "${FED[@]}" --out run-ign 2>/dev/null &
pid=$!
for i in $(seq 600); do
  compgen -G "run-ign.partial-*" >/dev/null || ! kill -0 "$pid" 2>/dev/null && break
  sleep 0.1
done
kill -s INT "$pid"
sleep 1
kill -0 "$pid" 2>/dev/null || fail "an ignored SIGINT ended the run"
kill -s TERM "$pid"
wait "$pid"
expect_eq "$?" 143 "SIGTERM after an ignored SIGINT"
! compgen -G "run-ign*" >/dev/null || fail "SIGTERM left $(compgen -G "run-ign*")"

# dp-train fedavg --out through a symlink: the link stays, its target gets the files.
mkdir runs
ln -s runs/real run-link
expect_status 0 dp-train fedavg --task synthetic --model logreg --clients 50 --clients-per-round 10 --rounds 2 --quiet \
  --out run-link
[ -L run-link ] || fail "fedavg --out replaced the symlink"
[ -s runs/real/run.json ] || fail "fedavg --out link: no run.json in the link's target"
expect_eq "$(ls -A runs)" real "nothing but the run folder beside the link's target"


# ---- dp-train fedavg --out: a non-empty folder is refused, --force replaces it whole --
RUN=(dp-train fedavg --task synthetic --model logreg --clients 50 --clients-per-round 10 --quiet)
mkdir empty
expect_status 0 "${RUN[@]}" --rounds 3 --save-deltas --out empty
expect_eq "$(ls empty | tr '\n' ' ')" "delta.npy deltas.npy final_model.npy metrics.csv run.json scores_all.csv scores_final.csv " \
  "a run into an empty folder"
sum_before=$(cat empty/* | md5sum)
expect_error 2 '^dp-train: error: output folder is not empty \(--force replaces it\) \(empty/\)$' "${RUN[@]}" --rounds 1 --out empty/
expect_eq "$(cat empty/* | md5sum)" "$sum_before" "a refused run leaves the folder as it was"
# The stale deltas.npy of the 3-round run does not survive a 1-round run without it.
expect_status 0 "${RUN[@]}" --rounds 1 --out empty --force
expect_eq "$(ls empty | tr '\n' ' ')" "delta.npy final_model.npy metrics.csv run.json scores_all.csv scores_final.csv " \
  "--force replaces the folder whole"
expect_eq "$(json_rounds empty/run.json)" 1 "run.json of the new run"
expect_eq "$(ls -A | grep -c partial)" 0 "no staging folder left"
expect_status 0 "${RUN[@]}" --rounds 2 --out run-link --force
[ -L run-link ] || fail "fedavg --force replaced the symlink"
expect_eq "$(json_rounds runs/real/run.json)" 2 "--force through a link replaces the link's target"
expect_eq "$(ls -A runs)" real "nothing but the run folder beside the link's target after --force"
touch plain
expect_error 1 '^dp-train: error: exists and is not a folder \(plain\)$' "${RUN[@]}" --rounds 1 --out plain --force
# Errors name --out as given, not the staging folder beside it (was '/proc/x.partial-PID').
expect_error 1 '^dp-train: error: cannot create output folder: No such file or directory \(/proc/x\)$' \
  "${RUN[@]}" --rounds 1 --out /proc/x

finish
