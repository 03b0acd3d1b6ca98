#!/usr/bin/env python3
"""Matsumoto et al. 2022, Fig. 3 as a table: fig3.py DATFILE RUN.json... > fig3.md.

One row per (distinguisher, norm R of the dummy gradient); per eps the point estimate of
Eq. 3 and, in parentheses, the closed form: white-box P(right) = 1/2 + r tanh(eps/2)/2
with r = min(R, L)/L (the norm projection keeps the sign with probability 1/2 + r/2, the
response coin the hemisphere with probability e^eps/(1+e^eps)); black-box (Eq. 7, theta_t = 0)
P(right) = 1/2 + r tanh(eps/2) (2q - 1)/2 with q = 1/2 + asin(sqrt(2/pi))/pi; Eq. 3 of a
symmetric rule is log(P/(1-P)). DATFILE: one gnuplot block per distinguisher, columns
R, then Eq. 3 per eps."""
import json
import math
import sys

from grid import write_grid

Q = 0.5 + math.asin(math.sqrt(2 / math.pi)) / math.pi


def closed_form(column, norm, clip, eps):
    r = min(norm, clip) / clip
    p = 0.5 + 0.5 * r * math.tanh(eps / 2) * (1 if column == "white-box" else 2 * Q - 1)
    return math.log(p / (1 - p))


def main():
    dat, paths = sys.argv[1], sys.argv[2:]
    cells, columns, norms, eps_values = {}, [], [], []
    for path in paths:
        run = json.load(open(path))
        key = (run["distinguisher"], float(run["dummy_norm"]), float(run["eps"]))
        for values, v in ((columns, key[0]), (norms, key[1]), (eps_values, key[2])):
            if v not in values:
                values.append(v)
        cells[key] = run
    norms.sort()
    eps_values.sort()
    clip = float(next(iter(cells.values()))["clip"])
    print(f"L = {clip:g}; K = {next(iter(cells.values()))['trials']} trials per cell; "
          "Eq. 3 measured (closed form)\n")
    print("| distinguisher | norm R | " + " | ".join(f"eps {e:g}" for e in eps_values) + " |")
    print("|---|---|" + "---|" * len(eps_values))
    def cell(column, norm, eps):
        run = cells.get((column, norm, eps))
        return run and (f"{float(run['eps_eq3']):.2f} ({closed_form(column, norm, clip, eps):.2f})", run["eps_eq3"])

    write_grid(dat, columns, norms, eps_values, cell, "R " + " ".join(f"eps{e:g}" for e in eps_values))


if __name__ == "__main__":
    main()
