#!/usr/bin/python3
"""Golden numbers for tests/unit/test_empirical_composition.cpp's segment rule (the empirical
composition of the authors' first public CANIFE code, October 2022: each finite eps_r is the eps
of its audit's whole segment of rounds, an infinite one is skipped), computed independently of
the C++ code.

RDP of the Poisson-subsampled Gaussian: log A_alpha by scipy's adaptive quadrature (as
tests/golden/run_accountant.py) at the C++ default orders, converted by Canonne, Kamath & Steinke
2020, Prop. 12. A segment's noise: brentq on log sigma for eps(sigma, q, L, delta) = eps_r. The run
of Andrew et al. 2024, Sec. 5.4: q = 128/60000, 469 rounds, audits at rounds 0, 100, ..., 400
covering 1, 100, 100, 100, 168 rounds (backward), delta 1e-5.

Run: /usr/bin/python3 tests/golden/canife_composition.py (numpy 1.24.2, scipy 1.10.1 from
Debian 12; about 1 CPU-minute). It printed:
  constant eps_r 3: segments [1, 100, 100, 100, 168], sigma [0.5175682793035008, 0.57696335485189,
    0.57696335485189, 0.57696335485189, 0.5853819910155965], eps_hat 3.4339565440691926
  inf, 3, inf, 2, inf: segments [101, 368], sigma [0.5771172398618885, 0.6924633478558445],
    eps_hat 3.029678442444057
(scipy warns of roundoff in a few quadratures at the smallest noise; the values agree with
rdp-compose --eps 3 --q 0.0021333 --steps 100 --delta 1e-5, 0.57696338, to 1e-7.)
"""
import numpy as np
from scipy.optimize import brentq

# RDP of the Poisson-subsampled Gaussian by quadrature, and the default orders: the run
# accountant's golden script's (this folder).
from run_accountant import log_moment, orders

ORDERS = np.array(orders(), float)
Q, DELTA = 128 / 60000, 1e-5


def rdp(sigma, q):
    return np.array([log_moment(sigma, q, a) / (a - 1) for a in ORDERS])


def to_eps(r, delta):
    a = ORDERS
    e = np.where(delta * delta + np.expm1(-r) > 0, 0.0,
                 r + np.log1p(-1 / a) - (np.log(delta) + np.log(a)) / (a - 1))
    return max(0.0, e.min())


def segment_sigma(eps, steps):
    f = lambda ls: to_eps(steps * rdp(np.exp(ls), Q), DELTA) - eps
    return np.exp(brentq(f, np.log(1e-2), np.log(50), xtol=1e-12, rtol=1e-12))


def compose(segments):
    """segments: (eps_r, rounds) of the finite audits; eps_hat and each sigma."""
    sigmas = [segment_sigma(e, L) for e, L in segments]
    total = sum(L * rdp(s, Q) for s, (_, L) in zip(sigmas, segments))
    return to_eps(total, DELTA), sigmas


for name, segments in [("constant eps_r 3", [(3, 1), (3, 100), (3, 100), (3, 100), (3, 168)]),
                       ("inf, 3, inf, 2, inf", [(3, 101), (2, 368)])]:
    eps, sigmas = compose(segments)
    print(f"  {name}: segments {[L for _, L in segments]}, sigma {[float(s) for s in sigmas]}, "
          f"eps_hat {eps!r}")
