#!/usr/bin/python3
"""Golden numbers for tests/unit/test_{two_gaussian,cosine_null,analytic_gaussian,rdp}.cpp.

Computed independently of the C++ code: the hockey-stick divergence by numerical
integration of max(0, p - e^eps q) (mpmath.quad at 50 digits, split at the crossings
of the densities), the cosine null by mpmath.betainc, the RDP moments A_alpha by
integrating E_{mu0}[(mu/mu0)^alpha] numerically. Run: /usr/bin/python3 tests/golden/accounting.py
(mpmath 1.2.1, scipy 1.10.1 from Debian 12).
"""
import mpmath as mp
from scipy.stats import norm
from scipy.optimize import brentq

mp.mp.dps = 50


def hockey(logp, logq, eps, lo, hi, cuts):
    """int_lo^hi max(0, p - e^eps q), split at the given points."""
    f = lambda x: max(mp.mpf(0), mp.exp(logp(x)) - mp.exp(eps + logq(x)))
    pts = [lo] + sorted(c for c in cuts if lo < c < hi) + [hi]
    return mp.quad(f, pts)


def gauss_logpdf(m, s):
    return lambda x: -((x - m) / s) ** 2 / 2 - mp.log(s) - mp.log(mp.sqrt(2 * mp.pi))


def crossings(logp, logq, eps, lo, hi, n=4000):
    """Points where log p - log q crosses eps or -eps, found on a grid then refined."""
    out = []
    xs = [lo + (hi - lo) * i / n for i in range(n + 1)]
    for level in (eps, -eps):
        g = lambda x: logp(x) - logq(x) - level
        vals = [g(x) for x in xs]
        for a, b, va, vb in zip(xs, xs[1:], vals, vals[1:]):
            if va * vb < 0:
                out.append(mp.findroot(g, (a, b), solver='anderson'))
    return out


def two_gauss_delta(m1, s1, m2, s2, eps):
    p, q = gauss_logpdf(m1, s1), gauss_logpdf(m2, s2)
    lo = min(m1 - 40 * s1, m2 - 40 * s2)
    hi = max(m1 + 40 * s1, m2 + 40 * s2)
    cuts = crossings(p, q, eps, lo, hi)
    return max(hockey(p, q, eps, lo, hi, cuts), hockey(q, p, eps, lo, hi, cuts))


print("# two Gaussians, delta(eps) by quadrature")
for args in [(0, 1, 1, 2, 0.5), (0, 1, 1, 2, 3.0), (0.2, 0.05, 0.0, 0.1, 1.0), (0, 1, 0, 1.5, 0.2)]:
    print(args, mp.nstr(two_gauss_delta(*map(mp.mpf, args)), 17))

print("# two Gaussians, eps(delta) by brentq on the quadrature delta")
for m1, s1, m2, s2, d in [(0, 1, 1, 2, 1e-5), (0.2, 0.05, 0.0, 0.1, 1e-6)]:
    e = brentq(lambda e: float(two_gauss_delta(mp.mpf(m1), mp.mpf(s1), mp.mpf(m2), mp.mpf(s2), mp.mpf(e))) - d,
               0.01, 300, xtol=1e-13, rtol=1e-13)
    print((m1, s1, m2, s2, d), repr(e))

print("# analytic Gaussian mechanism: sigma(eps, 1e-6), scipy brentq on Balle-Wang delta")
bw = lambda s, e: norm.cdf(1 / (2 * s) - e * s) - mp.e ** e * norm.cdf(-1 / (2 * s) - e * s)
for e in (1, 3, 10):
    print(e, repr(brentq(lambda s: float(bw(s, e)) - 1e-6, 0.05, 100, xtol=1e-15, rtol=1e-15)))
print("# Balle-Wang delta in mpmath (sigma, eps)")
bwm = lambda s, e: mp.ncdf(1 / (2 * s) - e * s) - mp.e ** e * mp.ncdf(-1 / (2 * s) - e * s)
for s, e in [(1, 1), (0.1, 40), (4.224678889326836, 1)]:
    print((s, e), mp.nstr(bwm(mp.mpf(s), mp.mpf(e)), 17))

def null_logpdf(d):
    c = mp.loggamma(mp.mpf(d) / 2) - mp.loggamma(mp.mpf(d - 1) / 2) - mp.log(mp.sqrt(mp.pi))
    return lambda t: c + (mp.mpf(d) - 3) / 2 * mp.log(1 - t * t) if abs(t) < 1 else mp.mpf('-inf')

