#!/usr/bin/python3
"""Table 2 of Andrew et al. 2024 from the runs: sigma, analytic eps, mean +- std of eps_est over the
runs, the paper's column, and the mean-only variant (see run.sh).
Usage: summarize.py OUT_DIR DIM CANARIES SIGMA...   (reads OUT_DIR/sigma-S/run-*.eps)"""
import glob
import math
import subprocess
import sys

# Andrew et al. 2024, Table 2 (d = 1e6, k = 1e3, delta = 1e-6, 50 simulations): sigma -> (eps, mean, std)
PAPER = {"4.22": (1.0, 0.972, 0.148), "1.54": (3.0, 3.04, 0.137), "0.541": (10.0, 9.98, 0.190)}


def mean_std(xs):
    m = sum(xs) / len(xs)
    s = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1)) if len(xs) > 1 else 0.0
    return m, s


def main():
    out, dim, canaries, sigmas = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    print(f"Andrew et al. 2024, Table 2: Gaussian mechanism, d = {dim}, k = {canaries}, delta = 1e-6")
    print(f"{'sigma':>6} {'analytic eps':>12} {'runs':>4} {'eps_est (gauss-fit)':>20} "
          f"{'paper eps_est':>14} {'eps_est (mean only)':>20}")
    for sigma in sigmas:
        rows = [open(f).read().split() for f in sorted(glob.glob(f"{out}/sigma-{sigma}/run-*.eps"))]
        fit = mean_std([float(r[0]) for r in rows])
        mean_only = mean_std([float(r[1]) for r in rows])
        analytic = float(subprocess.check_output(
            ["eps-gauss2", "--gaussian-mechanism", "--sigma", sigma, "--delta", "1e-6"], text=True))
        paper = PAPER.get(sigma)
        paper_text = f"{paper[1]:.3g}+-{paper[2]:.3f}" if paper else "-"
        print(f"{sigma:>6} {analytic:>12.4f} {len(rows):>4} {fit[0]:>11.3f} +- {fit[1]:<6.3f} "
              f"{paper_text:>14} {mean_only[0]:>11.3f} +- {mean_only[1]:<6.3f}")


if __name__ == "__main__":
    main()
