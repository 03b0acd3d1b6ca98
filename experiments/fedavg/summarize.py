#!/usr/bin/env python3
"""Tables of fedavg audits (audit.json of experiments/fedavg/audit.sh).

summarize.py noise AUDIT...     Andrew et al. 2024, Table 3/4 columns, one row per noise multiplier
summarize.py repeats AUDIT...   Andrew et al. 2024, Fig. 2 as a table: noise, repeats, eps_est/eps_lo (final, all)
summarize.py anderson AUDIT...  Andrew et al. 2024, Table 6: Anderson-Darling statistic of each set of
                                final-model seen cosines, noise x repeats, with the critical values
summarize.py adaptive AUDIT...  the noise table of runs with adaptive clipping, with the final clip
noise/repeats/adaptive print an aligned text table whose first line is a '#' comment with
the columns, so gnuplot reads the rows directly. eps_lo_*_max: Andrew et al. 2024's eps_lo (a 95% Jeffreys
bound on each error rate at the best threshold, without a correction for choosing it).
"""
import json
import sys

COLUMNS = {
    "noise": ["noise_multiplier", "analytic_eps", "eps_lo_all", "eps_lo_all_max", "eps_est_all", "eps_lo_final",
              "eps_lo_final_max", "eps_est_final", "test_accuracy"],
    "repeats": ["noise_multiplier", "canary_repeats", "eps_est_final", "eps_lo_final", "eps_est_all", "eps_lo_all",
                "eps_lo_final_max", "test_accuracy"],
    "adaptive": ["noise_multiplier", "analytic_eps", "eps_lo_all", "eps_lo_all_max", "eps_est_all", "eps_lo_final",
                 "eps_lo_final_max", "eps_est_final", "final_clip", "test_accuracy"],
}


def number(x):
    x = float(x)
    return "inf" if x == float("inf") else f"{x:.4g}"


def anderson(audits):
    """Rows noise, columns repeats, as Andrew et al. 2024, Table 6. Critical values for estimated mean
    and variance (Stephens 1974): 0.656 (10%) and 1.092 (1%) as Andrew et al. 2024 quote them; scipy
    scales them by 1/(1 + 4/n - 25/n^2), which lib/stats/anderson_darling.hpp follows."""
    noises, repeats, cell, sizes = [], [], {}, set()
    for a in audits:
        z, r = a["noise_multiplier"], a["canary_repeats"]
        noises += [z] if z not in noises else []
        repeats += [r] if r not in repeats else []
        cell[(z, r)] = a["anderson_final"]
        sizes.add(a["seen"])
    print("# Andrew et al. 2024, Table 6: Anderson-Darling statistic of the final-model seen cosines (n = "
          + "/".join(str(n) for n in sorted(sizes)) + ")")
    print("# " + f"{'noise':>8}  " + "  ".join(f"{f'{r} reps':>8}" for r in repeats))
    for z in noises:
        print("  " + f"{number(z):>8}  " + "  ".join(f"{number(cell[(z, r)]) if (z, r) in cell else '-':>8}"
                                                      for r in repeats))
    for n in sorted(sizes):
        scale = 1 + 4 / n - 25 / n ** 2
        print(f"# n = {n}: reject normality at 10% above 0.656 (scipy: {0.656 / scale:.3f}), "
              f"at 1% above 1.092 (scipy: {1.092 / scale:.3f})")


def main():
    kind, paths = sys.argv[1], sys.argv[2:]
    audits = [json.load(open(p)) for p in paths]
    if kind == "anderson":
        anderson(audits)
        return
    cols = COLUMNS[kind]
    print("# " + "  ".join(f"{c:>14}" for c in cols))
    for a in audits:
        print("  " + "  ".join(f"{number(a[c]):>14}" for c in cols))


if __name__ == "__main__":
    main()
