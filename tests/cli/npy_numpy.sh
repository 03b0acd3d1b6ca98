#!/usr/bin/env bash
# NPY interoperability with numpy (Debian's python3-numpy): numpy reads what we write
# (canary-gen --npy, f8 and f4) and we read what numpy writes (np.save, header v1.0 and
# v2.0, f4 and f8, 1-D and 2-D). The known answers are numpy's own computations.
source "$SRC/tests/cli/lib.bash"
cd "$TMP"

# numpy reads ours: shape, dtype, and unit row norms of sphere canaries.
for dtype in f8 f4; do
  expect_status 0 canary-gen --kind sphere --count 5 --dim 300 --seed 3 --npy --dtype $dtype -o c_$dtype.npy
  got=$("$PYTHON" -c "
import numpy as np
a = np.load('c_$dtype.npy')
print(a.shape[0], a.shape[1], a.dtype.str, int(np.allclose(np.linalg.norm(a, axis=1), 1, atol=1e-6)))")
  expect_eq "$got" "5 300 <$dtype 1" "numpy view of canary-gen --npy --dtype $dtype"
done

# We read numpy's: a canary matrix and a model from np.save, and a v2.0 header; the
# cosines score-dump prints equal numpy's to 1e-12 (f8) / 1e-6 (f4).
"$PYTHON" - <<'PY'
import numpy as np
rng = np.random.default_rng(11)
c = rng.standard_normal((4, 50))
m = rng.standard_normal(50)
np.save("canaries.npy", c)
np.save("model_f8.npy", m)
np.save("model_f4.npy", m.astype(np.float32))
with open("model_v2.npy", "wb") as f:
    np.lib.format.write_array(f, m, version=(2, 0))
np.save("fortran.npy", np.asfortranarray(c))
cos = c @ m / (np.linalg.norm(c, axis=1) * np.linalg.norm(m))
np.savetxt("expected.txt", cos, fmt="%.17g")
PY
for model in model_f8 model_f4 model_v2; do
  expect_status 0 score-dump --canaries canaries.npy --model $model.npy
  cp "$TMP/out" scores_$model.csv
  tol=1e-12; [ $model = model_f4 ] && tol=1e-6
  ok=$("$PYTHON" -c "
import numpy as np
got = np.loadtxt('scores_$model.csv', delimiter=',', skiprows=1, usecols=2)
print(int(np.allclose(got, np.loadtxt('expected.txt'), rtol=0, atol=$tol)))")
  expect_eq "$ok" 1 "score-dump cosines on numpy's $model.npy"
done

# Fortran order is refused with one line naming the file.
expect_error 1 "Fortran-order NPY is not supported, save it in C order \(fortran.npy\)" score-dump --canaries fortran.npy --model model_f8.npy

finish
