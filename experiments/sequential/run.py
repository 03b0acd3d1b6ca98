#!/usr/bin/env python3
"""The sequential gate measured (issue 24): eps-from-scores --sequential against the fixed-N
Clopper-Pearson bound on the same trials. Three parts, each a markdown table on stdout:

  validity   RUNS audits of the correct trainer (dp-train sgd, malicious-dataset game, simulated,
             clip 4, eps 2, delta 1e-5), TRIALS trials each, watched after every trial: the share
             whose sequential bound ever exceeds the run's eps (2, the PLD accountant's upper
             bound: the true eps is at most that), beside "re-run the fixed-N Clopper-Pearson
             bound after every LOOK trials (up to FIXED_MAX) and stop at the first exceedance".
             The same on a tight game, randomized response at pure eps 1 (decisions, fair-coin
             labels), where the bounds come close to the truth. Run in process by DRIVER
             (validity.cpp): a million re-runs through the tools would take days.
  detection  for each fault and eps: the trials the sequential gate (--fail-above eps) needs to
             exit 3, median and 90th percentile over DETECT_RUNS seeds.
  tightness  the correct trainer at eps 2: after N trials, the sequential bound beside the
             fixed-N bounds (bonferroni, split) on the same trials, medians over TIGHT_RUNS seeds.

Environment: BIN (the tools), DRIVER, RUNS, TRIALS, LOOK, FIXED_MAX, DETECT_RUNS, DETECT_MAX,
TIGHT_RUNS, TIGHT_N.
"""
import json
import math
import os
import statistics
import subprocess
import sys

BIN = os.environ.get("BIN", "build/bin")
DRIVER = os.environ.get("DRIVER", "validity")
RUNS = int(os.environ.get("RUNS", "1000"))
TRIALS = int(os.environ.get("TRIALS", "100000"))
LOOK = int(os.environ.get("LOOK", "100"))
FIXED_MAX = int(os.environ.get("FIXED_MAX", "10000"))
DETECT_RUNS = int(os.environ.get("DETECT_RUNS", "20"))
DETECT_MAX = int(os.environ.get("DETECT_MAX", "100000"))
TIGHT_RUNS = int(os.environ.get("TIGHT_RUNS", "5"))
TIGHT_N = [int(n) for n in os.environ.get("TIGHT_N", "1000 10000 100000").split()]
DELTA = "1e-5"


def tool(name):
    return os.path.join(BIN, name)


def sgd_trials(seed, trials, eps=2, fault=None, json_summary=False):
    cmd = [tool("dp-train"), "sgd", "--threat", "malicious-dataset", "--engine", "simulate",
           "--clip", "4", "--eps", str(eps), "--trials", str(trials), "--seed", str(seed), "-q"]
    if fault:
        cmd += ["--fault", fault]
    if json_summary:
        cmd += ["--json"]
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


def sgd_game_parameters(eps=2):
    """The noise multiplier, rate and steps dp-train sgd calibrates for the game at eps."""
    run = json.loads(sgd_trials(1, 1, eps, json_summary=True))
    return run["noise_multiplier"], run["q"], run["steps"]


def validity():
    """In process (validity.cpp): the tools' library calls, RUNS x TRIALS, every trial watched."""
    print(f"## Validity under continuous monitoring ({RUNS} runs of {TRIALS} trials, "
          "looked at after every trial)\n")
    print("| game | true eps (at most) | sequential: share ever above | fixed-N Clopper-Pearson "
          f"re-run every {LOOK} trials: share ever above | CPU s |")
    print("|---|---|---|---|---|")
    z, q, steps = sgd_game_parameters()
    fixed_sgd = min(FIXED_MAX, TRIALS)
    cells = [(f"DP-SGD malicious-dataset, simulated, clip 4, eps 2 (re-runs up to {fixed_sgd} "
              "trials)", 2.0, ["sgd", RUNS, TRIALS, LOOK, fixed_sgd, repr(z), repr(q), steps, 2]),
             (f"randomized response, pure eps 1 (re-runs up to {TRIALS} trials)", 1.0,
              ["rr", RUNS, TRIALS, LOOK, TRIALS, 1])]
    for name, truth, args in cells:
        out = subprocess.run([DRIVER, *map(str, args)], check=True, capture_output=True,
                             text=True).stdout.split()
        runs, seq, fixed, cpu = int(out[0]), int(out[1]), int(out[2]), float(out[3])
        def cell(k):
            lo, hi = cp_interval(k, runs)
            return f"{k}/{runs} = {k / runs:.3f} [{lo:.3f}, {hi:.3f}]"
        print(f"| {name} | {truth:g} | {cell(seq)} | {cell(fixed)} | {cpu:.0f} |")
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
