#!/usr/bin/python3
"""Writes N heterogeneous accounting segments (default 10000) as CSV sigma,q,steps:
every row has its own noise multiplier (0.5-5, as CANIFE's per-round estimates) and
sampling rate (1e-4 to 0.1); fixed seed."""
import sys
import numpy as np

n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
rng = np.random.default_rng(7)
sigma = rng.uniform(0.5, 5, n)
q = 10.0 ** rng.uniform(-4, -1, n)
steps = rng.integers(1, 100, n)
print("sigma,q,steps")
for s, p, t in zip(sigma, q, steps):
    print(f"{float(s)!r},{float(p)!r},{int(t)}")
