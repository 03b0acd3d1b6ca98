"""experiments/sgd.mk's table: one row per eps, one column per threat model.

usage: table.py FIG1.DAT "EPS..." CELL.json... > fig1.md
Each cell prints Nasr et al. 2021's Clopper-Pearson bound at the best threshold and, in brackets, the
Bonferroni-corrected one; a second table gives each cell's AUROC; FIG1.DAT gets the
best-threshold bounds for the bar chart.
"""
import json
import sys

dat_path, eps_list, paths = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
cells = {}
for path in paths:
    with open(path) as f:
        c = json.load(f)
    cells[(c["threat"], c["eps"])] = c
columns = [("api", "api (C1/D1)"), ("static-poison", "static poison (C2/D1)"),
           ("intermediate-poison", "intermediate poison (C2/D2)"), ("adaptive-poison", "adaptive poison (C3/D2)"),
           ("gradient-canary", "gradient canary (C4/D3)"),
           ("malicious-dataset", "malicious dataset, trained (C5/D3)"),
           ("simulated", "malicious dataset, simulated")]
columns = [(k, name) for k, name in columns if any(t == k for t, _ in cells)]


def trials(key):
    counts = {c["trials_per_hypothesis"] for (t, _), c in cells.items() if t == key}
    return "/".join(f"{n:,}" for n in sorted(counts))


print("| eps (analytic) | noise z | test accuracy | " +
      " | ".join(f"{name}, {trials(k)} trials" for k, name in columns) + " |")
print("|---|---|---|" + "---|" * len(columns))
with open(dat_path, "w") as dat:
    dat.write("# eps analytic " + " ".join(k for k, _ in columns) + "\n")
    for e in map(float, eps_list):
        any_cell = next(c for (t, ee), c in cells.items() if ee == e)
        accuracy = next((c["test_accuracy"] for (t, ee), c in cells.items()
                         if ee == e and c.get("test_accuracy") is not None), None)
        row = [f"{e:g} ({any_cell['analytic_eps']:.3f}, {any_cell['accountant']})",
               f"{any_cell['noise_multiplier']:.4f}",
               f"{accuracy:.3f}" if accuracy is not None else "-"]
        values = []
        for k, _ in columns:
            c = cells.get((k, e))
            if c is None:
                row.append("-")
                values.append("?")
                continue
            row.append(f"{c['eps_lower_cp_best_threshold']:.2f} ({c['eps_lower_cp']:.2f})")
            values.append(f"{c['eps_lower_cp_best_threshold']:.4f}")
        print("| " + " | ".join(row) + " |")
        dat.write(f"{e:g} {any_cell['analytic_eps']:.4f} " + " ".join(values) + "\n")

# The AUROC of each cell: unlike the bounds, it does not shrink with fewer trials, so it
# compares threat models played with different numbers of trials.
print()
print("| eps (analytic) | " + " | ".join(f"AUROC {name}" for _, name in columns) + " |")
print("|---|" + "---|" * len(columns))
for e in map(float, eps_list):
    aurocs = [cells.get((k, e), {}).get("auroc") for k, _ in columns]
    print(f"| {e:g} | " + " | ".join("-" if a is None else f"{a:.3f}" for a in aurocs) + " |")
