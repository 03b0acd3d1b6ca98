#!/usr/bin/env python3
"""Andrew et al. 2024, Table 5 from the experiments: summarize.py OUT_DIR EXPERIMENTS NOISE...
Reads OUT_DIR/noise-Z/{one,ten}-E.eps (eps_est-final of one run with 1,000 canaries, and of
ten pooled runs with 100 each) and prints the 0.1/0.3/0.5/0.7/0.9 quantiles over the
experiments (numpy's default linear interpolation) beside Andrew et al. 2024's StackOverflow row."""
import sys

import numpy as np

QUANTILES = [0.1, 0.3, 0.5, 0.7, 0.9]
# Andrew et al. 2024, Table 5 (StackOverflow, 50 experiments), by analytic eps of the noise multiplier:
# 300 (z = 0.0496) and 100 (z = 0.0986); rows 1/1000 and 10/100.
PAPER = {0: {"one": [1.59, 1.75, 1.97, 2.15, 2.46], "ten": [1.65, 1.80, 1.92, 2.16, 2.32]},
         1: {"one": [0.81, 1.06, 1.18, 1.33, 1.54], "ten": [0.87, 1.03, 1.16, 1.36, 1.78]}}


def main():
    out, experiments, noises = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    print(f"Andrew et al. 2024, Table 5 on Fashion-MNIST: quantiles of eps_est-final over {experiments} experiments "
          "(Andrew et al. 2024: 50, StackOverflow)")
    print(f"{'noise':>7} {'runs/canaries':>14} " + " ".join(f"{q:>6}" for q in QUANTILES) + "   Andrew et al. 2024 (StackOverflow)")
    for i, z in enumerate(noises):
        for kind, label in (("one", "1/1000"), ("ten", "10/100")):
            eps = [float(open(f"{out}/noise-{z}/{kind}-{e}.eps").read()) for e in range(1, experiments + 1)]
            q = np.quantile(eps, QUANTILES)
            paper = " ".join(f"{p:.2f}" for p in PAPER[i][kind]) if i in PAPER else "-"
            print(f"{z:>7} {label:>14} " + " ".join(f"{x:>6.2f}" for x in q) + f"   {paper}")


if __name__ == "__main__":
    main()
