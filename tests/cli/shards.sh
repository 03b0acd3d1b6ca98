#!/usr/bin/env bash
# needs: dp-train
# Shards of a many-trial run (dp-train sgd and ldp --trial-range) merged by eps-from-scores:
# shards given in any order give the unsharded run's output byte for byte; shards that do
# not belong together (another configuration, another seed, overlapping trials, a gap) are
# refused, exit 1, one line naming the files and trials (docs/formats.md, "Shards").
source "$SRC/tests/cli/lib.bash"
cd "$TMP"

# --- dp-train sgd: the malicious-dataset game, simulated (Nasr et al. 2021, Sec. IV-F)
GAME=(dp-train sgd --threat malicious-dataset --engine simulate --trials 3000 --quiet)
SGD=("${GAME[@]}" --eps 4 --seed 7)
expect_status 0 "${SGD[@]}" -o whole.csv
expect_status 0 "${SGD[@]}" --trial-range 0:1000 -o s0.csv
expect_status 0 "${SGD[@]}" --trial-range 1000:2200 --threads 2 -o s1.csv
expect_status 0 "${SGD[@]}" --trial-range 2200:3000 -o s2.csv
expect_eq "$(head -2 s1.csv)" "trial,label,score,config_hash,seed,trial_range,trials
1000,0,$(sed -n 2002p whole.csv | cut -d, -f3),24e1601d452115a6,7,1000:2200,3000" "a shard's header and first row"
# The configuration hash, computed independently: FNV-1a 64 of Python's compact, key-sorted
# JSON of the configuration keys of --json, without seed and trial_range, with the noise
# multiplier used (sgd) or the dimension, radius and learning rate (ldp). A change to it is a
# change to what shards merge with, to be made on purpose.
fnv() {  # KEYS...: the hash of those keys of the JSON on stdin
  "$PYTHON" -c '
import json, sys
run = json.load(sys.stdin)
text = json.dumps({k: run[k] for k in sys.argv[1:] if k in run}, sort_keys=True, separators=(",", ":"))
h = 0xcbf29ce484222325
for b in text.encode():
    h = ((h ^ b) * 0x100000001b3) % 2**64
print("%016x" % h)' "$@"
}
expect_status 0 "${SGD[@]}" --trial-range 1000:2200 --json
expect_eq "$(fnv threat task model train_size sampling q expected_lot steps lr clip delta trials engine \
  fault hidden watermark_coords canary_norm score noise_multiplier <out)" 24e1601d452115a6 "sgd's config hash"
for method in "" "-m threshold" "-m gauss-fit --delta 1e-5" "--json" "--report"; do
  expect_status 0 eps-from-scores whole.csv $method
  cp out want
  expect_status 0 eps-from-scores s2.csv s0.csv s1.csv $method
  cmp -s out want || fail "shards s2 s0 s1 $method: $(cat out), unsharded: $(cat want)"
done
# Plain CSV tools read a shard: the scores are columns 1-3, the stamp in the named columns.
cmp -s whole.csv <(cut -d, -f1-3 s0.csv; for s in s1 s2; do tail -n +2 $s.csv | cut -d, -f1-3; done) ||
  fail "cut -f1-3 of the shards in order is not the unsharded CSV"
expect_eq "$("$PYTHON" -c 'import csv,sys; r=list(csv.DictReader(open("s2.csv"))); print(len(r), r[0]["trial_range"], r[0]["trials"], r[0]["seed"])')" \
  "1600 2200:3000 3000 7" "python's csv reads the stamp"

# --- refusals, exit 1: one line naming the files and the trials
expect_status 0 "${GAME[@]}" --eps 2 --seed 7 --trial-range 2200:3000 -o eps2.csv
expect_status 0 "${GAME[@]}" --eps 4 --seed 8 --trial-range 2200:3000 -o seed8.csv
expect_status 0 "${SGD[@]}" --trial-range 2000:3000 -o overlap.csv
expect_error 1 "^eps-from-scores: error: shards of different configurations, hash 24e1601d452115a6 and [0-9a-f]{16} \(s0.csv, eps2.csv\)$" \
  eps-from-scores s0.csv s1.csv eps2.csv
