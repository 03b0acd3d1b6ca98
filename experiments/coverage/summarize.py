"""The tables of experiments/coverage.md from run_cell.py's cells (one JSON file each).

usage: summarize.py [--override DIR] CELL.json ...   (markdown on stdout)

--override DIR: rows measured again on the same seeded runs with a newer build (run_cell.py
--rows ... -o DIR/CELL.json): each replaces the cell's row of the same key, and the replaced
row stays beside it as "KEY (before)", so a change to an estimator shows before and after.
"""
import os
import argparse
import json
import math

from scipy import stats

NOMINAL = 0.05
# A bound equal to the truth up to the estimators' own root-finding tolerance is no failure.
RELATIVE_TOLERANCE = 1e-9

MECHANISMS = {
    "gauss": "two Gaussians",
    "onerun": "one-run design",
    "rr": "randomized response",
    "laplace": "Laplace",
}


def cell_title(c):
    kind, size = c["kind"], c["size"]
    name = c["cell"]
    if kind == "gauss":
        return f"{name}: out N(0,1), in N({mu_of(c):g},1), {size:,} per class, delta {c['delta']:g}"
    if kind == "onerun":
        return (f"{name}: one-run design, {size:,} canaries each in with probability 1/2, in N({mu_of(c):g},1), "
                f"out N(0,1), delta {c['delta']:g}")
    eps = eps0_of(c)
    if kind == "rr":
        return f"{name}: randomized response, pure eps {eps:g} (scores in {{0,1}}), {size:,} per class, delta 0"
    return f"{name}: Laplace(0, {1 / eps:g}) vs Laplace(1, {1 / eps:g}), pure eps {eps:g}, {size:,} per class, delta 0"


def mu_of(c):
    return c["true_mu"]


def eps0_of(c):
    return c["true_epsilon"]["0.0"]


def clopper_pearson(k, n, alpha=0.05):
    lo = 0.0 if k == 0 else stats.beta.ppf(alpha / 2, k, n - k + 1)
    hi = 1.0 if k == n else stats.beta.ppf(1 - alpha / 2, k + 1, n - k)
    return lo, hi


def above(x, truth):
    return x > truth * (1 + RELATIVE_TOLERANCE) + RELATIVE_TOLERANCE


def is_valid_claim(key):
    """Rows that claim a 95% bound (or interval) when their assumptions hold."""
    return not (key.startswith("threshold/") or key == "gauss-fit" or key.endswith("/max")
                or key.endswith("/uncorrected"))


def assumption_note(key, c):
    """Why a row's number may be wrong for this mechanism (None: its assumptions hold)."""
    pure = c["kind"] in ("rr", "laplace")
    mech = MECHANISMS[c["kind"]]
    if pure and (key.startswith("gdp/") or key.startswith("one-run-fdp-gaussian/")):
        return f"assumes a Gaussian trade-off curve, which {mech} does not have: expected to fail here"
    if pure and key.startswith("gauss-fit"):
        return f"assumes Gaussian scores, which {mech} does not give: expected to fail here"
    return None


def row_note(key, c):
    notes = []
    a = assumption_note(key, c)
    if a:
        notes.append(a)
    if key.startswith("threshold/") or key == "gauss-fit":
        notes.append("point estimate, not a bound")
    if key.endswith("/max") or key.endswith("/uncorrected"):
        notes.append("over-states the confidence: not a 95% bound")
    if key == "gauss-fit/bootstrap":
        notes.append("two-sided 95% interval (fit region; BCa for threshold): failure = truth outside")
    if key.startswith("one-run") and c["kind"] != "onerun":
        notes.append("labels fixed, not coin flips: outside the one-run theorem")
    return "; ".join(notes)


def evaluate(key, row, c):
    """(failures, runs, tightness text, mu line or None)."""
    truth = c["true_epsilon"][repr(row["delta"])]
    v = row["values"]
    n = len(v)
    if row["kind"] == "interval":
        fails = sum(1 for lo, hi in zip(v, row["upper"]) if above(lo, truth) or hi < truth)
        tight = f"[{ratio(mean(v), truth)}, {ratio(mean(row['upper']), truth)}]"
    else:
        fails = sum(1 for x in v if above(x, truth))
        tight = ratio(mean(v), truth)
    mu = None
    if row["kind"] == "gdp" and n:
        true_mu = c["true_mu"]
        mu = (sum(1 for x in row["mu"] if above(x, true_mu)), n, ratio(mean(row["mu"]), true_mu))
    return fails, n, tight, mu


def mean(v):
    return sum(v) / len(v) if v else math.nan


def ratio(x, truth):
    if math.isnan(x):
        return "-"
    if math.isinf(x):
        return "inf"
    return f"{x / truth:.3f}" if truth > 0 else "-"


