#!/usr/bin/python3
"""Writes N rows (default 100000) of mu1,sigma1,mu2,sigma2,delta for eps-gauss2 --batch:
a fixed-seed sweep over means, unequal standard deviations (ratio 0.5-2) and delta
in [1e-9, 1e-3], so most rows need the general (unequal-variance) case."""
import sys
import numpy as np

n = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
rng = np.random.default_rng(2024)
mu1 = rng.uniform(-1, 1, n)
sigma1 = rng.uniform(0.2, 2, n)
mu2 = mu1 + rng.uniform(0, 3, n)
sigma2 = sigma1 * np.exp(rng.uniform(np.log(0.5), np.log(2), n))
delta = 10.0 ** rng.uniform(-9, -3, n)
print("mu1,sigma1,mu2,sigma2,delta")
for row in zip(mu1, sigma1, mu2, sigma2, delta):
    print(",".join(repr(float(v)) for v in row))
