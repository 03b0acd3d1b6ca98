#!/usr/bin/python3
"""The table of experiments/balls_in_bins.mk from its cells (rdp-compose --sampling
balls-in-bins --json, one a cell, with /usr/bin/time's "wall user sys maxrss" beside each).

usage: table.py "NOISE..." "EPOCHS..." "BATCHES..." CELLS_DIR
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from cells import cell  # noqa: E402


def main():
    noise, epochs, batches = (a.split() for a in sys.argv[1:4])
    d = sys.argv[4]
    cells = {(s, e, b): cell(d, s, e, b) for s in noise for e in epochs for b in batches}
    first = next(iter(cells.values()))[0]
    print(f"Balls-in-bins batches at delta {first['delta']}, {first['samples']} Monte Carlo "
          f"samples a direction (seed {first['seed']}), upper bound at confidence "
          f"{first['confidence']}; Poisson: the PLD upper bound at q = 1/B over E*B steps; "
          "no amplification: E Gaussian mechanisms.\n")
    print("| noise | epochs | batches | estimate | upper bound | Poisson | no amplification "
          "| estimate <= Poisson | upper <= Poisson | CPU s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    below = tight = 0
    for s in noise:
        for e in epochs:
            for b in batches:
                j, wall, cpu, rss = cells[(s, e, b)]
                est, up, po = j["eps_estimate"], j["eps_upper"], j["poisson"]["eps"]
                below += est <= po
                tight += up <= po
                print(f"| {s} | {e} | {b} | {est:.4g} | {up:.4g} | {po:.4g} | "
                      f"{j['eps_upper_no_amplification']:.4g} | {'yes' if est <= po else 'NO'} | "
                      f"{'yes' if up <= po else 'no'} | {cpu:.1f} |")
    n = len(cells)
    cpus = [c[2] for c in cells.values()]
    rss = [c[3] for c in cells.values()]
    print(f"\nThe estimate is at or below the Poisson bound in {below} of {n} cells; the upper "
          f"bound (what holds at the stated confidence) in {tight} of {n}. {sum(cpus):.0f} s of "
          f"CPU in all, at most {max(cpus):.1f} s a cell; peak memory {max(rss) / 1024:.0f} MiB.")


if __name__ == "__main__":
    main()
