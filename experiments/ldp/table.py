#!/usr/bin/env python3
"""Matsumoto et al. 2022, Fig. 2 as a table: table.py DATFILE RUN.json... > fig2.md.

One row per (crafter, eps); per distinguisher column the point estimate of Matsumoto et al. 2022, Eq. 3 and,
in parentheses, the 95% Clopper-Pearson lower bound. DATFILE gets one gnuplot block per
crafter (eps, white, black, black-printed; Eq. 3 values, inf as 99 so that its bar runs
off the top of the plot, a missing run as '?')."""
import json
import sys

from grid import write_grid

COLUMNS = [("white", "white-box"), ("black", "black-box"), ("black-printed", "black-box, printed constant")]


def column_of(run):
    if run["distinguisher"] == "white-box":
        return "white"
    return "black-printed" if run["server_constant"] == "printed" else "black"


def fmt(x):
    return x if x == "inf" else f"{float(x):.2f}"


def main():
    dat, paths = sys.argv[1], sys.argv[2:]
    cells, crafters, eps_values, info = {}, [], [], {}
    for path in paths:
        run = json.load(open(path))
        key = (run["crafter"], float(run["eps"]))
        if run["crafter"] not in crafters:
            crafters.append(run["crafter"])
        if key[1] not in eps_values:
            eps_values.append(key[1])
        cells[key + (column_of(run),)] = run
        info = run
    eps_values.sort()
    trials = {}
    for (crafter, _, _), run in cells.items():
        trials.setdefault(crafter, set()).add(run["trials"])
    print("K (trials per cell): " + ", ".join(
        f"{c} {'/'.join(str(k) for k in sorted(trials[c]))}" for c in crafters) +
          f". L = {info['clip']}, seed {info['seed']}, task {info['task']}, model {info['model']}.\n")
    print("| crafter | eps | " + " | ".join(title for _, title in COLUMNS) + " |")
    print("|---|---|" + "---|" * len(COLUMNS))
    def cell(crafter, eps, column):
        run = cells.get((crafter, eps, column))
        return run and (f"{fmt(run['eps_eq3'])} ({fmt(run['eps_cp95'])})",
                        "99" if run["eps_eq3"] == "inf" else run["eps_eq3"])

    write_grid(dat, crafters, eps_values, [column for column, _ in COLUMNS], cell, "eps white black black-printed")


if __name__ == "__main__":
    main()
