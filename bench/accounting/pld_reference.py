#!/usr/bin/python3
"""PLD against Google dp_accounting, row by row: reads tests/golden/pld_dp_accounting.csv
(dp_accounting's own pessimistic and optimistic eps at its discretisation interval, 1e-4, and its
seconds per row), runs `rdp-compose --accountant pld --json` on each row twice: at our default
lattice (chosen from the run: an interval about 1e-4 of eps wide) and at dp_accounting's own
interval (`--lattice`, the like-for-like comparison). Best of 3 of the whole process each: wall
clock, and CPU time (user + sys), the steadier figure on a shared machine. Prints a markdown
table: the intervals, whether they are consistent with dp_accounting's, and the times (faster:
our CPU time below their seconds).
Usage: bench/accounting/pld_reference.py BIN_DIR [CSV] [--threads N]"""
import csv
import json
import resource
import subprocess
import sys
import time

bin_dir = sys.argv[1] if len(sys.argv) > 1 else "build/bin"
path = sys.argv[2] if len(sys.argv) > 2 and not sys.argv[2].startswith("--") else "tests/golden/pld_dp_accounting.csv"
threads = sys.argv[sys.argv.index("--threads") + 1] if "--threads" in sys.argv else "1"


def run(row, extra):
    """(pld interval, rdp eps, best wall seconds, best CPU seconds) of one row"""
    cmd = [f"{bin_dir}/rdp-compose", "--accountant", "pld", "--sigma", row["sigma"], "--q", row["q"], "--steps",
           row["steps"], "--delta", row["delta"], "--json", "--threads", threads] + extra
    best = cpu = None
    for _ in range(3):
        t0, r0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best or 1e9, time.perf_counter() - t0)
        cpu = min(cpu or 1e9, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    j = json.loads(out)
    return (j["pld"]["lower"], j["pld"]["upper"]), j["rdp"]["eps"], best, cpu


def notes(interval, opt, pess):
    lo, up = interval
    out = []
    if up < opt:
        out.append("theirs above ours: see test_pld")
    if lo > pess:
        out.append("INCONSISTENT")
    if up < pess * (1 - 1e-4):
        out.append("tighter")
    return "; ".join(out)


print("| sigma | q | steps | delta | dp_accounting [opt, pess] | s | ours, default lattice [lower, upper] "
      "| CPU s | ours, their lattice [lower, upper] | CPU s | RDP | note (default; theirs) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
faster_default = faster_same = 0
rows = list(csv.DictReader(open(path)))
for r in rows:
    opt, pess, secs = float(r["eps_optimistic"]), float(r["eps_pessimistic"]), float(r["seconds_pessimistic"])
    default, rdp, _, cpu = run(r, [])
    same, _, _, cpu_same = run(r, ["--lattice", r["discretization"]])
    faster_default += cpu < secs
    faster_same += cpu_same < secs
    print(f"| {float(r['sigma']):.4g} | {float(r['q']):.4g} | {r['steps']} | {float(r['delta']):.3g} "
          f"| [{opt:.6g}, {pess:.6g}] | {secs:.3f} | [{default[0]:.6g}, {default[1]:.6g}] | {cpu:.3f} "
          f"| [{same[0]:.6g}, {same[1]:.6g}] | {cpu_same:.3f} | {rdp:.6g} "
          f"| {notes(default, opt, pess)}; {notes(same, opt, pess)} |")
print(f"\nfaster than dp_accounting on {faster_default} of {len(rows)} rows at our default lattice, "
      f"on {faster_same} of {len(rows)} at its own discretisation")
