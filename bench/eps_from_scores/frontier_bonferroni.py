#!/usr/bin/python3
"""Is a Bonferroni correction over the ROC-frontier thresholds (jax_privacy's count, a set
chosen after seeing the labelled scores) a valid 95% lower bound? A simulation where the
true eps is known.

In scores ~ Laplace(1, 1), out ~ Laplace(0, 1): the likelihood ratio is at most e, and
exactly e on every tail above 1, so the true eps at delta 0 is 1 and many thresholds sit
right at it. Each trial draws N + N scores and computes the one-sided Clopper-Pearson
bound log(TPR_lo / FPR_hi) (alpha/2 per rate) maximized over
  frontier:  the convex-hull vertices of the ROC, each at alpha / (their number),
  distinct:  every distinct score, each at alpha / (their number) (eps-from-scores),
  max:       every distinct score at alpha (no correction),
and counts the trials whose bound exceeds the true eps 1. A valid bound does so in at most
alpha = 5% of the trials. Seeded (numpy default_rng(0)).

usage: frontier_bonferroni.py [TRIALS] [N]
"""
import sys

import numpy as np
from scipy.stats import beta


def cp_upper(k, n, a):
    return np.where(k < n, beta.ppf(1 - a, k + 1, n - k), 1.0)


def frontier(points):
    """Indices of the vertices of the upper convex hull of points sorted by x."""
    idx = np.arange(len(points))
    while len(idx) > 2:
        d = np.diff(points[idx], axis=0)
        dominated = d[:-1, 1] * d[1:, 0] - d[1:, 1] * d[:-1, 0] <= 0
        if not dominated.any():
            break
        idx = idx[np.r_[True, ~dominated, True]]
    return idx


def bound(fn, tn, n, a):
    tpr_lo = 1 - cp_upper(fn, n, a / 2)
    fpr_hi = cp_upper(n - tn, n, a / 2)
    ok = tpr_lo > 0
    return np.max(np.log(tpr_lo[ok]) - np.log(fpr_hi[ok]), initial=0)


def main():
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    alpha, true_eps = 0.05, 1.0
    rng = np.random.default_rng(0)
    over = {"frontier": 0, "distinct": 0, "max": 0}
    sizes = []
    for _ in range(trials):
        inn = np.sort(rng.laplace(1.0, 1.0, n))
        out = np.sort(rng.laplace(0.0, 1.0, n))
        thresholds = np.concatenate((np.union1d(inn, out), [np.inf]))
        fn = np.searchsorted(inn, thresholds, "left")
        tn = np.searchsorted(out, thresholds, "left")
        hull = frontier(np.stack([fn, tn], 1))
        sizes.append(len(hull))
        over["frontier"] += bound(fn[hull], tn[hull], n, alpha / len(hull)) > true_eps
        over["distinct"] += bound(fn, tn, n, alpha / len(thresholds)) > true_eps
        over["max"] += bound(fn, tn, n, alpha) > true_eps
    print(f"{trials} trials, {n} + {n} scores, frontier size median {int(np.median(sizes))}")
    for k, v in over.items():
        print(f"{k:>9}: bound above the true eps in {v / trials:.4f} of the trials")


if __name__ == "__main__":
    main()
