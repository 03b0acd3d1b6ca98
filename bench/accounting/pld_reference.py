#!/usr/bin/python3
"""PLD against Google dp_accounting, row by row: reads ../shared/reference/pld_dp_accounting.csv
(dp_accounting's own pessimistic and optimistic eps at discretisation 1e-4 and its seconds per
row), runs `rdp-compose --accountant pld --json` on each row (best of 3 of the whole process: wall
clock, and CPU time (user + sys), the steadier figure on a shared machine), and prints a markdown
table: both intervals, whether they are consistent, and the times (faster: our CPU time below their
seconds). Usage: bench/accounting/pld_reference.py BIN_DIR [CSV] [--threads N]"""
import csv
import json
import resource
import subprocess
import sys
import time

bin_dir = sys.argv[1] if len(sys.argv) > 1 else "build/bin"
path = sys.argv[2] if len(sys.argv) > 2 and not sys.argv[2].startswith("--") else "../shared/reference/pld_dp_accounting.csv"
threads = sys.argv[sys.argv.index("--threads") + 1] if "--threads" in sys.argv else "1"

print("| sigma | q | steps | delta | dp_accounting [opt, pess] | s | ours [lower, upper] | wall s | CPU s | RDP | note |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
faster = 0
rows = list(csv.DictReader(open(path)))
for r in rows:
    cmd = [f"{bin_dir}/rdp-compose", "--accountant", "pld", "--sigma", r["sigma"], "--q", r["q"], "--steps", r["steps"],
           "--delta", r["delta"], "--json", "--threads", threads]
    best = cpu = None
    for _ in range(3):
        t0, r0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best or 1e9, time.perf_counter() - t0)
        cpu = min(cpu or 1e9, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    j = json.loads(out)
    lo, up = j["pld"]["lower"], j["pld"]["upper"]
    opt, pess, secs = float(r["eps_optimistic"]), float(r["eps_pessimistic"]), float(r["seconds_pessimistic"])
    note = []
    if up < opt:
        note.append("theirs above ours: see test_pld")
    if lo > pess:
        note.append("INCONSISTENT")
    if up < pess * (1 - 1e-4):
        note.append("tighter")
    faster += cpu < secs
    print(f"| {float(r['sigma']):.4g} | {float(r['q']):.4g} | {r['steps']} | {float(r['delta']):.3g} | [{opt:.6g}, {pess:.6g}] | {secs:.3f} "
          f"| [{lo:.6g}, {up:.6g}] | {best:.3f} | {cpu:.3f} | {j['rdp']['eps']:.6g} | {'; '.join(note)} |")
print(f"\nfaster than dp_accounting on {faster} of {len(rows)} rows")
