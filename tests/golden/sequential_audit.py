#!/usr/bin/env python3
"""Independent recomputation of two anytime-valid bounds of lib/stats/sequential_audit.hpp, for
tests/unit/test_sequential_audit.cpp, written from the header's description (not from the C++):
  - a score game whose every trial separates perfectly (in score 1, out score 0): after the 16
    warm-up trials both rules are "score >= 1" (the ROC hull's vertex (0, n) for every slope),
    so every outcome is (1 - delta)/(e^eps + delta), for both rules;
  - a decision game with labels 1, 0, 1, 0, ... and perfect guesses: rule + sees
    (2 - delta)/(2 e^eps + delta) on label-1 trials and -delta/(2 e^eps + delta) on label-0
    trials, rule - the other way round.
Grid points j * step (j / m for a step 1/m) bet while they lie within 2 above the first uncrossed one; a point is
crossed once W+ + W- >= 2/alpha (1 + 1e-6); eps_lo is the point below the first uncrossed one
(0 when that is point 0 or 1).        python3 tests/golden/sequential_audit.py"""
import math

GAIN = 2 / (2 - math.log(3))
WINDOW = 2.0

class Lane:
    def __init__(self):
        self.lam, self.a, self.w = 0.0, 1.0, 1.0

    def bet(self, g):
        f = 1 + self.lam * g
        self.w *= f
        z = g / f
        self.a += z * z
        self.lam = min(0.5, max(0.0, self.lam + GAIN * z / self.a))

def eps_lo(outcome, n, step, eps_max, alpha, delta, warmup, above=None):
    """The bound after n trials; with `above`, the first trial count at which it exceeds it."""
    points = int(math.floor(eps_max / step + 1e-9)) + 1
    m = round(1 / step)  # points j / m for a step 1/m (so 3.01 prints as 3.01), else j * step
    grid = [j / m if m >= 1 and abs(1 / step - m) < 1e-9 else j * step for j in range(points)]
    plus = [Lane() for _ in grid]
    minus = [Lane() for _ in grid]
    crossed = [False] * points
    level = 2.0 / alpha * (1 + 1e-6)
    frontier = 0
    for t in range(warmup, n):
        end = min(points, int((frontier * step + WINDOW) / step) + 1)
        for j in range(frontier, end):
            gp, gm = outcome(grid[j], t, delta)
            plus[j].bet(gp)
            minus[j].bet(gm)
            if plus[j].w + minus[j].w >= level:
                crossed[j] = True
        while frontier < points and crossed[frontier]:
            frontier += 1
        if above is not None and frontier >= 2 and grid[frontier - 1] > above:
            return t + 1
    return grid[frontier - 1] if frontier >= 2 else 0.0

def perfect_pair(eps, t, delta):
    g = (1 - delta) / (math.exp(eps) + delta)
    return g, g

def perfect_decision(eps, t, delta):
    loss = 2 * math.exp(eps) + delta
    win, idle = (2 - delta) / loss, -delta / loss
    return (win, idle) if t % 2 == 0 else (idle, win)

for n in (100, 1000, 10000):
    e = eps_lo(perfect_pair, n, 0.01, 10, 0.05, 1e-5, 16)
    print(f"pairs n={n} delta=1e-5 alpha=0.05 step=0.01: eps_lo = {e!r}")
for n in (100, 1000, 10000):
    e = eps_lo(perfect_decision, n, 0.01, 10, 0.05, 0.0, 0)
    print(f"decisions n={n} delta=0 alpha=0.05 step=0.01: eps_lo = {e!r}")
t = eps_lo(perfect_pair, 10**6, 0.01, 10, 0.05, 1e-5, 16, above=3)
print(f"pairs delta=1e-5 alpha=0.05 step=0.01: the bound first exceeds 3 after {t} trials")
