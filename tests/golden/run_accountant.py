#!/usr/bin/python3
"""Golden numbers for tests/unit/test_run_accountant.cpp (CANIFE's user-level example) and
tests/unit/test_tradeoff_curve.cpp (DP-SGD's curve), computed independently of the C++ code.

PLD: the privacy loss of one Poisson-subsampled Gaussian step, both neighbour orders (remove:
(1-q) N(0,s^2) + q N(1,s^2) against N(0,s^2); add: the reverse), on 200000 cells of
[-9s, 1 + 9s] with exact masses (scipy's normal cdf); each cell's loss taken at its worse
(pessimistic) or better (optimistic) end and rounded up (down) to the lattice h Z, the tails
sent to +inf (pessimistic) or to their limit (optimistic); T steps composed by numpy's FFT;
delta(eps) = P[inf] + sum_{l > eps} p_l (1 - e^(eps - l)), the larger of the two orders. The
pessimistic profile is an upper bound of the true one and the optimistic a lower bound, so
each eps (and each f-DP value) is bracketed. Checked against Google dp_accounting's goldens
(tests/golden/pld_dp_accounting.csv rows sigma 4.21/q 0.0116/248 steps, sigma 0.459/1 step,
sigma 0.440/34 steps): ours [0.19600, 0.22087] holds its [0.19603, 0.20845], [1.40140,
1.40168] its [1.40149, 1.40154], [5.01819, 5.02183] its [5.01831, 5.01978].

RDP: A_alpha = E_{x ~ N(0,s^2)}[((1-q) + q e^((2x-1)/(2s^2)))^alpha] (Mironov, Talwar &
Zhang 2019) by scipy's adaptive quadrature at the C++ default orders (checked against the
binomial closed form at integer orders, to 1e-13), converted by Canonne, Kamath & Steinke 2020,
Prop. 12, as the C++ rdp_to_dp.

Run: /usr/bin/python3 tests/golden/run_accountant.py (numpy 1.24.2, scipy 1.10.1 from
Debian 12; about 10 CPU-minutes). It printed:
  tradeoff sigma 2.248 q 0.1 T 100: PLD f(0.01) in [0.9674601473790576, 0.9675262439824658]
  tradeoff sigma 2.248 q 0.1 T 100: RDP f(0.01) 0.9608696084960713 (sup over delta)
  canife q 1/30 T 300 delta 1e-5: RDP sigma for eps 50: 0.3846380259772383
  canife: RDP eps at sigma 0.3687850432099635 56.50003542616021
  canife: PLD eps at sigma 0.3687850432099635 in [49.870000000000005, 50.176]
"""
import numpy as np
from scipy import integrate
from scipy.optimize import brentq
from scipy.stats import norm


def step_pld(sigma, q, h, pessimistic, direction):
    """One step's privacy loss on the lattice h Z: (first index, masses, mass at +inf)."""
    s2 = sigma * sigma
    edges = np.linspace(-9 * sigma, 1 + 9 * sigma, 200001)
    L = lambda x: np.logaddexp(np.log1p(-q), np.log(q) + (2 * x - 1) / (2 * s2))  # remove
    if direction == 'remove':  # x ~ (1-q) N(0,s^2) + q N(1,s^2): loss L(x), increasing
        cdf = (1 - q) * norm.cdf(edges / sigma) + q * norm.cdf((edges - 1) / sigma)
        loss = L(edges[1:]) if pessimistic else L(edges[:-1])
        tails = (L(edges[0]) if pessimistic else np.log1p(-q),
                 np.inf if pessimistic else L(edges[-1]))
    else:  # x ~ N(0,s^2): loss -L(x), decreasing
        cdf = norm.cdf(edges / sigma)
        loss = -L(edges[:-1]) if pessimistic else -L(edges[1:])
        tails = (-np.log1p(-q) if pessimistic else -L(edges[0]),
                 -L(edges[-1]) if pessimistic else -np.inf)
    losses = np.concatenate([[tails[0]], loss, [tails[1]]])
    masses = np.concatenate([[cdf[0]], np.diff(cdf), [1 - cdf[-1]]])
    inf_mass = masses[np.isposinf(losses)].sum()
    keep = np.isfinite(losses)
    idx = (np.ceil if pessimistic else np.floor)(losses[keep] / h).astype(np.int64)
    return idx.min(), np.bincount(idx - idx.min(), weights=masses[keep]), inf_mass


