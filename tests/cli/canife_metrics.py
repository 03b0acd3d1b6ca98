"""Checks a dp-train canife run's metrics.csv against its audits.csv and run.json:
fedavg's columns, a row per round, the test accuracy on the row of the round before each
audit (audits see the model after t rounds) and on the last row (run.json's), the train
loss present at user level only, and finite positive update norms.

usage: canife_metrics.py DIR ROUNDS LEVEL   (exit 1 with the reason on stderr)
"""
import csv
import json
import math
import sys

run_dir, rounds, level = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rows = list(csv.DictReader(open(f"{run_dir}/metrics.csv")))
audits = list(csv.DictReader(open(f"{run_dir}/audits.csv")))
run = json.load(open(f"{run_dir}/run.json"))


def check(ok, what):
    if not ok:
        sys.exit(f"metrics.csv: {what}")


check(list(rows[0].keys()) == ["round", "train_loss", "update_norm", "clip", "test_accuracy"], "columns")
check([int(r["round"]) for r in rows] == list(range(1, rounds + 1)), "one row per round, 1 .. ROUNDS")
expected = {int(a["round"]): float(a["test_accuracy"]) for a in audits if int(a["round"]) > 0}
expected[rounds] = run["test_accuracy"]
for r in rows:
    t = int(r["round"])
    if t in expected:
        check(abs(float(r["test_accuracy"]) - expected[t]) < 1e-12, f"test accuracy of round {t}")
    else:
        check(r["test_accuracy"] == "", f"test accuracy on round {t}, where nothing measured it")
    norm = float(r["update_norm"])
    check(math.isfinite(norm) and norm > 0, f"update norm of round {t}")
    if level == "user":
        check(float(r["train_loss"]) > 0, f"train loss of round {t}")
    else:
        check(r["train_loss"] == "", f"train loss of round {t} at sample level")
