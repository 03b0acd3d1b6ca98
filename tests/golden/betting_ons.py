#!/usr/bin/env python3
"""Independent recomputation of the betting e-process of lib/stats/betting.hpp (online Newton
step, Cutkosky & Orabona 2018; Shekhar & Ramdas 2023, Alg. 1) in plain Python floats, for
tests/unit/test_betting.cpp: outcomes g_t = a sin(t) + b for t = 1..n.
    python3 tests/golden/betting_ons.py"""
import math

def ons(outcomes):
    gain = 2 / (2 - math.log(3))
    lam, a, logw = 0.0, 1.0, 0.0
    for g in outcomes:
        f = 1 + lam * g
        logw += math.log(f)
        z = g / f
        a += z * z
        lam = min(0.5, max(0.0, lam + gain * z / a))
    return logw, lam

for amp, drift, n in [(0.9, 0.1, 1000), (1.0, 0.0, 5000), (0.5, 0.02, 20000)]:
    logw, lam = ons([amp * math.sin(t) + drift for t in range(1, n + 1)])
    print(f"a={amp} b={drift} n={n}: log W = {logw!r}, next fraction = {lam!r}")
