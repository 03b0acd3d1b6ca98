#!/usr/bin/env python3
"""Tables of fedavg audits (audit.json of experiments/fedavg/audit.sh).

summarize.py noise AUDIT...    003 Table 3/4 columns, one row per noise multiplier
summarize.py repeats AUDIT...  003 Fig. 2 as a table: noise, repeats, eps_est/eps_lo (final, all)
Both print an aligned text table whose first line is a '#' comment with the columns, so
gnuplot reads the rows directly.
"""
import json
import sys


def number(x):
    x = float(x)
    return "inf" if x == float("inf") else f"{x:.4g}"


def main():
    kind, paths = sys.argv[1], sys.argv[2:]
    audits = [json.load(open(p)) for p in paths]
    if kind == "noise":
        cols = ["noise_multiplier", "analytic_eps", "eps_lo_all", "eps_est_all", "eps_lo_final", "eps_est_final",
                "test_accuracy"]
    else:
        cols = ["noise_multiplier", "canary_repeats", "eps_est_final", "eps_lo_final", "eps_est_all", "eps_lo_all",
                "test_accuracy"]
    print("# " + "  ".join(f"{c:>14}" for c in cols))
    for a in audits:
        print("  " + "  ".join(f"{number(a[c]):>14}" for c in cols))


if __name__ == "__main__":
    main()
