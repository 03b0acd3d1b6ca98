#!/usr/bin/python3
"""Golden numbers for tests/unit/test_shuffle_lower_bound.cpp.

The pair (Chua, Ghazi, Kamath, Kumar, Manurangsi, Sinha & Zhang 2024, "How private are
DP-SGD implementations?"): one epoch of B batches, the statistic M = max_t X_t of the B
noisy batch sums, X ~ (1/B) sum_t N(mu e_t, s^2 I), mu = 2 under P (the record present),
mu = 1 under Q (the record zeroed out); E epochs compose.

Computed here without the C++ code's method (which merges outcomes into cells whose loss
sits on a lattice point): the law of M is cut into fine slices of width g; within a slice
the exact privacy loss L(c) = log f_P(c) - log f_Q(c) (densities of M, in logs, scipy) lies
between its values at the slice's two ends (min and max of the two); the slice's P-mass is
put at floor(min L / h) for a lower PLD and at ceil(max L / h) for an upper one. delta(eps)
= E_P[(1 - e^(eps - L))_+] rises with every loss, so the two PLDs, composed E times by numpy
FFT, bracket the true delta(eps) of E epochs of the pair (the mass beyond the slices, below
1e-15, is dropped in the lower and sent to +inf in the upper). eps(delta) by brentq on both.

Monte Carlo of the same pair: N epochs-sets under P, M drawn exactly (the special batch's
N(2, s^2) and the max of B - 1 N(0, s^2) by the inverse CDF of U^(1/(B-1))), the exact
loss summed over the E epochs, delta(eps) = mean of (1 - e^(eps - sum L))_+ with its
standard error; numpy's default_rng(SEED), N draws.

One epoch (E = 1) once more, as Chua et al. 2024 compute it: the best threshold test on M,
max over c of P(M > c) - e^eps Q(M > c) (their "cube" sets; c on a grid of 0.001), inverted
by brentq. The loss rises with M (checked on a grid), so a threshold is the optimal test and
this is the pair's exact eps up to the grid.

Run: /usr/bin/python3 tests/golden/shuffle_lower_bound.py  (numpy 1.24, scipy 1.10, Debian 12;
about a minute).
"""
import numpy as np
from scipy import stats
from scipy.optimize import brentq

SEED = 20261126
N_MC = 2_000_000


def log_cdf_max(c, mu, s, b):
    """log P(M <= c): the special batch below c and the b - 1 others too."""
    return stats.norm.logcdf((c - mu) / s) + (b - 1) * stats.norm.logcdf(c / s)


def log_density_max(c, mu, s, b):
    a = stats.norm.logpdf((c - mu) / s) + (b - 1) * stats.norm.logcdf(c / s)
    if b == 1:
        return a - np.log(s)
    o = (np.log(b - 1) + stats.norm.logcdf((c - mu) / s) + (b - 2) * stats.norm.logcdf(c / s)
         + stats.norm.logpdf(c / s))
    return np.logaddexp(a, o) - np.log(s)


def loss(c, s, b):
    return log_density_max(c, 2.0, s, b) - log_density_max(c, 1.0, s, b)


def slices(s, b, h):
    lo = s * stats.norm.ppf(np.exp(np.log(1e-16) / b)) - 2 * s if b > 1 else 2 - 9 * s
    hi = 2 + 9 * s
    g = h * s * s / 8  # the loss rises at most ~2/s^2 per unit of c: ~h/4 a slice
    c = np.arange(lo, hi + g, g)
    lf = log_cdf_max(c, 2.0, s, b)
    mass = np.diff(np.exp(lf))
    # the upper tail by the survival function, where the CDF is near 1
    sv = -np.expm1(lf)
    upper = lf > np.log(0.5)
    mass[upper[:-1]] = (sv[:-1] - sv[1:])[upper[:-1]]
    lc = loss(c, s, b)
    return mass, np.minimum(lc[:-1], lc[1:]), np.maximum(lc[:-1], lc[1:]), 1 - mass.sum()


def compose(idx, mass, e):
    first = idx.min()
    pmf = np.bincount(idx - first, weights=mass)
    n = e * (len(pmf) - 1) + 1
    size = 1 << int(np.ceil(np.log2(n)))
    out = np.fft.irfft(np.fft.rfft(pmf, size) ** e, size)[:n]
    return e * first, np.maximum(out, 0)


def delta_of(first, pmf, h, eps, inf_mass=0.0):
    lv = (first + np.arange(len(pmf))) * h
    w = lv > eps
    return inf_mass + np.sum(pmf[w] * -np.expm1(eps - lv[w]))


def bracket(s, b, e, h):
    mass, lmin, lmax, rest = slices(s, b, h)
    lo = compose(np.floor(lmin / h).astype(np.int64), mass, e)
    up = compose(np.ceil(lmax / h).astype(np.int64), mass, e)
    inf_up = 1 - (1 - rest) ** e
    return (lambda eps: delta_of(*lo, h, eps)), (lambda eps: delta_of(*up, h, eps, inf_up))


def eps_of(delta_fn, delta):
    if delta_fn(0.0) <= delta:
        return 0.0
    return brentq(lambda x: delta_fn(x) - delta, 0.0, 200.0, xtol=1e-12)


def cube_eps(s, b, delta):
    grid = np.linspace(-3.0, 2.0 + 9.0 * s, 20001)
    assert np.all(np.diff(loss(grid, s, b)) > 0), "the loss does not rise with M"
    c = np.arange(-5.0, 40.0, 0.001)
    out = lambda mu: -np.expm1(log_cdf_max(c, mu, s, b))
    hs = lambda eps: np.max(out(2.0) - np.exp(eps) * out(1.0))
    return brentq(lambda e: hs(e) - delta, 0.0, 100.0, xtol=1e-12)


def monte_carlo(s, b, e, eps, rng, n):
    total = np.zeros(n)
    for _ in range(e):
        special = rng.normal(2.0, s, n)
        if b > 1:
            others = s * stats.norm.ppf(rng.random(n) ** (1.0 / (b - 1)))
            m = np.maximum(special, others)
        else:
            m = special
        total += loss(m, s, b)
    w = np.where(total > eps, -np.expm1(eps - total), 0.0)
    return w.mean(), w.std(ddof=1) / np.sqrt(n)


if __name__ == "__main__":
    rng = np.random.default_rng(SEED)
    print("# (noise s, batches B, epochs E, delta): eps of the pair, lower and upper, h 1e-4")
    for s, b, e, d in [(1.0, 10, 10, 1e-5), (0.5, 100, 5, 1e-5), (2.0, 1000, 20, 1e-5),
                       (0.8, 10, 1, 1e-3)]:
        lo, up = bracket(s, b, e, 1e-4)
        print((s, b, e, d), repr(eps_of(lo, d)), repr(eps_of(up, d)))
    print("# one epoch by Chua et al.'s threshold (cube) test: (s, B, delta): eps")
    for s, b, d in [(1.0, 10, 1e-5), (0.5, 100, 1e-5), (1.0, 1000, 1e-5), (2.0, 1000, 1e-5)]:
        print((s, b, d), repr(cube_eps(s, b, d)))
    print(f"# Monte Carlo, seed {SEED}, {N_MC} draws: (s, B, E, eps): delta, its standard "
          "error, and the bracket")
    for s, b, e, x in [(1.0, 10, 10, 1.0), (0.5, 100, 5, 3.0)]:
        lo, up = bracket(s, b, e, 1e-4)
        mean, se = monte_carlo(s, b, e, x, rng, N_MC)
        print((s, b, e, x), repr(mean), repr(se), repr(lo(x)), repr(up(x)))
