"""Measured coverage of eps-from-scores: seeded runs of one mechanism whose true privacy
curve is known exactly, every estimator and threshold strategy on each run.

usage: run_cell.py --bin BIN --cell CELL --runs N [--slow-runs N] [--fdp-split-runs N]
                   [--rows KEY,KEY,...] -o CELL.json

CELL names the mechanism, e.g.
  gauss-mu2-n1000     out N(0,1), in N(2,1), 1,000 scores per class, delta 1e-5
  onerun-mu2-m1000    the one-run design (Steinke, Nasr & Jagielski 2023): 1,000 canaries,
                      each in with probability 1/2, in N(2,1), out N(0,1), delta 1e-5
  rr-eps1-n1000       randomized response with pure eps 1: score 1 with probability
                      e^eps / (1 + e^eps) when in, 1 / (1 + e^eps) when out; delta 0
  laplace-eps1-n1000  out Laplace(0, b), in Laplace(1, b), b = 1 / eps; delta 0
Rows whose method needs delta > 0 (gauss-fit, gdp, one-run-fdp with the Gaussian curve)
run at delta 1e-5 on a delta-0 cell, against the mechanism's exact eps at 1e-5.

The driver runs the real tool (BIN/eps-from-scores --json) on NPY pairs --in/--out, one
process per estimate, and records per run the number each row is judged by, the tool's
CPU time (user + sys of the child) and wall time. Run r draws its scores from
numpy.random.default_rng([crc32(CELL), r]) and passes --seed r + 1 to the tool.
"""
import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
import zlib

import numpy as np
from scipy import optimize, stats

DELTA_GAUSS = 1e-5
DELTA_FALLBACK = 1e-5  # rows that need delta > 0 on a delta-0 cell
BOOTSTRAP_REPLICATES = 1000


def bootstrap_interval(j):
    """The two-sided bootstrap interval of an eps-from-scores --json object, (lower, upper).

    The one place that knows the JSON keys of --bootstrap (tools/eps-from-scores/output.cpp,
    bootstrap_json); extra keys are ignored.
    """
    b = j["bootstrap"]
    return float(b["lower"]), float(b["upper"])


# ---------------------------------------------------------------- mechanisms


class Cell:
    """A mechanism with its exact privacy curve: draw scores, true eps(delta), true mu."""

    def __init__(self, name):
        self.name = name
        parts = name.split("-")
        self.kind = parts[0]
        fields = {p.rstrip("0123456789.e"): p[len(p.rstrip("0123456789.e")):] for p in parts[1:]}
        if self.kind in ("gauss", "onerun"):
            self.mu = float(fields["mu"])
            self.delta = DELTA_GAUSS
        elif self.kind in ("rr", "laplace"):
            self.eps0 = float(fields["eps"])
            self.delta = 0.0
        else:
            raise SystemExit(f"run_cell.py: error: unknown cell kind '{self.kind}' ({name})")
        self.one_run_design = self.kind == "onerun"
        self.size = int(float(fields["m" if self.one_run_design else "n"]))

    # Scores of n in and n out draws.
    def draw(self, rng, n_in, n_out):
        if self.kind in ("gauss", "onerun"):
            return rng.normal(self.mu, 1, n_in), rng.normal(0, 1, n_out)
        if self.kind == "rr":
            p = 1 / (1 + math.exp(-self.eps0))
            return (rng.random(n_in) < p).astype(float), (rng.random(n_out) < 1 - p).astype(float)
        b = 1 / self.eps0
        return rng.laplace(1, b, n_in), rng.laplace(0, b, n_out)

    def sample(self, rng):
        """(in scores, out scores) of one run."""
        if self.one_run_design:
            n_in = int(rng.binomial(self.size, 0.5))
            return self.draw(rng, n_in, self.size - n_in)
        return self.draw(rng, self.size, self.size)

    def quantile_data(self):
        """Noiseless scores: each class at the quantiles (i + 1/2) / n of its distribution.

        A fixed threshold is the one --thresholds max picks on these, chosen before any
        sample is seen.
        """
        n = self.size // 2 if self.one_run_design else self.size
        u = (np.arange(n) + 0.5) / n
        if self.kind in ("gauss", "onerun"):
            return self.mu + stats.norm.ppf(u), stats.norm.ppf(u)
        if self.kind == "rr":
            p = 1 / (1 + math.exp(-self.eps0))
            return (u >= 1 - p).astype(float), (u >= p).astype(float)
        b = 1 / self.eps0
        return stats.laplace.ppf(u, 1, b), stats.laplace.ppf(u, 0, b)

    def true_epsilon(self, delta, bin_dir):
        """The mechanism's exact eps at delta."""
        if self.kind in ("gauss", "onerun"):
            out = subprocess.run([os.path.join(bin_dir, "eps-gauss2"), "--mu1", "0", "--sigma1", "1", "--mu2",
                                  repr(self.mu), "--sigma2", "1", "--delta", repr(delta)],
                                 check=True, capture_output=True, text=True).stdout
            return float(out)
        if self.kind == "rr":
            # delta(e) = (e^eps0 - e^e) / (1 + e^eps0) for e <= eps0 (the output "1" of an in draw).
            return max(0.0, math.log(math.exp(self.eps0) - delta * (1 + math.exp(self.eps0))))
        # Laplace with sensitivity 1 and eps0 = 1/b: delta(e) = 1 - exp((e - eps0) / 2) on [0, eps0].
        return max(0.0, self.eps0 + 2 * math.log1p(-delta))

    def true_mu(self):
        """The smallest mu whose Gaussian trade-off curve G_mu lies below the mechanism's:
        sup over alpha of Phi^-1(1 - alpha) - Phi^-1(f(alpha)) (Dong, Roth & Su 2022)."""
        if self.kind in ("gauss", "onerun"):
            return self.mu
        e = self.eps0
        if self.kind == "rr":
            def f(a):  # the (eps0, 0)-DP curve, which randomized response attains
                return max(0.0, 1 - math.exp(e) * a, math.exp(-e) * (1 - a))
        else:
            def f(a):  # Laplace (Dong, Roth & Su 2022, Sec. 2.2)
                if a < math.exp(-e) / 2:
                    return 1 - math.exp(e) * a
                if a <= 0.5:
                    return math.exp(-e) / (4 * a)
                return math.exp(-e) * (1 - a)

        def gap(la):
            a = math.exp(la)
            return -(stats.norm.isf(a) - stats.norm.ppf(f(a)))
        grid = np.linspace(math.log(1e-12), math.log(0.999), 4000)
        i = int(np.argmin([gap(x) for x in grid]))
        res = optimize.minimize_scalar(gap, bounds=(grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]),
                                       method="bounded", options={"xatol": 1e-12})
        return -min(res.fun, gap(grid[i]))


