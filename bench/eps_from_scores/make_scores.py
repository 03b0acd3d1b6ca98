#!/usr/bin/python3
"""Writes the benchmark inputs of eps-from-scores: N scores (half in, half out) as CSV.

usage: make_scores.py N OUT.csv [--cosines DIM] [--npy IN.npy OUT.npy]
  default: in ~ N(1,1), out ~ N(0,1) (Gaussian mechanism with sensitivity/sigma 1)
  --cosines DIM: in-scores only, cosines ~ N(3/sqrt(DIM), 1/DIM), for --null-dim DIM
  --npy IN.npy OUT.npy: also the same scores as eps-from-scores --in/--out arrays (f8), in
  the CSV's row order, so both formats hold one set of scores
Seeded (numpy default_rng(0)), so every run writes the same file.
"""
import sys

import numpy as np


def main():
    n, path = int(sys.argv[1]), sys.argv[2]
    rng = np.random.default_rng(0)
    if "--cosines" in sys.argv:
        dim = int(sys.argv[sys.argv.index("--cosines") + 1])
        scores = rng.normal(3 / np.sqrt(dim), 1 / np.sqrt(dim), n)
        labels = np.ones(n, dtype=int)
    else:
        half = n // 2
        scores = np.concatenate([rng.normal(1, 1, half), rng.normal(0, 1, n - half)])
        labels = np.concatenate([np.ones(half, dtype=int), np.zeros(n - half, dtype=int)])
    order = rng.permutation(n)
    with open(path, "w") as f:
        f.write("label,score\n")
        f.writelines(f"{labels[i]},{scores[i]!r}\n" for i in order)
    if "--npy" in sys.argv:
        at = sys.argv.index("--npy")
        shuffled, kept = scores[order], labels[order]
        np.save(sys.argv[at + 1], shuffled[kept == 1])
        np.save(sys.argv[at + 2], shuffled[kept == 0])


if __name__ == "__main__":
    main()
