#!/usr/bin/python3
"""Golden numbers for tests/unit/test_pld_mixture.cpp: the exact (eps, delta) of one release of
the mixture-of-Gaussians mechanism, P = sum_k p_k N(k, s^2) against Q = N(0, s^2) (remove) and
the mirror (add: P = N(0, s^2), Q = the mixture), K ~ Binomial(m, q).

Computed independently of the C++ code, in mpmath at 60 digits: the loss
L(x) = log sum_k p_k exp((2 k x - k^2) / (2 s^2)) is increasing in x, so {L > eps} is a half-line
{x > x*} (remove) or {x < x*} (add) with L(x*) = eps (mpmath.findroot), and
delta(eps) = P(L > eps) - e^eps Q(L > eps) is a sum of normal tails (mpmath.ncdf). eps(delta) by
bisection on delta(eps) to 1e-12; the larger of the two directions. Components with
p_k < 1e-70 are left out (below the 60 digits' effect on the printed values).

Also the Gaussian mechanism's closed form eps (Balle & Wang 2018: delta(eps) =
Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)) for dp_accounting's q = 1 row.

Run: /usr/bin/python3 tests/golden/mog.py (mpmath 1.3.0; about 8 minutes on one
core); prints the values the tests cite.
"""
import mpmath as mp

mp.mp.dps = 60


def binomial(m, q):
    q = mp.mpf(q)
    ks, ps = [], []
    mode = int((m + 1) * q)
    for k in range(m + 1):
        lp = mp.loggamma(m + 1) - mp.loggamma(k + 1) - mp.loggamma(m - k + 1) + k * mp.log(q) + (
            m - k) * mp.log1p(-q) if q < 1 else (0 if k == m else -mp.inf)
        if lp > mp.log(mp.mpf('1e-70')):
            ks.append(k)
            ps.append(mp.exp(lp))
        elif k > mode and ks:
            break
    return ks, ps


def delta_of(ks, ps, s, eps, direction):
    s = mp.mpf(s)
    eps = mp.mpf(eps)
    mix = lambda x: mp.log(mp.fsum(p * mp.exp((2 * k * x - k * k) / (2 * s * s)) for k, p in zip(ks, ps)))
    if direction == 'remove':  # L = mix(x), increasing; {L > eps} = {x > x*}
        g = lambda x: mix(x) - eps
        p0 = ps[0] if ks[0] == 0 else 0
        if p0 > 0 and eps <= mp.log(p0):
            return 1 - mp.exp(eps)
        x = bracket_root(g)
        P = mp.fsum(p * mp.ncdf(-(x - k) / s) for k, p in zip(ks, ps))
        Q = mp.ncdf(-x / s)
        return P - mp.exp(eps) * Q
    # add: L = -mix(x), decreasing; {L > eps} = {x < x*}
    g = lambda x: -mix(x) - eps
    p0 = ps[0] if ks[0] == 0 else 0
    if p0 > 0 and eps >= -mp.log(p0):
        return mp.mpf(0)
    x = bracket_root(lambda t: -g(t))
    P = mp.ncdf(x / s)
    Q = mp.fsum(p * mp.ncdf((x - k) / s) for k, p in zip(ks, ps))
    return P - mp.exp(eps) * Q


def bracket_root(g):
    """The root of an increasing g, by bisection then findroot."""
    lo, hi = mp.mpf(-1), mp.mpf(1)
    while g(lo) > 0:
        lo *= 2
    while g(hi) < 0:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if g(mid) < 0:
            lo = mid
        else:
            hi = mid
        if hi - lo < mp.mpf('1e-40') * (1 + abs(lo)):
            break
    return (lo + hi) / 2


def epsilon(ks, ps, s, delta):
    best = mp.mpf(0)
    for direction in ('remove', 'add'):
        f = lambda e: delta_of(ks, ps, s, e, direction) - delta
        if f(0) <= 0:
            continue
        lo, hi = mp.mpf(0), mp.mpf(1)
        while f(hi) > 0:
            hi *= 2
        while hi - lo > mp.mpf('1e-13'):
            mid = (lo + hi) / 2
            if f(mid) > 0:
                lo = mid
            else:
                hi = mid
        best = max(best, hi)
    return best


def gaussian_eps(mu, delta):
    mu = mp.mpf(mu)
    f = lambda e: mp.ncdf(-e / mu + mu / 2) - mp.exp(e) * mp.ncdf(-e / mu - mu / 2) - delta
    return mp.findroot(f, 4)


if __name__ == '__main__':
    # One release, exact delta at several eps (m 3, q 0.3, s 1.5), both directions.
    ks, ps = binomial(3, 0.3)
    for direction in ('remove', 'add'):
        for eps in (0, 0.25, 0.5, 1, 2):
            print(f'delta m=3 q=0.3 s=1.5 {direction} eps={eps}: {mp.nstr(delta_of(ks, ps, 1.5, eps, direction), 15)}')
    # dp_accounting's q = 1 row: N(0, 100 * 10^2) against N(100, 100 * 10^2), mu = 1.
    print('gaussian mu=1 delta=1e-5: eps =', mp.nstr(gaussian_eps(1, mp.mpf('1e-5')), 15))
    # The last-iterate rows of ../shared/reference/mog_dp_accounting.csv (release = final):
    # N(0, T s^2) against N(K, T s^2), K ~ Binomial(T, q).
    for s, q, T, delta in [(1.1, 0.01, 10000, 1e-5), (1.1, 256 / 60000, 14062, 1e-5),
                           (0.8, 128 / 60000, 469, 1e-5), (1.0, 1 / 30, 1500, 1e-5),
                           (1.452, 0.000409, 151, 1e-6), (1.152, 0.000343, 398, 1e-7),
                           (2.485, 0.069362, 75, 1e-6), (2.501, 0.071361, 47, 1e-5)]:
        ks, ps = binomial(T, q)
        e = epsilon(ks, ps, s * mp.sqrt(T), mp.mpf(delta))
        print(f'final s={s} q={q} T={T} delta={delta}: eps = {mp.nstr(e, 12)}')
