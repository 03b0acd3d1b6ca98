#!/usr/bin/env python3
"""Golden values for tests/unit/test_balls_in_bins.cpp: the exact eps(delta) of one epoch of
balls-in-bins DP-SGD with B = 2 batches (lib/accounting/balls_in_bins.hpp's pair), in both
adjacency directions, by mpmath at 30 digits.

For fixed x2 the event {L > eps} (remove) is {x1 > g(x2)}, and {-L > eps} (add) is
{x1 < g'(x2)}, with closed-form Gaussian masses in x1; what is left is one integral over x2:
  remove: delta = int dx2 [ (phi(x2) Phi^c((g-1)/s) + phi(x2-1) Phi^c(g/s)) / 2
                            - e^eps phi(x2) Phi^c(g/s) ],
          e^((g - 1/2)/s^2) = 2 e^eps - e^((x2 - 1/2)/s^2)   (g = -inf where that is <= 0);
  add:    delta = int dx2 [ phi(x2) Phi(g'/s)
                            - e^eps (phi(x2) Phi((g'-1)/s) + phi(x2-1) Phi(g'/s)) / 2 ],
          e^((g' - 1/2)/s^2) = 2 e^-eps - e^((x2 - 1/2)/s^2)  (no x1 where that is <= 0),
phi the N(0, s^2) density. eps(delta) by bisection to 1e-9.
Run: /usr/bin/python3 tests/golden/balls_in_bins.py
"""
import mpmath as mp

mp.mp.dps = 30


def delta(s, eps, direction):
    s = mp.mpf(s)
    eps = mp.mpf(eps)
    phi = lambda x: mp.npdf(x, 0, s)
    Phi = lambda z: mp.ncdf(z)
    e = mp.e ** eps

    def integrand(x2):
        other = mp.e ** ((x2 - mp.mpf(1) / 2) / s**2)
        if direction == "remove":
            rhs = 2 * e - other
            if rhs <= 0:
                return (phi(x2) + phi(x2 - 1)) / 2 - e * phi(x2)
            g = mp.mpf(1) / 2 + s**2 * mp.log(rhs)
            return ((phi(x2) * (1 - Phi((g - 1) / s)) + phi(x2 - 1) * (1 - Phi(g / s))) / 2
                    - e * phi(x2) * (1 - Phi(g / s)))
        rhs = 2 / e - other
        if rhs <= 0:
            return mp.mpf(0)
        g = mp.mpf(1) / 2 + s**2 * mp.log(rhs)
        return phi(x2) * Phi(g / s) - e * (phi(x2) * Phi((g - 1) / s) + phi(x2 - 1) * Phi(g / s)) / 2

    # the add integrand is 0 beyond the x2 where 2 e^-eps = e^((x2 - 1/2)/s^2)
    top = mp.mpf(1) / 2 + s**2 * mp.log(2 / e) if direction == "add" else 40 * s
    points = [-40 * s, -5 * s, 0, 1, 5 * s, top] if direction == "remove" else [-40 * s, -5 * s, 0, top]
    points = sorted(set(p for p in points if p <= top))
    return mp.quad(integrand, points)


def epsilon(s, target, direction):
    lo, hi = mp.mpf(0), mp.mpf(1)
    while delta(s, hi, direction) > target:
        hi *= 2
    if delta(s, 0, direction) <= target:
        return mp.mpf(0)
    while hi - lo > mp.mpf("1e-9"):
        mid = (lo + hi) / 2
        if delta(s, mid, direction) > target:
            lo = mid
        else:
            hi = mid
    return hi


if __name__ == "__main__":
    print("s,batches,delta,eps_remove,eps_add")
    for s, target in [(1.0, 1e-2), (1.0, 1e-3), (0.7, 1e-3)]:
        r = epsilon(s, target, "remove")
        a = epsilon(s, target, "add")
        print(f"{s},2,{target},{mp.nstr(r, 10)},{mp.nstr(a, 10)}")