def composed_deltas(sigma, q, T, h, pessimistic, eps_grid):
    out = []
    for direction in ('remove', 'add'):
        lo, pmf, inf_mass = step_pld(sigma, q, h, pessimistic, direction)
        n = T * (len(pmf) - 1) + 1
        size = 1 << int(np.ceil(np.log2(n)))
        pmf = np.maximum(np.fft.irfft(np.fft.rfft(pmf, size) ** T, size)[:n], 0)
        inf_mass = 1 - (1 - inf_mass) ** T
        l = (T * lo + np.arange(n)) * h
        s1 = np.cumsum(pmf[::-1])[::-1]  # sum_{l' >= l} p
        s2 = np.cumsum((pmf * np.exp(-np.maximum(l, 0)))[::-1])[::-1]
        i = np.searchsorted(l, eps_grid, side='right')  # the first loss above eps (eps >= 0)
        ok = i < n
        d = np.full(len(eps_grid), inf_mass)
        d[ok] += s1[i[ok]] - np.exp(eps_grid[ok]) * s2[i[ok]]
        out.append(np.maximum(d, 0))
    return np.maximum(out[0], out[1])


def pld_epsilon(sigma, q, T, delta, h, pessimistic, lo, hi):
    eps = np.linspace(lo, hi, 40001)
    return eps[np.argmax(composed_deltas(sigma, q, T, h, pessimistic, eps) <= delta)]


def orders():
    return [1 + x / 10 for x in range(1, 100)] + list(range(11, 64)) + [128, 256, 512, 1024]


def log_moment(sigma, q, a):
    s2 = sigma * sigma
    g = lambda x: -x * x / (2 * s2) - 0.5 * np.log(2 * np.pi * s2) + a * np.logaddexp(
        np.log1p(-q), np.log(q) + (2 * x - 1) / (2 * s2))
    xs = np.linspace(-40 * sigma, a + 40 * sigma + 1, 20001)
    gx = g(xs)
    m = gx.max()
    pts = sorted({0.0, float(xs[np.argmax(gx)]), float(min(a, xs[-1]))})
    val, _ = integrate.quad(lambda x: np.exp(g(x) - m), xs[0], xs[-1], points=pts, limit=1000,
                            epsabs=0, epsrel=1e-11)
    return m + np.log(val)


def rdp_epsilon(sigma, q, T, delta):
    a = np.array(orders(), float)
    r = np.array([T * log_moment(sigma, q, x) / (x - 1) for x in a])
    e = np.where(delta * delta + np.expm1(-r) > 0, 0.0,
                 r + np.log1p(-1 / a) - (np.log(delta) + np.log(a)) / (a - 1))
    return max(0.0, e.min())


def tradeoff_at(x, eps, delta):
    """sup over the pairs of f_{eps,delta}(x) (Dong, Roth & Su 2022, Prop. 2.5 and 2.12)."""
    return np.max(np.maximum(0, np.maximum(1 - delta - np.exp(eps) * x,
                                           np.exp(-eps) * (1 - delta - x))))


if __name__ == '__main__':
    # Nasr et al. 2021's CI-gate run: sigma 2.248, q 0.1, 100 steps; the curves at 0.01.
    eps = np.linspace(0, 8, 80001)
    f = [tradeoff_at(0.01, eps, composed_deltas(2.248, 0.1, 100, 2e-5, p, eps)) for p in (True, False)]
    print('tradeoff sigma 2.248 q 0.1 T 100: PLD f(0.01) in', f)
    deltas = np.exp(np.linspace(np.log(1e-12), np.log(0.999), 20001))
    a = np.array(orders(), float)
    r = np.array([100 * log_moment(2.248, 0.1, x) / (x - 1) for x in a])
    best = 0
    for d in deltas:
        e = max(0.0, np.min(np.where(d * d + np.expm1(-r) > 0, 0.0,
                                     r + np.log1p(-1 / a) - (np.log(d) + np.log(a)) / (a - 1))))
        best = max(best, tradeoff_at(0.01, np.array([e]), d))
    print('tradeoff sigma 2.248 q 0.1 T 100: RDP f(0.01)', best, '(sup over delta)')
    # CANIFE's user-level example: q = 100/3000, 300 rounds, eps 50 at delta 1e-5.
    q, T = 100 / 3000, 300
    s = brentq(lambda z: rdp_epsilon(z, q, T, 1e-5) - 50, 0.3, 1.5, xtol=1e-7, rtol=1e-9)
    print('canife q 1/30 T 300 delta 1e-5: RDP sigma for eps 50:', s)
    z = 0.3687850432099635  # the C++ PLD calibration's (rdp-compose --accountant pld --eps 50)
    print('canife: RDP eps at sigma', z, rdp_epsilon(z, q, T, 1e-5))
    print('canife: PLD eps at sigma', z, 'in',
          [pld_epsilon(z, q, T, 1e-5, 1e-3, p, 30, 70) for p in (False, True)])