# ---------------------------------------------------------------- estimators

# (key, method args, strategy, what the row's number is, cost class)
#   kind: bound (a 95% lower bound on eps), point (a point estimate), interval (the
#   bootstrap's two-sided 95% interval), gdp (gdp's eps and its mu lower bound)
#   cost: cheap (every run), slow (--slow-runs), fdp-split (--fdp-split-runs)
STRATEGIES = ["bonferroni", "max", "uncorrected", "split", "multi-split", "fixed"]
ONE_RUN_STRATEGIES = ["bonferroni", "max", "split", "multi-split", "fixed"]


def row_specs():
    rows = []
    for s in ["max", "split", "multi-split", "fixed"]:  # bonferroni and uncorrected = max for a point estimate
        rows.append(("threshold/" + s, ["-m", "threshold"], s, "point"))
    for m in ["clopper-pearson", "jeffreys"]:
        for s in STRATEGIES:
            rows.append((f"{m}/{s}", ["-m", m], s, "bound"))
    rows.append(("gauss-fit", ["-m", "gauss-fit"], None, "point"))
    rows.append(("gauss-fit/bootstrap", ["-m", "gauss-fit", "--bootstrap", str(BOOTSTRAP_REPLICATES)], None,
                 "interval"))
    for name, args in [("one-run", ["-m", "one-run"]), ("one-run-fdp-gaussian", ["-m", "one-run-fdp"]),
                       ("one-run-fdp-dp", ["-m", "one-run-fdp", "--curve", "dp"])]:
        for s in ONE_RUN_STRATEGIES:
            rows.append((f"{name}/{s}", args, s, "bound"))
    for s in STRATEGIES:
        rows.append((f"gdp/{s}", ["-m", "gdp"], s, "gdp"))
    return rows


def needs_positive_delta(key):
    return key.startswith(("gauss-fit", "gdp/", "one-run-fdp-gaussian/"))


def cost_of(key):
    if key.startswith("one-run-fdp-gaussian/multi-split"):
        return "fdp-split"
    if key.endswith("/multi-split") or key == "gauss-fit/bootstrap":
        return "slow"
    return "cheap"