def rate_text(k, n):
    if n == 0:
        return "-"
    lo, hi = clopper_pearson(k, n)
    return f"{k}/{n} = {100 * k / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def flag(key, k, n, c):
    """'above nominal' when a row that claims 95% fails significantly more than 5% of runs
    on a mechanism that meets its assumptions."""
    if n == 0 or not is_valid_claim(key) or assumption_note(key, c):
        return ""
    return " **above nominal**" if clopper_pearson(k, n)[0] > NOMINAL else ""


def ms(v):
    return f"{1000 * mean(v):.0f}" if v else "-"


def apply_override(c, directory):
    path = os.path.join(directory, c["cell"] + ".json")
    if not os.path.exists(path):
        return
    newer = json.load(open(path))
    if newer["true_epsilon"] != {d: c["true_epsilon"][d] for d in newer["true_epsilon"]}:
        raise SystemExit(f"summarize.py: error: {path} is not the same cell as {c['cell']} (--override)")
    rows = {}
    for key, row in c["rows"].items():
        if key in newer["rows"]:
            rows[key] = newer["rows"][key]
            rows[key + " (before)"] = row
        else:
            rows[key] = row
    c["rows"] = rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--override", help="a folder of cells with rows measured again by a newer build")
    ap.add_argument("cells", nargs="+")
    a = ap.parse_args()
    cells = [json.load(open(p)) for p in a.cells]
    for c in cells:
        if a.override:
            apply_override(c, a.override)
    keys = list(dict.fromkeys(k for c in cells for k in c["rows"]))

    print("Failure: a 95% lower bound above the true eps (gdp: also its mu bound above the true mu;")
    print("the bootstrap: the true eps outside its two-sided 95% interval; point estimates: the fraction")
    print("above the truth), with its Clopper-Pearson 95% interval. Tightness: mean bound / true eps.")
    print("CPU ms: the tool's user + sys time per run (one process, NPY reading included).")
    wall = max(c["finished"] for c in cells) - min(c["started"] for c in cells)
    cpu = sum(sum(r["cpu"]) for c in cells for k, r in c["rows"].items() if not k.endswith(" (before)"))
    print(f"Wall time from the first cell's start to the last one's end: {wall / 60:.1f} min "
          f"({cpu / 60:.1f} min of the tool's CPU time).")
    print()
    print("## Overview: failure rate % (tightness) per cell")
    print()
    print("| row | " + " | ".join(c["cell"] for c in cells) + " |")
    print("|---|" + "---|" * len(cells))
    for key in keys:
        entries = []
        for c in cells:
            row = c["rows"].get(key)
            if row is None or not row["values"]:
                entries.append("-")
                continue
            k, n, tight, _ = evaluate(key, row, c)
            mark = "*" if assumption_note(key, c) else ""
            entries.append(f"{100 * k / n:.0f}{mark} ({tight})" + ("!" if flag(key, k, n, c) else ""))
        print(f"| {key} | " + " | ".join(entries) + " |")
        if key.startswith("gdp/"):
            entries = []
            for c in cells:
                row = c["rows"].get(key)
                _, _, _, mu = evaluate(key, row, c) if row and row["values"] else (0, 0, "", None)
                entries.append(f"{100 * mu[0] / mu[1]:.0f} ({mu[2]})" if mu else "-")
            print(f"| {key} mu | " + " | ".join(entries) + " |")
    print()
    print("`*`: the row assumes what the mechanism does not satisfy (a Gaussian trade-off curve or Gaussian")
    print("scores): expected to fail there, which says nothing against the bound where its assumption holds.")
    print("`!`: a row that claims 95% fails significantly more than 5% of runs (its Clopper-Pearson")
    print("interval lies above 5%) on a mechanism that meets its assumptions.")
    for c in cells:
        print()
        print(f"## {cell_title(c)}")
        print()
        truths = ", ".join(f"{float(d):g}: {e:.6g}" for d, e in c["true_epsilon"].items())
        print(f"True eps at delta {truths}; true mu {c['true_mu']:.6g}; {c['runs']} runs.")
        print()
        print("| row | delta | failures [95% CI] | tightness | CPU ms | wall ms | note |")
        print("|---|---|---|---|---|---|---|")
        for key, row in c["rows"].items():
            k, n, tight, mu = evaluate(key, row, c)
            errors = f"; {len(row['errors'])} errors, e.g. {row['errors'][0]}" if row["errors"] else ""
            print(f"| {key} | {row['delta']:g} | {rate_text(k, n)}{flag(key, k, n, c)} | {tight} | {ms(row['cpu'])} "
                  f"| {ms(row['wall'])} | {row_note(key, c)}{errors} |")
            if mu:
                note = "mu lower bound against the tightest GDP curve containing the mechanism's"
                print(f"| {key} mu | | {rate_text(mu[0], mu[1])}{flag(key, mu[0], mu[1], {'kind': 'gauss'})} "
                      f"| {mu[2]} | | | {note} |")


if __name__ == "__main__":
    main()