print("# cosine null: log P(T <= t) = log I_{(1+t)/2}(a, a), a = (d-1)/2")
def null_log_cdf(d, t):
    """log I_x(a, a), x = (1+t)/2: betainc, or for huge d (where betainc gives up)
    I_x(a,b) = x^a (1-x)^b / (a B(a,b)) 2F1(a+b, 1; a+1; x) (DLMF 8.17.8)."""
    t = mp.mpf(t)
    a = mp.mpf(d - 1) / 2
    x = (1 + t) / 2
    if d < 10000:
        return mp.log(mp.betainc(a, a, 0, x, regularized=True))
    log_prefactor = a * mp.log(x) + a * mp.log(1 - x) - mp.log(a) - (2 * mp.loggamma(a) - mp.loggamma(2 * a))
    return log_prefactor + mp.log(mp.hyp2f1(2 * a, 1, a + 1, x, maxterms=10**6))

for d, t in [(10, -0.5), (1000, -0.1), (1000000, -0.003), (1000000, -0.05), (100, -0.9), (1000, 0.05)]:
    print((d, t), mp.nstr(null_log_cdf(d, t), 17))

print("# exact null vs Gaussian, delta(eps) by quadrature")
def null_delta(d, m, s, eps):
    p, q = null_logpdf(d), gauss_logpdf(m, s)
    inner = mp.mpf(1) - mp.mpf(10) ** -30
    cuts = crossings(p, q, eps, -inner, inner)
    pq = hockey(p, q, eps, -inner, inner, cuts)
    # alt over null: inside (-1,1) plus the alternative's mass outside it
    qp = hockey(q, p, eps, -inner, inner, cuts) + mp.ncdf((-1 - m) / s) + mp.ncdf((m - 1) / s)
    return max(pq, qp)

table2_eps3 = 1.5438614177756411  # sigma of Andrew et al. 2024, Table 2 for eps 3, from above
for d, m, s, eps in [(50, 0.3, 0.15, 1.0), (50, 0.3, 0.15, 3.0), (10, 0.5, 0.4, 0.5), (2000, 0.05, 0.03, 2.0),
                     (1000, 1 / (table2_eps3 * mp.sqrt(1000)), 1 / mp.sqrt(1000), 3.0)]:
    print((d, m, s, eps), mp.nstr(null_delta(d, mp.mpf(m), mp.mpf(s), mp.mpf(eps)), 17))

print("# RDP of the Poisson-subsampled Gaussian: log A_alpha / (alpha - 1) by quadrature")
def rdp(sigma, q, alpha):
    sigma, q, alpha = mp.mpf(sigma), mp.mpf(q), mp.mpf(alpha)
    mu0 = lambda z: mp.npdf(z, 0, sigma)
    mu1 = lambda z: mp.npdf(z, 1, sigma)
    f = lambda z: mu0(z) * ((1 - q) + q * mu1(z) / mu0(z)) ** alpha
    a = mp.quad(f, [-mp.inf, -10 * sigma, 0, 1, 1 + 10 * sigma + alpha * sigma**2, mp.inf])
    return mp.log(a) / (alpha - 1)

for sigma, q, alpha in [(1.1, 0.01, 2.5), (1.1, 0.01, 8), (1.1, 0.01, 32), (0.8, 0.05, 1.5), (2.0, 0.3, 12.7), (5.0, 1e-3, 3)]:
    print((sigma, q, alpha), mp.nstr(rdp(sigma, q, alpha), 17))

print("# RDP without replacement: Wang, Balle & Kasiviswanathan 2019, Thm 9 (integer) and Cor. 10")
def wor_log_a(sigma, q, alpha):
    sigma, q = mp.mpf(sigma), mp.mpf(q)
    eps = lambda j: mp.mpf(j) / (2 * sigma**2)
    a = 1 + q**2 * mp.binomial(alpha, 2) * min(4 * (mp.e**eps(2) - 1), 2 * mp.e**eps(2))
    a += sum(2 * q**j * mp.binomial(alpha, j) * mp.e**((j - 1) * eps(j)) for j in range(3, alpha + 1))
    return mp.log(a)

def wor_rdp(sigma, q, alpha):
    lo, hi = int(mp.floor(alpha)), int(mp.ceil(alpha))
    if lo == hi:
        return wor_log_a(sigma, q, lo) / (alpha - 1)
    t = mp.mpf(alpha) - lo
    at_lo = 0 if lo < 2 else wor_log_a(sigma, q, lo)
    return ((1 - t) * at_lo + t * wor_log_a(sigma, q, hi)) / (mp.mpf(alpha) - 1)

for sigma, q, alpha in [(1.1, 0.01, 8), (1.1, 0.01, 2.5), (0.8, 0.05, 1.5), (2.0, 0.3, 32), (0.5, 0.001, 12)]:
    print((sigma, q, alpha), mp.nstr(wor_rdp(sigma, q, alpha), 17))