class Tool:
    def __init__(self, bin_dir):
        self.exe = os.path.join(bin_dir, "eps-from-scores")

    def run(self, args):
        """(the JSON object or None, stderr, CPU seconds, wall seconds)."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        p = subprocess.run([self.exe, "--json", "-q"] + args, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if p.returncode != 0:
            return None, p.stderr.strip(), cpu, wall
        return json.loads(p.stdout), "", cpu, wall


def strategy_args(strategy, fixed, seed):
    if strategy is None:
        return []
    if strategy == "fixed":
        return ["--threshold", repr(fixed)]
    args = ["--thresholds", strategy]
    if strategy in ("split", "multi-split"):
        args += ["--seed", str(seed)]
    return args


def max_rule(j):
    """The threshold of the rule an eps-from-scores --json object reports."""
    if "threshold" in j:
        return float(j["threshold"])
    rule = j["guess_in_rule"]  # one-run: "score >= T"
    assert rule.startswith("score >= "), rule
    return float(rule[len("score >= "):])


def fixed_thresholds(cell, tool, specs, deltas, workdir):
    """Per method, the threshold --thresholds max picks on the cell's quantile data (the
    threshold method, a point estimate that max drives to inf, takes clopper-pearson's)."""
    q_in, q_out = cell.quantile_data()
    fin, fout = os.path.join(workdir, "q_in.npy"), os.path.join(workdir, "q_out.npy")
    np.save(fin, q_in)
    np.save(fout, q_out)
    fixed = {}
    for key, args, strategy, _ in specs:
        if strategy != "fixed":
            continue
        method_args = ["-m", "clopper-pearson"] if key.startswith("threshold/") else args
        j, err, _, _ = tool.run(["--in", fin, "--out", fout, "--delta", repr(deltas[key]), "--thresholds", "max"]
                                + method_args)
        if j is None:
            raise SystemExit(f"run_cell.py: error: choosing the fixed threshold of {key}: {err} ({cell.name})")
        fixed[key] = max_rule(j)
    return fixed


def run_cell(cell, tool, runs, slow_runs, fdp_split_runs, only):
    specs = [s for s in row_specs() if not only or s[0] in only]
    deltas = {k: (DELTA_FALLBACK if cell.delta == 0 and needs_positive_delta(k) else cell.delta)
              for k, *_ in specs}
    limit = {"cheap": runs, "slow": min(runs, slow_runs), "fdp-split": min(runs, slow_runs, fdp_split_runs)}
    result = {"cell": cell.name, "kind": cell.kind, "size": cell.size, "delta": cell.delta, "runs": runs,
              "true_epsilon": {repr(d): cell.true_epsilon(d, tool_bin(tool)) for d in sorted(set(deltas.values()))},
              "true_mu": cell.true_mu(), "started": time.time(), "rows": {}}
    with tempfile.TemporaryDirectory() as workdir:
        fixed = fixed_thresholds(cell, tool, specs, deltas, workdir)
        result["fixed_thresholds"] = fixed
        rows = result["rows"]
        for key, args, strategy, kind in specs:
            rows[key] = {"kind": kind, "delta": deltas[key], "runs_planned": limit[cost_of(key)], "values": [],
                         "errors": [], "cpu": [], "wall": []}
            if kind == "interval":
                rows[key]["upper"] = []
            if kind == "gdp":
                rows[key]["mu"] = []
        seed = zlib.crc32(cell.name.encode())
        fin, fout = os.path.join(workdir, "in.npy"), os.path.join(workdir, "out.npy")
        for r in range(runs):
            rng = np.random.default_rng([seed, r])
            s_in, s_out = cell.sample(rng)
            np.save(fin, s_in)
            np.save(fout, s_out)
            for key, args, strategy, kind in specs:
                row = rows[key]
                if r >= row["runs_planned"]:
                    continue
                j, err, cpu, wall = tool.run(["--in", fin, "--out", fout, "--delta", repr(deltas[key])] + args
                                             + strategy_args(strategy, fixed.get(key), r + 1))
                row["cpu"].append(cpu)
                row["wall"].append(wall)
                if j is None:
                    row["errors"].append(f"run {r}: {err}")
                    continue
                if kind == "interval":
                    lo, hi = bootstrap_interval(j)
                    row["values"].append(lo)
                    row["upper"].append(hi)
                else:
                    row["values"].append(float(j["epsilon"]))
                    if kind == "gdp":
                        row["mu"].append(float(j["mu"]))
    result["finished"] = time.time()
    return result


def tool_bin(tool):
    return os.path.dirname(tool.exe)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the build's bin/ folder")
    ap.add_argument("--cell", required=True)
    ap.add_argument("--runs", type=int, required=True, help="runs of the cheap rows")
    ap.add_argument("--slow-runs", type=int, default=sys.maxsize, help="runs of multi-split and bootstrap rows")
    ap.add_argument("--fdp-split-runs", type=int, default=sys.maxsize,
                    help="runs of one-run-fdp (Gaussian curve) with multi-split, the slowest row")
    ap.add_argument("--rows", default="", help="comma-separated row keys (default: all)")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    only = set(filter(None, a.rows.split(",")))
    unknown = only - {k for k, *_ in row_specs()}
    if unknown:
        raise SystemExit(f"run_cell.py: error: unknown rows {sorted(unknown)} (--rows)")
    result = run_cell(Cell(a.cell), Tool(a.bin), a.runs, a.slow_runs, a.fdp_split_runs, only)
    tmp = a.output + ".tmp"
    with open(tmp, "w") as f:
        json.dump(result, f)
    os.replace(tmp, a.output)


if __name__ == "__main__":
    main()
