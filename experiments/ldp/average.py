#!/usr/bin/env python3
"""Mean of repeated measurements (Matsumoto et al. 2022, Sec. 4.1): average.py [--dat FILE] RUN.json... > average.md.

One row per (crafter, distinguisher column, eps): the number of measurements, the mean,
sample sd, min and max of Eq. 3's point estimate (an infinite estimate counts as missing
and is reported), and the mean's distance from eps. --dat also writes the plot's data for
fig2_average.gp: a first line naming the crafters, then one block per crafter, rows
"eps mean sd" for the white-box, black-box and printed-constant columns ("?" where a cell
was not run)."""
import json
import math
import statistics
import sys


def column(run):
    if run["distinguisher"] == "white-box":
        return "white-box"
    return "black-box, printed constant" if run["server_constant"] == "printed" else "black-box"


COLUMNS = ["white-box", "black-box", "black-box, printed constant"]


def write_dat(path, groups, order):
    crafters = list(dict.fromkeys(crafter for crafter, _, _ in order))
    eps_values = sorted({eps for _, _, eps in order})
    with open(path, "w") as out:
        out.write("# crafters: " + " ".join(crafters) + "\n")  # the blocks, in order (fig2_average.gp)
        for crafter in crafters:
            out.write(f"# {crafter}\n# eps " + " ".join(f"mean sd ({c})" for c in COLUMNS) + "\n")
            for eps in eps_values:
                fields = []
                for col in COLUMNS:
                    finite = [float(v) for v, _ in groups.get((crafter, col, eps), []) if math.isfinite(float(v))]
                    fields += ([f"{statistics.mean(finite):.6g}", f"{statistics.stdev(finite) if len(finite) > 1 else 0:.6g}"]
                               if finite else ["?", "?"])
                out.write(f"{eps:g} " + " ".join(fields) + "\n")
            out.write("\n\n")


def main():
    args = sys.argv[1:]
    dat = None
    if args[:1] == ["--dat"]:
        if len(args) < 2:
            sys.exit("usage: average.py [--dat FILE] RUN.json...")
        dat, args = args[1], args[2:]
    groups, order = {}, []
    for path in args:
        run = json.load(open(path))
        key = (run["crafter"], column(run), float(run["eps"]))
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append((run["eps_eq3"], run["trials"]))
    print("| crafter | distinguisher | eps | measurements (K each) | mean eps_empirical | sd | min | max | mean - eps |")
    print("|---|---|---|---|---|---|---|---|---|")
    for crafter, col, eps in order:
        values = [float(v) for v, _ in groups[(crafter, col, eps)]]
        finite = [v for v in values if math.isfinite(v)]
        infinite = len(values) - len(finite)
        trials = "/".join(sorted({str(k) for _, k in groups[(crafter, col, eps)]}))
        mean = statistics.mean(finite) if finite else math.inf
        sd = statistics.stdev(finite) if len(finite) > 1 else 0.0
        note = f" ({infinite} inf)" if infinite else ""
        low = f"{min(finite):.3f}" if finite else "-"
        high = f"{max(finite):.3f}" if finite else "-"
        print(f"| {crafter} | {col} | {eps:g} | {len(values)}{note} ({trials}) | {mean:.3f} | {sd:.3f} | "
              f"{low} | {high} | {mean - eps:+.3f} |")
    if dat:
        write_dat(dat, groups, order)


if __name__ == "__main__":
    main()
