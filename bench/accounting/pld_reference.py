#!/usr/bin/python3
"""PLD against Google dp_accounting, row by row (issue 26): reads dp_accounting's reference rows
(../shared/reference/pld_dp_accounting.csv: its pessimistic and optimistic eps at its
discretisation interval 1e-4 and the seconds of its pessimistic estimate;
pld_dp_accounting_long.csv: 10^5 to 10^6 steps, its pessimistic eps and the CPU seconds of its own
computation, best of 3, measured on this machine kind), runs `rdp-compose --accountant pld --json`
on each row twice: at our default lattice (chosen from the run: an interval about 1e-4 of eps wide)
and at dp_accounting's own interval (`--lattice`, like for like). Best of 3 of the whole process
each (its startup included): CPU time (user + sys), the steady figure on a shared machine.
Prints a markdown table: the intervals and their widths beside dp_accounting's (pessimistic minus
optimistic where the csv has both; otherwise its pessimistic minus our lower end, which bounds its
error from above), and the ratio of our CPU time to theirs (below 1: faster).
When `import dp_accounting` works, dp_accounting is also run live on each row (its CPU time, best
of 3, by time.process_time) and its eps and time are printed beside the stored ones.
Usage: bench/accounting/pld_reference.py BIN_DIR CSV [CSV...] [--threads N]"""
import csv
import json
import resource
import subprocess
import sys
import time

args = [a for a in sys.argv[1:]]
threads = "1"
if "--threads" in args:
    i = args.index("--threads")
    threads = args[i + 1]
    del args[i:i + 2]
bin_dir = args[0] if args else "build/bin"
paths = args[1:] or ["../shared/reference/pld_dp_accounting.csv", "../shared/reference/pld_dp_accounting_long.csv"]

try:
    import dp_accounting  # noqa: F401
    from dp_accounting.pld import pld_privacy_accountant
    live = True
except ImportError:
    live = False


def run(row, extra):
    """(pld interval, best CPU seconds) of one row"""
    cmd = [f"{bin_dir}/rdp-compose", "--accountant", "pld", "--sigma", row["sigma"], "--q", row["q"], "--steps",
           row["steps"], "--delta", row["delta"], "--json", "--threads", threads] + extra
    cpu = None
    for _ in range(3):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = min(cpu or 1e9, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    j = json.loads(out)
    return (j["pld"]["lower"], j["pld"]["upper"]), cpu


def run_live(row):
    """dp_accounting's pessimistic eps and its CPU seconds, best of 3"""
    best, eps = None, None
    for _ in range(3):
        t0 = time.process_time()
        acc = pld_privacy_accountant.PLDAccountant(
            dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE,
            value_discretization_interval=float(row["discretization"]))
        acc.compose(dp_accounting.SelfComposedDpEvent(
            dp_accounting.PoissonSampledDpEvent(float(row["q"]), dp_accounting.GaussianDpEvent(float(row["sigma"]))),
            int(row["steps"])))
        eps = acc.get_epsilon(float(row["delta"]))
        best = min(best or 1e9, time.process_time() - t0)
    return eps, best


def width(interval):
    return interval[1] - interval[0]


print("| sigma | q | steps | delta | dp_accounting [opt, pess] | its width | its CPU s "
      "| ours, default [lower, upper] | width | CPU s | ratio | ours at its 1e-4 [lower, upper] | width "
      "| CPU s | ratio |" + (" live: its pess, CPU s |" if live else ""))
print("|---" * (15 + live) + "|")
rows = faster_default = faster_same = 0
for path in paths:
    for r in csv.DictReader(open(path)):
        rows += 1
        pess = float(r["eps_pessimistic"])
        opt = float(r["eps_optimistic"]) if "eps_optimistic" in r else None
        secs = float(r.get("seconds_pessimistic_best_of_3") or r["seconds_pessimistic"])
        default, cpu = run(r, [])
        same, cpu_same = run(r, ["--lattice", r["discretization"]])
        faster_default += cpu < secs
        faster_same += cpu_same < secs
        theirs = f"[{opt:.6g}, {pess:.6g}]" if opt is not None else f"[-, {pess:.6g}]"
        their_width = pess - opt if opt is not None else pess - default[0]
        line = (f"| {float(r['sigma']):.4g} | {float(r['q']):.4g} | {r['steps']} | {float(r['delta']):.3g} "
                f"| {theirs} | {their_width:.2g}{'' if opt is not None else ' (vs our lower)'} | {secs:.3f} "
                f"| [{default[0]:.7g}, {default[1]:.7g}] | {width(default):.2g} | {cpu:.3f} | {cpu / secs:.2f} "
                f"| [{same[0]:.7g}, {same[1]:.7g}] | {width(same):.2g} | {cpu_same:.3f} | {cpu_same / secs:.2f} |")
        if live:
            eps, live_cpu = run_live(r)
            line += f" {eps:.6g}, {live_cpu:.3f} |"
        print(line, flush=True)
print(f"\nfaster than dp_accounting's stored CPU seconds on {faster_default} of {rows} rows at our default lattice, "
      f"on {faster_same} of {rows} at its own discretisation" + ("" if live else " (dp_accounting not importable here: no live run)"))