expect_error 1 "^eps-from-scores: error: shards of different seeds, 7 and 8 \(s0.csv, seed8.csv\)$" \
  eps-from-scores s0.csv s1.csv seed8.csv
expect_error 1 "^eps-from-scores: error: trials 2000 to 2199 are in two shards, 1000:2200 and 2000:3000 \(s1.csv, overlap.csv\)$" \
  eps-from-scores overlap.csv s0.csv s1.csv
expect_error 1 "^eps-from-scores: error: trials 1000 to 2199 of the run's 0:3000 are in no shard \(after s0.csv's 0:1000, before s2.csv's 2200:3000\)$" \
  eps-from-scores s2.csv s0.csv
expect_error 1 "^eps-from-scores: error: trials 2200 to 2999 of the run's 0:3000 are in no shard \(after s1.csv's 1000:2200\)$" \
  eps-from-scores s1.csv s0.csv
expect_error 1 "^eps-from-scores: error: not a shard \(no config_hash column\): several files are read as the shards of one run \(whole.csv\)$" \
  eps-from-scores s0.csv whole.csv

# --- dp-train ldp: the dummy gradient's white-box test (Matsumoto et al. 2022)
TEST=(dp-train ldp --crafter dummy-gradient --dim 1001 --trials 3000 --quiet)
LDP=("${TEST[@]}" --eps 2 --seed 5)
expect_status 0 "${LDP[@]}" -o whole.csv
expect_status 0 "${LDP[@]}" --trial-range 0:700 -o d0.csv
expect_status 0 "${LDP[@]}" --trial-range 700:2000 --threads 2 -o d1.csv
expect_status 0 "${LDP[@]}" --trial-range 2000:3000 -o d2.csv
expect_eq "$(head -2 d0.csv)" "label,guess,trial,config_hash,seed,trial_range,trials
$(sed -n 2p whole.csv),0,d2229fc31c7be733,5,0:700,3000" "an ldp shard's header and first row"
expect_status 0 "${LDP[@]}" --trial-range 0:700 --json
expect_eq "$(fnv crafter distinguisher eps clip trials clients task model pretrain_steps server_constant \
  malicious_label trial_seed dummy_norm dim radius learning_rate <out)" d2229fc31c7be733 "ldp's config hash"
cmp -s whole.csv <(cut -d, -f1-2 d0.csv; for d in d1 d2; do tail -n +2 $d.csv | cut -d, -f1-2; done) ||
  fail "cut -f1-2 of the ldp shards in order is not the unsharded CSV"
for method in threshold clopper-pearson; do
  expect_status 0 eps-from-scores --decisions whole.csv -m $method --json
  cp out want
  expect_status 0 eps-from-scores --decisions d1.csv d2.csv d0.csv -m $method --json
  cmp -s out want || fail "ldp shards d1 d2 d0 -m $method: $(cat out), unsharded: $(cat want)"
done
expect_status 0 "${TEST[@]}" --eps 2 --seed 6 --trial-range 2000:3000 -o seed6.csv
expect_error 1 "^eps-from-scores: error: shards of different seeds, 5 and 6 \(d0.csv, seed6.csv\)$" \
  eps-from-scores --decisions d0.csv d1.csv seed6.csv
expect_status 0 "${TEST[@]}" --eps 3 --seed 5 --trial-range 2000:3000 -o eps3.csv
expect_error 1 "^eps-from-scores: error: shards of different configurations, hash d2229fc31c7be733 and [0-9a-f]{16} \(d0.csv, eps3.csv\)$" \
  eps-from-scores --decisions d0.csv d1.csv eps3.csv
expect_error 1 "^eps-from-scores: error: trials 700 to 1999 of the run's 0:3000 are in no shard \(after d0.csv's 0:700, before d2.csv's 2000:3000\)$" \
  eps-from-scores --decisions d0.csv d2.csv
expect_error 2 "the trial range 0:3001 is not a non-empty part of \[0, 3000\) \(--trial-range\)" \
  "${LDP[@]}" --trial-range 0:3001
expect_error 2 "the trial range must be A:B with whole numbers A < B, got '7' \(--trial-range\)" \
  "${LDP[@]}" --trial-range 7
finish
