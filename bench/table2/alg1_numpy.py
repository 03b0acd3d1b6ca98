#!/usr/bin/python3
"""Andrew et al. 2024, Alg. 1 (one-shot audit of the Gaussian mechanism) in NumPy: the peer that
dpaudit's pipeline is measured against (bench/table2.md).

Same work as the pipeline: k unit canaries are generated once to insert and once to
score (a k x d matrix would need 8 GB at d = 1e6, k = 1e3), each from its own Philox
stream (numpy's Philox4x64 bit generator and its 256-layer ziggurat), noise N(0, sigma^2 I),
cosines, mean and std, and eps(N(0,1/d) || N(mu, sd^2); delta) of Andrew et al. 2024, Sec. 3.2 by numerical
integration. Prints one line: eps mu sd, then the seconds of lines 1-9 (canaries,
release, cosines) and of line 10 (the eps integral).
Usage: alg1_numpy.py [--dim D] [--canaries K] [--sigma S] [--seed N] [--delta X]"""
import argparse
import time

import numpy as np
from scipy import optimize, stats


def canary(seed, j, d):
    g = np.random.Generator(np.random.Philox(key=[seed, j])).standard_normal(d)
    return g / np.linalg.norm(g)


def delta_of(p, q, eps):
    """delta_{P||Q}(eps) = integral of (p - e^eps q)_+ on a fine grid (P, Q Gaussians)."""
    lo = min(p.mean() - 12 * p.std(), q.mean() - 12 * q.std())
    hi = max(p.mean() + 12 * p.std(), q.mean() + 12 * q.std())
    x = np.linspace(lo, hi, 200001)
    return np.trapz(np.maximum(p.pdf(x) - np.exp(eps) * q.pdf(x), 0), x)


def two_gaussian_eps(p, q, delta):
    """Smallest eps with delta(eps) <= delta in both directions (Andrew et al. 2024, Sec. 3.2)."""
    def eps_one(a, b):
        if delta_of(a, b, 0) <= delta:
            return 0.0
        return optimize.brentq(lambda e: delta_of(a, b, e) - delta, 0, 100)
    return max(eps_one(p, q), eps_one(q, p))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dim", type=int, default=1_000_000)
    ap.add_argument("--canaries", type=int, default=1000)
    ap.add_argument("--sigma", type=float, default=0.541)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--delta", type=float, default=1e-6)
    a = ap.parse_args()
    start = time.perf_counter()
    rho = np.zeros(a.dim)
    for j in range(a.canaries):                      # Alg. 1 lines 2-5
        rho += canary(a.seed, j, a.dim)
    noise = np.random.Generator(np.random.Philox(key=[a.seed, 2**63]))
    rho += a.sigma * noise.standard_normal(a.dim)    # line 6
    rho_norm = np.linalg.norm(rho)
    cos = np.array([canary(a.seed, j, a.dim) @ rho for j in range(a.canaries)]) / rho_norm  # lines 7-8
    mu, sd = cos.mean(), cos.std()                    # line 9
    scored = time.perf_counter()
    eps = two_gaussian_eps(stats.norm(0, 1 / np.sqrt(a.dim)), stats.norm(mu, sd), a.delta)  # line 10
    print(eps, mu, sd, scored - start, time.perf_counter() - scored)


if __name__ == "__main__":
    main()
