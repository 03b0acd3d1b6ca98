#!/bin/bash
# score-dump --device: cpu is the default; cuda gives the CPU's output byte for byte where
# the build has CUDA and a GPU answers, says so in one line otherwise (exit 2 in a build
# without CUDA, 1 where no GPU can be used); NPY canaries stay on the CPU.
source "$SRC/tests/cli/lib.bash"
T=score-dump

canary-gen --count 20 --dim 70001 --seed 8 >"$TMP/c.json"
canary-gen --count 10 --dim 70001 --seed 8 --first-index 20 >"$TMP/u.json"
"$PYTHON" -c "import numpy as np; r = np.random.default_rng(2); np.save('$TMP/m.npy', r.normal(0, 1, 70001)); np.save('$TMP/d.npy', r.normal(0, 1, (3, 70001)))"
expect_status 0 $T --canaries "$TMP/c.json" --unseen "$TMP/u.json" --model "$TMP/m.npy"
cp "$TMP/out" "$TMP/default.csv"
expect_status 0 $T --canaries "$TMP/c.json" --unseen "$TMP/u.json" --model "$TMP/m.npy" --device cpu
cmp -s "$TMP/out" "$TMP/default.csv" || fail "--device cpu is not the default"
expect_error 2 "^score-dump: error: --device: gpu not in \{cpu,cuda\}" $T --canaries "$TMP/c.json" --model "$TMP/m.npy" --device gpu

cuda=(--canaries "$TMP/c.json" --unseen "$TMP/u.json" --device cuda)
if [ "${DPAUDIT_CUDA:-OFF}" != ON ]; then
  expect_error 2 "^score-dump: error: --device cuda: this build has no CUDA \(no nvcc was found when it was configured; see the README's GPU section\)$" \
    $T "${cuda[@]}" --model "$TMP/m.npy"
elif ! nvidia-smi -L >/dev/null 2>&1; then
  expect_error 1 "^score-dump: error: --device cuda: no CUDA device can be used here$" $T "${cuda[@]}" --model "$TMP/m.npy"
else
  expect_status 0 $T "${cuda[@]}" --model "$TMP/m.npy"
  cmp -s "$TMP/out" "$TMP/default.csv" || fail "--device cuda changes the cosines"
  for args in "--stat dot --model $TMP/m.npy" "--deltas $TMP/d.npy --reduce max" "--deltas $TMP/d.npy --reduce mean --stat dot"; do
    # shellcheck disable=SC2086
    expect_status 0 $T --canaries "$TMP/c.json" --unseen "$TMP/u.json" $args
    cp "$TMP/out" "$TMP/cpu.csv"
    # shellcheck disable=SC2086
    expect_status 0 $T "${cuda[@]}" $args
    cmp -s "$TMP/out" "$TMP/cpu.csv" || fail "--device cuda changes the scores of $args"
  done
  canary-gen --count 5 --dim 70001 --seed 8 --npy -o "$TMP/c.npy"
  expect_status 0 $T --canaries "$TMP/c.npy" --model "$TMP/m.npy"
  cp "$TMP/out" "$TMP/cpu.csv"
  expect_status 0 $T --canaries "$TMP/c.npy" --model "$TMP/m.npy" --device cuda
  cmp -s "$TMP/out" "$TMP/cpu.csv" || fail "--device cuda changes the scores of NPY canaries"
fi
finish
