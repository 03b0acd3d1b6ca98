#!/bin/bash
# needs: dp-train
# dp-train sum (Andrew et al. 2024, Alg. 1): the release is the clipped sum plus N(0, (sigma C)^2 I),
# the same whatever --threads; client data; each bad input of issue 4; and no LibTorch loaded.
source "$SRC/tests/cli/lib.bash"
T="dp-train sum"

canary-gen --count 20 --dim 10000 --seed 9 >"$TMP/c.json"
canary-gen --count 20 --dim 10000 --seed 9 --npy -o "$TMP/c.npy"
"$PYTHON" - "$TMP" <<'PY'
import sys
import numpy as np
d = sys.argv[1]
np.save(f"{d}/clients.npy", np.array([[3.0, 4.0, 0], [0, 0, 0.5]]))   # clipped: (0.6, 0.8, 0), (0, 0, 0.5)
np.save(f"{d}/clients-nan.npy", np.array([[3.0, np.nan, 0]]))
np.save(f"{d}/c3.npy", np.ones((2, 3)))
raw = open(f"{d}/c.npy", "rb").read()
open(f"{d}/truncated.npy", "wb").write(raw[: len(raw) // 2])
PY

# ---- known answers -----------------------------------------------------------------
# Noise 1e-300 vanishes next to entries ~0.01: the release is C times the canary sum.
expect_status 0 $T --dim 10000 --canaries "$TMP/c.json" --noise 1e-300 --clip 2 --seed 1 -o "$TMP/sum.npy"
expect_status 0 $T --dim 10000 --canaries "$TMP/c.npy" --noise 1e-300 --clip 2 --seed 1 -o "$TMP/sum-npy.npy"
"$PYTHON" - "$TMP" <<'PY' || fail "release is not 2 x the sum of the canaries"
import sys
import numpy as np
d = sys.argv[1]
want = 2 * np.load(f"{d}/c.npy").sum(0)
for name in ("sum", "sum-npy"):
    r = np.load(f"{d}/{name}.npy")
    assert r.shape == (10000,) and r.dtype == np.float64, r.shape
    assert np.allclose(r, want, rtol=0, atol=1e-14), abs(r - want).max()
PY
expect_status 0 $T --dim 3 --client-data "$TMP/clients.npy" --noise 1e-300 -o -
expect_eq "$("$PYTHON" -c 'import numpy as np, sys, io; print(np.round(np.load(io.BytesIO(sys.stdin.buffer.read())), 15).tolist())' <"$TMP/out")" \
  "[0.6, 0.8, 0.5]" "file clients clipped to norm 1, release on stdout"
expect_status 0 $T --dim 10000 --clients 3 --client-data random --noise 1e-300 --seed 2 -o "$TMP/random.npy"
# three random unit vectors in 10^4 dimensions: ||sum||^2 = 3 + 2 sum <u_i,u_j>, sd 0.049
expect_near "$("$PYTHON" -c "import numpy as np; r = np.load('$TMP/random.npy'); print(r @ r)")" 3 0.25 "random clients have norm 1"
# No canaries: the release is pure noise with sd sigma C = 2 * 0.75 = 1.5 (sd of the sd 1.5/sqrt(2d) = 0.0034).
expect_status 0 $T --dim 100000 --noise 2 --clip 0.75 --seed 3 -o "$TMP/noise.npy" --dtype f4
expect_near "$("$PYTHON" -c "import numpy as np; r = np.load('$TMP/noise.npy'); assert r.dtype == np.float32; print(r.std())")" 1.5 0.014 "noise sd"

# ---- same bytes whatever --threads; the seed matters ---------------------------------
expect_status 0 $T --dim 10000 --canaries "$TMP/c.json" --clients 5 --client-data random --noise 0.5 --seed 4 --threads 1 -o "$TMP/t1.npy"
expect_status 0 $T --dim 10000 --canaries "$TMP/c.json" --clients 5 --client-data random --noise 0.5 --seed 4 --threads 3 -o "$TMP/t3.npy"
cmp -s "$TMP/t1.npy" "$TMP/t3.npy" || fail "--threads changes the release"
expect_status 0 $T --dim 10000 --canaries "$TMP/c.json" --clients 5 --client-data random --noise 0.5 --seed 5 -o "$TMP/s5.npy"
cmp -s "$TMP/t1.npy" "$TMP/s5.npy" && fail "--seed is ignored"

# ---- bad input: one line on stderr, nothing written -----------------------------------
expect_error 1 "^dp-train: error: canary dimension 10000 does not match --dim 500 \(.*c.json\)$" \
  $T --dim 500 --canaries "$TMP/c.json" --noise 1 -o "$TMP/bad.npy"
expect_error 1 "^dp-train: error: canary dimension 3 does not match --dim 500 \(.*c3.npy\)$" \
  $T --dim 500 --canaries "$TMP/c3.npy" --noise 1 -o "$TMP/bad.npy"
expect_error 1 "^dp-train: error: client dimension 3 does not match --dim 4 \(.*clients.npy\)$" \
  $T --dim 4 --client-data "$TMP/clients.npy" --noise 1 -o "$TMP/bad.npy"
expect_error 1 "^dp-train: error: non-finite value nan \(.*clients-nan.npy" \
  $T --dim 3 --client-data "$TMP/clients-nan.npy" --noise 1 -o "$TMP/bad.npy"
expect_error 1 "^dp-train: error: .*truncated.npy" $T --dim 10000 --canaries "$TMP/truncated.npy" --noise 1 -o "$TMP/bad.npy"
printf '{"kind":"sphere","seed":1,"count":0,"dim":3}' >"$TMP/count0.json"
expect_error 1 "^dp-train: error: canary count is 0 \(.*count0.json, field count\)$" $T --dim 3 --canaries "$TMP/count0.json" --noise 1
printf '{"kind":"sphere","seed":1,"count":2,"dim":0}' >"$TMP/dim0.json"
expect_error 1 "^dp-train: error: canary dimension is 0 \(.*dim0.json, field dim\)$" $T --dim 3 --canaries "$TMP/dim0.json" --noise 1
printf '{"kind":"torus","seed":1,"count":2,"dim":3}' >"$TMP/torus.json"
expect_error 1 "^dp-train: error: unknown canary kind 'torus'" $T --dim 3 --canaries "$TMP/torus.json" --noise 1
printf '{"kind":"sphere",,}' >"$TMP/broken.json"
expect_error 1 "^dp-train: error: malformed JSON at byte [0-9]+ \(.*broken.json\)$" $T --dim 3 --canaries "$TMP/broken.json" --noise 1
expect_error 2 "^dp-train: error: .*noise" $T --dim 3 --noise 0
expect_error 2 "^dp-train: error: .*noise" $T --dim 3 --noise -1
expect_error 2 "^dp-train: error: .*clip" $T --dim 3 --noise 1 --clip 0
expect_error 2 "^dp-train: error: .*dim.*required" $T --noise 1
expect_error 2 "^dp-train: error: .*dim" $T --dim 0 --noise 1
expect_error 2 "^dp-train: error: --clients cannot be given with --client-data FILE" \
  $T --dim 3 --clients 2 --client-data "$TMP/clients.npy" --noise 1
[ -e "$TMP/bad.npy" ] && fail "an output file was left after an error"

# ---- help (tests/cli/docs.sh checks the man page) --------------------------------------------------------------------
# --dtype f4 of a release beyond float's range: an error, not a file of inf.
expect_error 1 "does not fit in f4 \(use f8\) \(.*f4big.npy\)" $T --dim 10000 --canaries "$TMP/c.json" --noise 1e200 --dtype f4 -o "$TMP/f4big.npy"
[ -e "$TMP/f4big.npy" ] && fail "f4 overflow left an output file"
expect_error 1 "does not fit in f4 \(use f8\) \(stdout\)" $T --dim 10000 --canaries "$TMP/c.json" --noise 1e200 --dtype f4

# ---- no LibTorch: dp-train itself links none and runs sum; the rest goes to its LibTorch part --
readelf -d "$BIN/dp-train" >"$TMP/needed" || fail "readelf cannot read dp-train"
grep -q "NEEDED.*libc\.so" "$TMP/needed" || fail "readelf lists no NEEDED entry of dp-train"
grep -q "NEEDED.*\(torch\|c10\)" "$TMP/needed" && fail "dp-train links LibTorch: $(grep NEEDED "$TMP/needed")"
LD_DEBUG=libs dp-train sum --dim 3 --noise 1 -o "$TMP/ld.npy" 2>"$TMP/ld"
grep -q "calling init: .*libc\.so" "$TMP/ld" || fail "LD_DEBUG=libs names no library loaded by dp-train sum"
grep -q "libtorch\|libc10" "$TMP/ld" && fail "dp-train sum loads LibTorch: $(grep -m1 'libtorch\|libc10' "$TMP/ld")"
LD_DEBUG=libs dp-train --version 2>"$TMP/ld" >/dev/null
grep -q "calling init: .*libtorch_cpu" "$TMP/ld" || fail "dp-train --version does not reach the LibTorch part"
# dp-train copied away from its LibTorch part: one line, exit 1.
cp "$BIN/dp-train" "$TMP/dp-train"
expect_error 1 "^dp-train: error: cannot start dp-train's LibTorch part: No such file or directory \(.*/\.\./libexec/dpaudit/dp-train\)$" \
  "$TMP/dp-train" --version
expect_status 0 "$TMP/dp-train" sum --dim 3 --noise 1 -o "$TMP/copy.npy"

expect_status 0 dp-train sum --help
grep -q "Andrew et al\. 2024, Alg\. 1" "$TMP/out" || fail "sum --help does not name its algorithm"
expect_status 0 dp-train --version
finish
