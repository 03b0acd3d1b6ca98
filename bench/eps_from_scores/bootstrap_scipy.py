#!/usr/bin/python3
"""The peer of bench/eps_from_scores/bootstrap.cpp: scipy.stats.bootstrap(method="BCa")
of gauss-fit's eps_est on the same scores, what a Python user would run.

The statistic is dpaudit's gauss-fit (Andrew et al. 2024, Alg. 3): N(mean, std) fitted to each class
(ddof 0), then the exact two-Gaussian eps at delta, here in closed form: the privacy
loss log p/q of two Gaussians is quadratic in x, so {loss > eps} is an interval or the
complement of one, and delta_{P||Q}(eps) = P(R) - e^eps Q(R) takes four normal CDFs;
eps is the larger of the two directions' roots (brentq, xtol 1e-12). scipy's BCa
resamples each class separately and takes a from the delete-1 jackknife of each class,
the formula of lib/stats/bootstrap.hpp (its a agrees with dpaudit's delete-1 a).
usage: bootstrap_scipy.py SCORES.csv B DELTA
Prints: estimate lower upper z0 a, wall and CPU seconds (bootstrap only, reading excluded).
"""
import sys
import time

import numpy as np
from scipy import optimize, special, stats


def region_prob(a, b, c, m, s):
    """P(a x^2 + b x + c > 0) for x ~ N(m, s^2)."""
    cdf = lambda x: special.ndtr((x - m) / s)
    if a == 0:
        if b == 0:
            return float(c > 0)
        r = -c / b
        return 1 - cdf(r) if b > 0 else cdf(r)
    disc = b * b - 4 * a * c
    if disc <= 0:
        return 1.0 if a > 0 else 0.0
    r1, r2 = sorted([(-b - np.sqrt(disc)) / (2 * a), (-b + np.sqrt(disc)) / (2 * a)])
    inside = cdf(r2) - cdf(r1)
    return 1 - inside if a > 0 else inside


def delta_one(p, q, eps):
    """delta_{P||Q}(eps) = P(L > eps) - e^eps Q(L > eps), L = log p/q, P, Q = (mean, sd)."""
    (m1, s1), (m0, s0) = p, q
    a = 1 / (2 * s0**2) - 1 / (2 * s1**2)
    b = m1 / s1**2 - m0 / s0**2
    c = m0**2 / (2 * s0**2) - m1**2 / (2 * s1**2) + np.log(s0 / s1) - eps
    return region_prob(a, b, c, m1, s1) - np.exp(eps) * region_prob(a, b, c, m0, s0)


def eps_one(p, q, delta):
    f = lambda e: delta_one(p, q, e) - delta
    if f(0) <= 0:
        return 0.0
    hi = 1.0
    while f(hi) > 0:
        hi *= 2
    return optimize.brentq(f, 0, hi, xtol=1e-12)


def gauss_fit_eps(ins, outs, delta):
    p, q = (ins.mean(), ins.std()), (outs.mean(), outs.std())
    return max(eps_one(p, q, delta), eps_one(q, p, delta))


def main():
    path, b, delta = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    data = np.loadtxt(path, delimiter=",", skiprows=1)
    ins, outs = data[data[:, 0] == 1, 1], data[data[:, 0] == 0, 1]
    start, cpu = time.perf_counter(), time.process_time()
    res = stats.bootstrap((ins, outs), lambda x, y: gauss_fit_eps(x, y, delta), vectorized=False,
                          paired=False, n_resamples=b, method="BCa", confidence_level=0.95,
                          random_state=np.random.default_rng(0))
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    # a as scipy computes it (delete-1 jackknife of each class), for the comparison.
    u2 = u3 = 0.0
    for j, x in enumerate((ins, outs)):
        n = len(x)
        keep = np.ones(n, bool)
        th = np.empty(n)
        for i in range(n):
            keep[i] = False
            th[i] = gauss_fit_eps(x[keep], outs, delta) if j == 0 else gauss_fit_eps(ins, x[keep], delta)
            keep[i] = True
        u = (n - 1) * (th.mean() - th) / n
        u2 += (u**2).sum()
        u3 += (u**3).sum()
    theta = gauss_fit_eps(ins, outs, delta)
    r = res.bootstrap_distribution
    z0 = stats.norm.ppf(((r < theta).sum() + (r <= theta).sum()) / (2 * len(r)))
    print(theta, res.confidence_interval.low, res.confidence_interval.high, z0, u3 / (6 * u2**1.5), f"{seconds:.2f}",
          f"{cpu:.2f}")


if __name__ == "__main__":
    main()
