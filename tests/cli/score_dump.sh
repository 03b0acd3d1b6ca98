#!/bin/bash
# score-dump: hand-computed cosines and dot products, --reference, --deltas with max and
# mean, spec canaries against numpy, thread independence, and each bad input of issue 4.
source "$SRC/tests/cli/lib.bash"
T=score-dump

"$PYTHON" - "$TMP" <<'PY'
import sys
import numpy as np
d = sys.argv[1]
np.save(f"{d}/seen.npy", np.array([[1.0, 0, 0], [0, 2.0, 0]]))      # e1, 2 e2
np.save(f"{d}/unseen.npy", np.array([[0, 0, 1.0]]))                  # e3
np.save(f"{d}/model.npy", np.array([3.0, 4.0, 0]))                   # cos(e1) = 0.6, cos(e2) = 0.8
np.save(f"{d}/model-f4.npy", np.array([3.0, 4.0, 0], dtype=np.float32))
np.save(f"{d}/reference.npy", np.array([3.0, 0, -1.0]))              # model - reference = (0, 4, 1)
np.save(f"{d}/deltas.npy", np.array([[1.0, 0, 0], [0, 1.0, 0], [1.0, 1.0, 0]]))
np.save(f"{d}/model4.npy", np.array([1.0, 2.0, 3.0, 4.0]))
np.save(f"{d}/nan.npy", np.array([1.0, np.nan, 0]))
np.save(f"{d}/zero.npy", np.zeros(3))
np.save(f"{d}/two-rows.npy", np.ones((2, 3)))
raw = open(f"{d}/model.npy", "rb").read()
open(f"{d}/truncated.npy", "wb").write(raw[:-5])
PY

# ---- known answers -----------------------------------------------------------------
expect_status 0 $T --canaries "$TMP/seen.npy" --unseen "$TMP/unseen.npy" --model "$TMP/model.npy"
expect_eq "$(cat "$TMP/out")" "$(printf 'id,label,score,dim\n0,1,0.6,3\n1,1,0.8,3\n2,0,0,3')" "cosines of e1, 2e2, e3 with (3,4,0)"
expect_status 0 $T --canaries "$TMP/seen.npy" --model "$TMP/model-f4.npy" --stat dot
# dot products are not cosines: no dim column
expect_eq "$(cat "$TMP/out")" "$(printf 'id,label,score\n0,1,3\n1,1,8')" "dot products, f4 model"
expect_status 0 $T --canaries "$TMP/seen.npy" --unseen "$TMP/unseen.npy" --model "$TMP/model.npy" --reference "$TMP/reference.npy"
# model - reference = (0,4,1), norm sqrt(17): cosines 0, 4/sqrt(17), 1/sqrt(17)
expect_eq "$(cat "$TMP/out")" "$(printf 'id,label,score,dim\n0,1,0,3\n1,1,0.9701425001453319,3\n2,0,0.24253562503633297,3')" "--reference"
# rounds e1, e2, (e1+e2)/sqrt2: cosines of e1 are 1, 0, 0.7071; of e2 0, 1, 0.7071
expect_status 0 $T --canaries "$TMP/seen.npy" --deltas "$TMP/deltas.npy" --reduce max
expect_eq "$(cat "$TMP/out")" "$(printf 'id,label,score\n0,1,1\n1,1,1')" "--reduce max (not a single cosine: no dim)"
# ... so eps-from-scores cannot take the cosine null's dimension from it
cp "$TMP/out" "$TMP/max.csv"
expect_error 2 "--null needs --null-dim: the scores have no dim column" eps-from-scores "$TMP/max.csv" --null exact --delta 1e-5
expect_status 0 $T --canaries "$TMP/seen.npy" --deltas "$TMP/deltas.npy" --reduce mean
expect_near "$(sed -n 2p "$TMP/out" | cut -d, -f3)" "$("$PYTHON" -c 'print((1 + 0.5 ** 0.5) / 3)')" 1e-15 "--reduce mean"

# ---- spec canaries agree with numpy on the materialised matrix; threads do not matter --
canary-gen --count 50 --dim 20000 --seed 5 >"$TMP/c.json"
canary-gen --count 50 --dim 20000 --seed 5 --npy -o "$TMP/c.npy"
canary-gen --count 30 --dim 20000 --seed 5 --first-index 50 >"$TMP/u.json"
"$PYTHON" -c "import numpy as np; np.save('$TMP/m.npy', np.load('$TMP/c.npy').sum(0) + np.random.default_rng(1).normal(0, 1, 20000))"
expect_status 0 $T --canaries "$TMP/c.json" --unseen "$TMP/u.json" --model "$TMP/m.npy" --threads 1
cp "$TMP/out" "$TMP/t1.csv"
expect_status 0 $T --canaries "$TMP/c.json" --unseen "$TMP/u.json" --model "$TMP/m.npy" --threads 3
cmp -s "$TMP/out" "$TMP/t1.csv" || fail "--threads changes the scores"
expect_status 0 $T --canaries "$TMP/c.json" --unseen "$TMP/u.json" --model "$TMP/m.npy" --cache-mb 100
cmp -s "$TMP/out" "$TMP/t1.csv" || fail "--cache-mb changes the scores"
"$PYTHON" - "$TMP" <<'PY' || fail "spec scores differ from numpy"
import sys
import numpy as np
d = sys.argv[1]
c, m = np.load(f"{d}/c.npy"), np.load(f"{d}/m.npy")
rows = np.genfromtxt(f"{d}/t1.csv", delimiter=",", names=True)
assert len(rows) == 80 and (rows["label"][:50] == 1).all() and (rows["label"][50:] == 0).all()
want = c @ m / np.linalg.norm(c, axis=1) / np.linalg.norm(m)
assert np.allclose(rows["score"][:50], want, rtol=0, atol=1e-14), abs(rows["score"][:50] - want).max()
# unseen cosines follow the null: sd about 1/sqrt(d) = 0.00707
assert abs(rows["score"][50:].std() - 0.00707) < 0.004
PY

