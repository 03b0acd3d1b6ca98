#!/bin/bash
# canary-gen: the spec, the NPY matrix (unit rows; canary j a pure function of (seed, j)
# whatever the count, first index or threads), dummy canaries, and each bad input.
source "$SRC/tests/cli/lib.bash"
T=canary-gen

# ---- the spec ----------------------------------------------------------------------
expect_status 0 $T --kind sphere --count 1000 --dim 101770 --seed 7
expect_eq "$(cat "$TMP/out")" '{"kind":"sphere","seed":7,"count":1000,"dim":101770,"first_index":0}' "sphere spec"
expect_status 0 $T --kind dummy --dim 16 --clip 2 --flip -o "$TMP/dummy.json"
expect_eq "$(cat "$TMP/dummy.json")" '{"kind":"dummy","seed":0,"count":1,"dim":16,"first_index":0,"clip":2.0,"flip":true}' "dummy spec"

# ---- matrices ------------------------------------------------------------------------
expect_status 0 $T --count 6 --dim 5000 --seed 3 --npy -o "$TMP/six.npy" --threads 1
expect_status 0 $T --count 6 --dim 5000 --seed 3 --npy -o "$TMP/six-t3.npy" --threads 3
cmp -s "$TMP/six.npy" "$TMP/six-t3.npy" || fail "--threads changes the matrix"
expect_status 0 $T --count 2 --dim 5000 --seed 3 --first-index 4 --npy -o "$TMP/last2.npy"
expect_status 0 $T --count 3 --dim 5000 --seed 3 --npy --dtype f4 -o "$TMP/three-f4.npy"
expect_status 0 $T --count 6 --dim 5000 --seed 4 --npy -o "$TMP/other-seed.npy"
expect_status 0 $T --kind dummy --count 2 --dim 16 --clip 2 --npy -o "$TMP/dummy.npy"
expect_status 0 $T --kind dummy --count 1 --dim 16 --clip 2 --flip --npy -o "$TMP/flip.npy"
"$PYTHON" - "$TMP" <<'PY' || fail "matrix checks (see above)"
import sys
import numpy as np
d = sys.argv[1]
six = np.load(f"{d}/six.npy")
assert six.shape == (6, 5000) and six.dtype == np.float64, six.shape
assert np.allclose(np.linalg.norm(six, axis=1), 1, atol=1e-14), "rows are not unit vectors"
last2 = np.load(f"{d}/last2.npy")
assert (last2 == six[4:]).all(), "canary j depends on the count or first index"
f4 = np.load(f"{d}/three-f4.npy")
assert f4.dtype == np.float32 and (f4 == six[:3].astype(np.float32)).all(), "f4 is not the rounded f8"
assert not np.allclose(np.load(f"{d}/other-seed.npy"), six), "seed ignored"
# uniform on the sphere: entries of sqrt(D) c have mean 0 and variance 1 (Andrew et al. 2024, Sec. 3)
z = six.ravel() * np.sqrt(5000)
assert abs(z.mean()) < 4 / np.sqrt(z.size) and abs(z.var() - 1) < 4 * np.sqrt(2 / z.size), (z.mean(), z.var())
# Matsumoto et al. 2022's dummy gradient: every entry L/sqrt(D) = 2/4; flip negates it
assert (np.load(f"{d}/dummy.npy") == 0.5).all() and np.load(f"{d}/dummy.npy").shape == (2, 16)
assert (np.load(f"{d}/flip.npy") == -0.5).all()
PY

# ---- bad input: one line on stderr, exit 2, nothing written -------------------------
expect_error 2 "^canary-gen: error: .*count" $T --count 0 --dim 5 --npy -o "$TMP/bad.npy"
expect_error 2 "^canary-gen: error: .*dim" $T --count 3 --dim 0
expect_error 2 "^canary-gen: error: .*kind.*cube" $T --kind cube --dim 5
expect_error 2 "^canary-gen: error: .*dim.*required" $T --count 3
expect_error 2 "^canary-gen: error: .*clip" $T --kind dummy --dim 4 --clip -1
expect_error 2 "^canary-gen: error: .*dtype" $T --dim 4 --npy --dtype f2
[ -e "$TMP/bad.npy" ] && fail "an output file was left after an error"

# ---- help, version (tests/cli/docs.sh checks the man page) ---------------------------------------------------------
expect_status 0 $T --help
grep -q "EXAMPLES" "$TMP/out" || fail "--help has no EXAMPLES"
expect_status 0 $T --version
# Integer options: no silent wrap of '-1', clamp of an overflow, or octal '010' (CLI11's strtoull).
expect_error 2 "--seed: '-1' is not a whole number" canary-gen --dim 10 --seed -1
expect_error 2 "--dim: '99999999999999999999' is out of range" canary-gen --dim 99999999999999999999
expect_error 2 "--count: '-1' is not a whole number" canary-gen --dim 10 --count -1
expect_error 2 "--dim: '010' has a leading zero" canary-gen --dim 010
expect_error 2 "--dim: '0x10' is not a whole number" canary-gen --dim 0x10
expect_status 0 canary-gen --dim 10 --seed 18446744073709551615

# Canary streams first_index .. first_index + count - 1 must not wrap past 2^64 - 1.
expect_error 1 "first_index \+ count - 1 exceeds 2\^64 - 1" canary-gen --dim 10 --count 2 --first-index 18446744073709551615
expect_error 1 "first_index \+ count - 1 exceeds 2\^64 - 1" canary-gen --dim 10 --count 2 --first-index 18446744073709551615 --npy
expect_status 0 canary-gen --dim 10 --count 2 --first-index 18446744073709551614

# count x dim that wraps size_t: an error (the spec's limit), not a short allocation and a segfault.
expect_error 1 '^canary-gen: error: count 4294967296 x dim 4294967296 is too many entries to regenerate \(at most 2\^50\) \(spec, fields count and dim\)$' \
  canary-gen --count 4294967296 --dim 4294967296 --npy -o "$TMP/wrap.npy"
[ -e "$TMP/wrap.npy" ] && fail "partial output left by --count x --dim too large"

# --help states the real limits (2^32 canaries, dimension 2^40), and the options enforce them.
expect_status 0 canary-gen --help
grep -q -- "--count UINT:UINT in \[1 - 4294967296\]" "$TMP/out" || fail "--help does not show --count's limit 2^32"
grep -q -- "--dim UINT:UINT in \[1 - 1099511627776\]" "$TMP/out" || fail "--help does not show --dim's limit 2^40"
expect_error 2 "--count: Value 4294967297 not in range 1 to 4294967296" canary-gen --count 4294967297 --dim 3

# A dummy canary too small for f4 (1e-50 / sqrt(10) is below f4's least subnormal 1.4e-45)
# would be written as zeros: refused, nothing written; f8 keeps it.
expect_error 1 "the dummy canary.s entries \(3.16[0-9e.-]+\) underflow to 0 in f4 \(use f8\)" \
  canary-gen --kind dummy --dim 10 --clip 1e-50 --npy --dtype f4 -o "$TMP/tiny.npy"
[ -e "$TMP/tiny.npy" ] && fail "partial output left by an f4 underflow"
expect_status 0 canary-gen --kind dummy --dim 10 --clip 1e-50 --npy -o "$TMP/tiny.npy"

finish
