#!/usr/bin/python3
"""Andrew et al. 2024, Sec. 3.1: "we simulated 1M samples from the correct cosine distribution with
d = 1000, and the strong Anderson-Darling test failed to reject the null hypothesis of Gaussianity
at even the low significance level of 0.15". Here the samples are dpaudit's own: the cosines of
N sphere canaries (canary-gen) with one fixed vector (score-dump), so the check is also one of the
null sampler. Usage: anderson.py SCORES.csv [SCORES.csv ...] (score-dump's CSV, column score).

For each file, three Anderson-Darling statistics A^2:
  exact     against the exact null of Andrew et al. 2024, Thm 3.1 (fully specified):
            P(T <= t) = I_{(1+t)/2}((d-1)/2, (d-1)/2); p-value from the asymptotic distribution
            (Marsaglia & Marsaglia 2004, ADinf; exact enough at N = 10^6)
  N(0,1/d)  against Thm 3.2's Gaussian limit, fully specified, the same p-value
  Gaussian  Andrew et al.'s test: normality with mean and sd fitted (scipy.stats.anderson,
            Stephens' critical values 0.576 / 0.656 / 0.787 / 0.918 / 1.092 at 15 / 10 / 5 /
            2.5 / 1%)
Prints one markdown row per file.
"""
import math
import sys

import numpy as np
from scipy import special, stats


def a2(cdf_sorted):
    """A^2 of sorted probabilities F(x_(i)), i = 1..n, in log space."""
    n = len(cdf_sorted)
    i = np.arange(1, n + 1)
    log_f = np.log(cdf_sorted)
    log_sf = np.log1p(-cdf_sorted[::-1])
    return -n - np.sum((2 * i - 1) * (log_f + log_sf)) / n


def adinf_pvalue(z):
    """1 - P(A^2 <= z) under the asymptotic distribution (Marsaglia & Marsaglia 2004)."""
    if z < 2:
        cdf = math.exp(-1.2337141 / z) / math.sqrt(z) * (
            2.00012 + (0.247105 - (0.0649821 - (0.0347962 - (0.011672 - 0.00168691 * z) * z) * z)
                       * z) * z)
    else:
        cdf = math.exp(-math.exp(1.0776 - (2.30695 - (0.43424 - (0.082433 - (0.008056 - 0.0003146 * z)
                                                                    * z) * z) * z) * z))
    return 1 - cdf


def main():
    print("| file | N | d | A^2 exact null (p) | A^2 N(0, 1/d) (p) | A^2 Gaussian, mean and sd fitted "
          "| rejects Gaussianity at 0.15? |")
    print("|---|---|---|---|---|---|---|")
    for path in sys.argv[1:]:
        data = np.genfromtxt(path, delimiter=",", names=True)
        x = np.sort(data["score"])
        d = int(data["dim"][0])
        a = (d - 1) / 2
        exact = a2(special.betainc(a, a, (1 + x) / 2))
        limit = a2(stats.norm.cdf(x * math.sqrt(d)))
        fitted = stats.anderson(x, "norm")
        crit15 = fitted.critical_values[list(fitted.significance_level).index(15.0)]
        print(f"| {path.rsplit('/', 1)[-1]} | {len(x)} | {d} | {exact:.3f} ({adinf_pvalue(exact):.2f}) "
              f"| {limit:.3f} ({adinf_pvalue(limit):.2f}) | {fitted.statistic:.3f} "
              f"| {'yes' if fitted.statistic > crit15 else 'no'} ({crit15:.3f}) |")


if __name__ == "__main__":
    main()
