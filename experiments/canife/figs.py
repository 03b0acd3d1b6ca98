#!/usr/bin/env python3
"""Maddock et al. 2023, Figs. 3c, 5a and 9 from canife.mk's R6 runs: figs.py DIR > figs.md.

DIR holds one folder per run, named M_pool_init_constant_seed (clients per round, design
pool, canary initialisation, gradient-norm constant C_n, seed), each with dp-train canife's
audits.csv (one audit) and scores.csv. Per run: the mean standard deviation of the two
score histograms (with and without the canary; Maddock et al. 2023, Fig. 3c's y-axis), the
calibrated attack accuracy (the best threshold's accuracy on the 100 mock rounds, Maddock et al.'s
"attack accuracy"), the canary health and the model's test accuracy."""
import csv
import os
import statistics
import sys


def attack_accuracy(scores):
    """Largest fraction of rounds a threshold classifies right ("in" at or above it)."""
    best, n = 0, len(scores)
    for t in sorted({s for s, _ in scores}) + [float("inf")]:
        right = sum((s >= t) == bool(label) for s, label in scores)
        best = max(best, right)
    return best / n


def run(path):
    with open(os.path.join(path, "audits.csv")) as f:
        audit = list(csv.DictReader(f))[-1]
    with open(os.path.join(path, "scores.csv")) as f:
        scores = [(float(r["score"]), int(r["label"])) for r in csv.DictReader(f)]
    return {"sd": (float(audit["with_sd"]) + float(audit["without_sd"])) / 2,
            "accuracy": attack_accuracy(scores), "health": float(audit["health"]),
            "test_accuracy": float(audit["test_accuracy"])}


def mean_sd(values, digits=4):
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return f"{statistics.mean(values):.{digits}f}" + (f" +- {sd:.{digits}f}" if len(values) > 1 else "")


def main():
    root = sys.argv[1]
    runs = {}
    for name in sorted(os.listdir(root)):
        if os.path.exists(os.path.join(root, name, "run.json")):
            m, pool, init, constant, seed = name.split("_")
            runs[(int(m), int(pool), init, float(constant), int(seed))] = run(os.path.join(root, name))
    clients = sorted({k[0] for k in runs})
    pools = sorted({k[1] for k in runs})
    print("## Maddock et al. 2023, Fig. 3c: mean standard deviation of the score histograms (test accuracy)\n")
    print("| clients per round | " + " | ".join(f"design pool {p}" for p in pools) + " |")
    print("|---|" + "---|" * len(pools))
    for m in clients:
        cells = [runs.get((m, p, "random", 1.0, 1)) for p in pools]
        print(f"| {m} | " + " | ".join(f"{c['sd']:.4f} ({c['test_accuracy']:.3f})" if c else "-" for c in cells) + " |")
    print("\n## Maddock et al. 2023, Fig. 5a: initialisation x design pool (64 clients per round)\n")
    print("| initialisation | " + " | ".join(f"design pool {p}" for p in pools) + " |")
    print("|---|" + "---|" * len(pools))
    for init in ("random", "sample"):
        cells = [runs.get((64, p, init, 1.0, 1)) for p in pools]
        print(f"| {init} | " + " | ".join(f"{c['sd']:.4f}" if c else "-" for c in cells) + " |")
    constants = sorted({k[3] for k in runs if k[:3] == (64, 512, "random")})
    print("\n## Maddock et al. 2023, Fig. 9: the gradient-norm constant C_n at clip 1 (64 clients, pool 512)\n")
    print("| C_n | attacks | attack accuracy | health | mean sd |")
    print("|---|---|---|---|---|")
    for c in constants:
        rs = [v for k, v in sorted(runs.items()) if k[:4] == (64, 512, "random", c)]
        print(f"| {c:g} | {len(rs)} | {mean_sd([r['accuracy'] for r in rs], 3)} | "
              f"{mean_sd([r['health'] for r in rs])} | {mean_sd([r['sd'] for r in rs])} |")


if __name__ == "__main__":
    main()
