"""The table of experiments/estimators.md from audit.sh's rows (one JSON file each).

usage: summarize.py ROW.json ...   (markdown on stdout)
"""
import json
import math
import sys


def num(x, digits=2):
    """eps-from-scores writes inf as the string "inf"."""
    x = float(x)
    return "inf" if math.isinf(x) else f"{x:.{digits}f}"


def with_interval(r):
    if r is None:
        return "-"
    b = r["bootstrap"]
    return f"{num(r['epsilon'])} [{num(b['lower'])}, {num(b['upper'])}]"


rows = [json.load(open(p)) for p in sys.argv[1:]]
print("Seen against unseen canaries unless marked \"null\" (the in cosines against the exact cosine")
print("null). Bounds at 95%, Bonferroni over the distinct scores (one-run: its grid of guess counts);")
print("gauss-fit with its 95% bootstrap interval (fit region, B = 1000). delta: 1e-6 for the sum query,")
print("3000^-1.1 for fedavg, 1e-5 for DP-SGD (Nasr et al. 2021's game: one trial = one model on D and one on D';")
print("no cosine null there, \"-\").")
print()
print("| audit | analytic | threshold | Clopper-Pearson | Jeffreys | Jeffreys, null | gauss-fit [95%] "
      "| gauss-fit, null [95%] | one-run | one-run f-DP | GDP (mu) |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    print(f"| {r['name']} | {num(r['analytic'])} | {num(r['threshold']['epsilon'])} "
          f"| {num(r['clopper_pearson']['epsilon'])} | {num(r['jeffreys']['epsilon'])} "
          f"| {num(r['null_jeffreys']['epsilon']) if 'null_jeffreys' in r else '-'} | {with_interval(r['gauss_fit'])} "
          f"| {with_interval(r.get('null_gauss_fit'))} | {num(r['one_run']['epsilon'])} "
          f"| {num(r['one_run_fdp']['epsilon'])} | {num(r['gdp']['epsilon'])} ({num(r['gdp']['mu'])}) |")
print()
print("The attack on the same scores (seen against unseen; the summary of `--json`), and the")
print("wall seconds of every estimator together (2 threads for the two bootstraps):")
print()
print("| audit | AUROC | AUROC hull | TPR at FPR 0.1% | TPR at 1% | max accuracy (95% lower) "
      "| one-run guesses (correct) | seconds |")
print("|---|---|---|---|---|---|---|---|")
for r in rows:
    s = r["threshold"]["summary"]
    o = r["one_run"]
    seconds = sum(v["wall_seconds"] for v in r.values() if isinstance(v, dict))
    print(f"| {r['name']} | {s['auroc']:.3f} | {s['auroc_convex_hull']:.3f} | {s['tpr_at_fpr']['0.001']:.3f} "
          f"| {s['tpr_at_fpr']['0.01']:.3f} | {s['max_accuracy']['value']:.3f} "
          f"({s['max_accuracy']['lower_bound']:.3f}) | {o['guesses_in']}+{o['guesses_out']} ({o['correct']}) "
          f"| {seconds:.1f} |")
