#!/usr/bin/python3
"""The regime map of experiments/shuffle.mk from its cells (rdp-compose --sampling shuffle
--json, one a cell, with /usr/bin/time's "wall user sys maxrss" beside each).

usage: table.py "NOISE..." "EPOCHS..." "BATCHES..." CELLS_DIR
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from cells import cell  # noqa: E402


def fmt(x):
    return "inf" if x == "inf" else f"{x:.3g}"


def main():
    noise, epochs, batches = (a.split() for a in sys.argv[1:4])
    d = sys.argv[4]
    cells = {(s, e, b): cell(d, s, e, b) for s in noise for e in epochs for b in batches}
    delta = next(iter(cells.values()))[0]["delta"]
    print(f"Shuffled batches at delta {delta}: each cell is the certified lower bound on the "
          "shuffled mechanism's eps / the Poisson upper bound at q = 1/B over E*B steps "
          "(pld) = their ratio; **bold** where the lower bound is larger (Poisson accounting "
          "understates eps).\n")
    for b in batches:
        print(f"### B = {b} batches an epoch (q = 1/{b})\n")
        print("| noise \\ epochs | " + " | ".join(epochs) + " |")
        print("|---" * (len(epochs) + 1) + "|")
        for s in noise:
            row = []
            for e in epochs:
                j = cells[(s, e, b)][0]
                lo, po = j["eps_lower"], j["poisson"]["eps"]
                text = f"{fmt(lo)} / {fmt(po)} = {lo / po:.2f}"
                row.append(f"**{text}**" if j["poisson_understates"] else text)
            print(f"| {s} | " + " | ".join(row) + " |")
        print()
    print("### The map: X where the lower bound exceeds the Poisson bound\n")
    print("| noise \\ (B, epochs) | " +
          " | ".join(f"{b}, {e}" for b in batches for e in epochs) + " |")
    print("|---" * (len(batches) * len(epochs) + 1) + "|")
    for s in noise:
        marks = ["X" if cells[(s, e, b)][0]["poisson_understates"] else "." for b in batches
                 for e in epochs]
        print(f"| {s} | " + " | ".join(marks) + " |")
    walls = [c[1] for c in cells.values()]
    cpus = [c[2] for c in cells.values()]
    rss = [c[3] for c in cells.values()]
    slowest = max(cells, key=lambda k: cells[k][1])
    print(f"\n{len(cells)} cells: {sum(cpus):.1f} s of CPU in all; the slowest cell "
          f"(noise {slowest[0]}, E {slowest[1]}, B {slowest[2]}) {max(walls):.2f} s wall; "
          f"peak memory {max(rss) / 1024:.0f} MiB.")


main()
