#!/usr/bin/env python3
"""The sequential gate measured (issue 24): eps-from-scores --sequential against the fixed-N
Clopper-Pearson bound on the same trials. Three parts, each a markdown table on stdout:

  validity   RUNS audits of the correct trainer (dp-train sgd, malicious-dataset game, simulated,
             clip 4, eps 2, delta 1e-5), TRIALS trials each, watched after every trial: the share
             whose sequential bound ever exceeds the run's eps (2, the PLD accountant's upper
             bound: the true eps is at most that), beside "re-run the fixed-N Clopper-Pearson
             bound after every LOOK trials and stop at the first exceedance". The same on a tight
             game, randomized response at pure eps 1 (decisions, fair-coin labels), where the
             bounds come close to the truth.
  detection  for each fault and eps: the trials the sequential gate (--fail-above eps) needs to
             exit 3, median and 90th percentile over DETECT_RUNS seeds.
  tightness  the correct trainer at eps 2: after N trials, the sequential bound beside the
             fixed-N bounds (bonferroni, split) on the same trials, medians over TIGHT_RUNS seeds.

Environment: BIN (the tools), RUNS, TRIALS, LOOK, DETECT_RUNS, DETECT_MAX, TIGHT_RUNS, TIGHT_N.
"""
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile

BIN = os.environ.get("BIN", "build/bin")
RUNS = int(os.environ.get("RUNS", "100"))
TRIALS = int(os.environ.get("TRIALS", "10000"))
LOOK = int(os.environ.get("LOOK", "100"))
DETECT_RUNS = int(os.environ.get("DETECT_RUNS", "20"))
DETECT_MAX = int(os.environ.get("DETECT_MAX", "100000"))
TIGHT_RUNS = int(os.environ.get("TIGHT_RUNS", "5"))
TIGHT_N = [int(n) for n in os.environ.get("TIGHT_N", "1000 10000 100000").split()]
DELTA = "1e-5"


def tool(name):
    return os.path.join(BIN, name)


def sgd_trials(seed, trials, eps=2, fault=None):
    cmd = [tool("dp-train"), "sgd", "--threat", "malicious-dataset", "--engine", "simulate",
           "--clip", "4", "--eps", str(eps), "--trials", str(trials), "--seed", str(seed), "-q"]
    if fault:
        cmd += ["--fault", fault]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def eps_from(text, *args):
    source = [] if "--decisions" in args else ["-"]
    r = subprocess.run([tool("eps-from-scores"), *source, "-q", *args], input=text,
                       capture_output=True, text=True)
    if r.returncode not in (0, 3):
        sys.exit(f"eps-from-scores {' '.join(args)}: {r.stderr.strip()}")
    return r


def sequential_bound(text, *args):
    return float(eps_from(text, "--sequential", *args).stdout)


def prefix(text, trials, rows_per_trial):
    lines = text.splitlines(keepends=True)
    return "".join(lines[: 1 + trials * rows_per_trial])


def ever_above_fixed(text, truth, rows_per_trial, trials, args):
    """Whether the fixed-N Clopper-Pearson bound, re-run after every LOOK trials, ever exceeds."""
    for n in range(LOOK, trials + 1, LOOK):
        if float(eps_from(prefix(text, n, rows_per_trial), *args).stdout) > truth:
            return True
    return False


def cp_interval(k, n):
    """A 95% Clopper-Pearson interval of k/n (bisection on the binomial tails, no scipy)."""
    def tail_ge(p):  # P(X >= k)
        return 1 - sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k))
    def tail_le(p):  # P(X <= k)
        return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))
    def solve(f, target, increasing):
        lo, hi = 0.0, 1.0
        for _ in range(60):
            mid = (lo + hi) / 2
            if (f(mid) < target) == increasing:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2
    lo = 0.0 if k == 0 else solve(tail_ge, 0.025, True)
    hi = 1.0 if k == n else solve(tail_le, 0.025, False)
    return lo, hi