# ---- bad input: one line on stderr, nothing on stdout --------------------------------
expect_error 1 "^score-dump: error: canary dimension 3 does not match model dimension 4 \(.*seen.npy, .*model4.npy\)$" \
  $T --canaries "$TMP/seen.npy" --model "$TMP/model4.npy"
expect_error 1 "^score-dump: error: non-finite value nan \(.*nan.npy, index 1\)$" $T --canaries "$TMP/seen.npy" --model "$TMP/nan.npy"
expect_error 1 "^score-dump: error: .*truncated.npy" $T --canaries "$TMP/seen.npy" --model "$TMP/truncated.npy"
expect_error 1 "^score-dump: error: .*zero vector.*zero.npy" $T --canaries "$TMP/seen.npy" --model "$TMP/zero.npy"
expect_error 1 "^score-dump: error: expected a 1-D vector.*two-rows.npy" $T --canaries "$TMP/seen.npy" --model "$TMP/two-rows.npy"
printf '{"kind":"sphere","seed":1,"count":0,"dim":3}' >"$TMP/count0.json"
expect_error 1 "^score-dump: error: canary count is 0 \(.*count0.json, field count\)$" $T --canaries "$TMP/count0.json" --model "$TMP/model.npy"
printf '{"kind":"sphere","seed":1,"count":2,"dim":0}' >"$TMP/dim0.json"
expect_error 1 "^score-dump: error: canary dimension is 0 \(.*dim0.json, field dim\)$" $T --canaries "$TMP/dim0.json" --model "$TMP/model.npy"
printf '{"kind":"cube","seed":1,"count":2,"dim":3}' >"$TMP/cube.json"
expect_error 1 "^score-dump: error: unknown canary kind 'cube'.*cube.json, field kind" $T --canaries "$TMP/cube.json" --model "$TMP/model.npy"
printf '{"kind":"sphere","seed":1,' >"$TMP/broken.json"
expect_error 1 "^score-dump: error: malformed JSON at byte [0-9]+ \(.*broken.json\)$" $T --canaries "$TMP/broken.json" --model "$TMP/model.npy"
expect_error 1 "^score-dump: error: .*missing.json" $T --canaries "$TMP/missing.json" --model "$TMP/model.npy"
expect_error 1 "^score-dump: error: reference dimension 4 does not match model dimension 3" \
  $T --canaries "$TMP/seen.npy" --model "$TMP/model.npy" --reference "$TMP/model4.npy"
expect_error 2 "^score-dump: error: give --model or --deltas" $T --canaries "$TMP/seen.npy"
expect_error 2 "^score-dump: error: .*stat" $T --canaries "$TMP/seen.npy" --model "$TMP/model.npy" --stat l2
expect_error 2 "^score-dump: error: .*canaries.*required" $T --model "$TMP/model.npy"
expect_error 2 "^score-dump: error: .*excludes" $T --canaries "$TMP/seen.npy" --model "$TMP/model.npy" --deltas "$TMP/deltas.npy"
expect_status 1 $T --canaries "$TMP/seen.npy" --model "$TMP/nan.npy" -o "$TMP/partial.csv"
[ -e "$TMP/partial.csv" ] && fail "an output file was left after an error"

# ---- help, version (tests/cli/docs.sh checks the man page) ---------------------------------------------------------
# NPY shapes that wrap size_t (3 x 6148914691236517206 x 8 bytes = 16 bytes) or are
# negative: an error, not a short file read as the whole array.
"$PYTHON" - "$TMP" <<'PY'
import struct, sys
def npy(path, shape, values):
    h = "{'descr': '<f8', 'fortran_order': False, 'shape': %s, }" % shape
    h += " " * (63 - (10 + len(h)) % 64) + "\n"
    with open(f"{sys.argv[1]}/{path}", "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode() + struct.pack("<%dd" % len(values), *values))
npy("wrap.npy", "(3, 6148914691236517206)", [0.5, 0.5])
npy("neg.npy", "(-1,)", [3.0, 4.0, 0.0])
npy("big.npy", "(18446744073709551616,)", [])
PY
expect_error 1 "NPY shape .* is too large \(.*wrap.npy\)" $T --canaries "$TMP/seen.npy" --model "$TMP/wrap.npy"
expect_error 1 "malformed shape \(-1,\) \(.*neg.npy\)" $T --canaries "$TMP/seen.npy" --model "$TMP/neg.npy"
expect_error 1 "out of range \(.*big.npy\)" $T --canaries "$TMP/seen.npy" --model "$TMP/big.npy"
expect_error 1 "too large" eps-from-scores --in "$TMP/wrap.npy" --out "$TMP/model.npy"

# A folder given as a file: named, with the path (a spec folder gave a libstdc++
# message with no WHERE).
mkdir -p "$TMP/folder"
expect_error 1 "is a directory, not a canary spec \(.*folder\)" $T --canaries "$TMP/folder" --model "$TMP/model.npy"
expect_error 1 "is a directory, not an NPY file \(.*folder\)" $T --canaries "$TMP/seen.npy" --model "$TMP/folder"
expect_error 1 "is a directory, not a CSV file \(.*folder\)" eps-from-scores "$TMP/folder"

expect_status 0 $T --help
grep -q "EXAMPLES" "$TMP/out" || fail "--help has no EXAMPLES"
expect_status 0 $T --version
finish