def rr_decisions(seed, trials, eps):
    rng = random.Random(seed)
    keep = math.exp(eps) / (1 + math.exp(eps))
    rows = ["label,guess"]
    for _ in range(trials):
        label = rng.random() < 0.5
        guess = label if rng.random() < keep else not label
        rows.append(f"{int(label)},{int(guess)}")
    return "\n".join(rows) + "\n"


def validity():
    print(f"## Validity under continuous monitoring ({RUNS} runs of {TRIALS} trials)\n")
    print("| game | true eps (at most) | sequential: share ever above | fixed-N Clopper-Pearson "
          f"re-run every {LOOK} trials: share ever above |")
    print("|---|---|---|---|")
    cells = [("DP-SGD malicious-dataset, simulated, eps 2", 2.0, 2,
              lambda s: sgd_trials(s, TRIALS), ["--delta", DELTA], ["--delta", DELTA]),
             ("randomized response, pure eps 1", 1.0, 1,
              lambda s: rr_decisions(s, TRIALS, 1.0), ["--decisions", "-"],
              ["--decisions", "-", "--method", "clopper-pearson"])]
    for name, truth, rows, make, seq_args, fixed_args in cells:
        seq = fixed = 0
        for seed in range(1, RUNS + 1):
            text = make(seed)
            seq += sequential_bound(text, *seq_args) > truth
            fixed += ever_above_fixed(text, truth, rows, TRIALS, fixed_args)
        def cell(k):
            lo, hi = cp_interval(k, RUNS)
            return f"{k}/{RUNS} = {k / RUNS:.3f} [{lo:.3f}, {hi:.3f}]"
        print(f"| {name} | {truth:g} | {cell(seq)} | {cell(fixed)} |")
    print()


def detection():
    print(f"## Time to detection ({DETECT_RUNS} seeds, at most {DETECT_MAX} trials)\n")
    print("| fault | eps | sequential gate: median trials to exit 3 | 90th percentile | caught |")
    print("|---|---|---|---|---|")
    for fault in ["no-clip", "noise-ignores-clip"]:
        for eps in [1, 2, 4]:
            counts = []
            for seed in range(1, DETECT_RUNS + 1):
                text = sgd_trials(seed, DETECT_MAX, eps, fault)
                r = eps_from(text, "--sequential", "--delta", DELTA, "--fail-above", str(eps))
                if r.returncode == 3:
                    counts.append(int(r.stderr.split(" after ")[1].split()[0]))
            counts.sort()
            if counts:
                p90 = counts[min(len(counts) - 1, math.ceil(0.9 * len(counts)) - 1)]
                print(f"| {fault} | {eps} | {statistics.median(counts):g} | {p90} | "
                      f"{len(counts)}/{DETECT_RUNS} |")
            else:
                print(f"| {fault} | {eps} | - | - | 0/{DETECT_RUNS} |")
    print()


def tightness():
    print(f"## Tightness: the correct trainer at eps 2 (medians over {TIGHT_RUNS} seeds)\n")
    print("| trials | sequential | fixed-N bonferroni | fixed-N split |")
    print("|---|---|---|---|")
    for n in TIGHT_N:
        seq, bon, split = [], [], []
        for seed in range(1, TIGHT_RUNS + 1):
            text = sgd_trials(seed, n)
            seq.append(sequential_bound(text, "--delta", DELTA))
            bon.append(float(eps_from(text, "--delta", DELTA).stdout))
            split.append(float(eps_from(text, "--delta", DELTA, "--thresholds", "split",
                                        "--seed", str(seed)).stdout))
        print(f"| {n} | {statistics.median(seq):.2f} | {statistics.median(bon):.2f} | "
              f"{statistics.median(split):.2f} |")
    print()


if __name__ == "__main__":
    parts = sys.argv[1:] or ["validity", "detection", "tightness"]
    for p in parts:
        {"validity": validity, "detection": detection, "tightness": tightness}[p]()
