#!/usr/bin/env python3
"""make bench: regenerate every figure quoted in README.md and bench/*.md, and check them.

bench/probes.tsv names the commands (one line each: probe, area, full command, quick command);
bench/figures.tsv the figures (one line each: id, probe, the figure as quoted, which way is
better, the files that quote it, how to read the measured figure from the probe's output, how
to read the peer's figure beside it, what it is and its target). This script runs the probes
the selected figures need (each once, its output kept in BUILD/bench/logs/PROBE.log), reads
every figure, writes one table (bench/figures.md, and bench/figures.json with the numbers)
and checks each figure against the one quoted:

  contradicted  when measured / quoted is above 1 + TOL or below 1 / (1 + TOL) (TOL 0.30),
                whichever way: a figure stale in dpaudit's favour is as wrong as one that
                flatters it. The ratio is of the figure as quoted: seconds with seconds, a
                speed-up ("13.5x") with a speed-up, so a "x faster" figure is contradicted
                when the speed-up moved by more than 30%, whatever moved on either side.
  missing       the probe failed or its output no longer has the figure;
  unquoted      the quoted text is no longer in a file the registry says quotes it (the
                document moved on without the registry, or the reverse).

Any of these makes the run exit 1, with one exception: load only slows a run down, so a time
or a rate (kind "time" in the registry) that is worse than quoted while its probe ran on a
loaded machine (the 1-minute load average above 1.5 x the cores at the probe's end, or as the
driver printed it) does not contradict a figure measured on a quieter one: it is reported as
"slower, loaded" and is not fatal (BENCH_STRICT=1 makes it fatal). Better than quoted, a
ratio of a paired run, a count, memory or an accuracy (kind "fixed") is judged at any load.
Time figures are CPU time (user + sys) and best of N wherever the drivers measure them so;
the few wall-clock figures say "wall" in their description and are upper bounds.

Environment (make bench passes them): BENCH_ONLY: figure ids, probes or areas (space or comma
separated) to run; the other rows of bench/figures.md keep their last measurement and date.
BENCH_QUICK=1: each probe's quick command (smaller sizes; probes without one are skipped), the
table goes to BUILD/bench/figures-quick.md, and contradictions are reported, never fatal (the
sizes differ), only missing figures are. BENCH_REUSE=1: read the logs of the last run instead
of running the probes again (after editing a row's extraction). BENCH_TOL: the tolerance.
BENCH_STRICT=1: slower-than-quoted times are fatal at any load.

A probe that exits 77 measures hardware this machine lacks (bench/score_dump_cuda/run.sh without
a CUDA GPU): its figures keep their last measurement, and the run does not fail for them.
"""
import datetime
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SKIPPED = 77  # a probe's exit status when the machine lacks what it measures (a CUDA GPU)
ROOT = os.path.dirname(HERE)
NUMBER = re.compile(r"\d[\d,]*\.?\d*(?:[eE][-+]?\d+)?|\.\d+")


def number(text):
    """The first number in text, thousands separators dropped ("1,783 (1,729" -> 1783.0)."""
    found = NUMBER.search(text)
    if not found:
        raise ValueError(f"no number in {text!r}")
    return float(found.group(0).replace(",", ""))


def quoted_text(figure):
    """The quoted column without its " @N" suffix: the literal text the files hold."""
    return re.sub(r" @\d+$", "", figure["quoted"])


def quoted_value(figure):
    """The figure's number in the quoted text: the first, or the N-th with a " @N" suffix
    (for a quoted table row such as "| full, T 1000, seeds 1-3 | 1 | 137.3 @5")."""
    at = re.search(r" @(\d+)$", figure["quoted"])
    numbers = NUMBER.findall(quoted_text(figure))
    index = int(at.group(1)) - 1 if at else 0
    if index >= len(numbers):
        raise ValueError(f"{figure['id']}: no number {index + 1} in {quoted_text(figure)!r}")
    return float(numbers[index].replace(",", ""))


def read_tsv(path, fields):
    rows = []
    with open(path) as f:
        for line_no, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            cells = line.rstrip("\n").split("\t")
            if len(cells) != len(fields):
                sys.exit(f"{path}:{line_no}: {len(cells)} fields, expected {len(fields)} ({', '.join(fields)})")
            rows.append(dict(zip(fields, cells)))
    return rows


class Output:
    """The helpers a figure's expression reads a probe's output with."""

    def __init__(self, text):
        self.text = text

    def m(self, pattern, index=0):
        """Group 1 (or the whole match) of the index-th match of pattern, as a number."""
        found = list(re.finditer(pattern, self.text, re.M))
        if len(found) <= index:
            raise LookupError(f"no match {index} for /{pattern}/")
        match = found[index]
        return number(match.group(1) if match.groups() else match.group(0))

    def all(self, pattern):
        """Every match of pattern, as numbers (group 1 where there is one)."""
        values = [number(x.group(1) if x.groups() else x.group(0)) for x in re.finditer(pattern, self.text, re.M)]
        if not values:
            raise LookupError(f"no match for /{pattern}/")
        return values

    def cell(self, label, column, index=0):
        """Column `column` (1 = the first cell) of the index-th Markdown row that matches the
        regular expression label (searched in the row as printed: "| a | b |")."""
        rows = [r for r in self.table_rows() if re.search(label, "| " + " | ".join(r) + " |")]
        if len(rows) <= index:
            raise LookupError(f"no table row {index} matching /{label}/")
        return number(rows[index][column - 1])

    def column(self, label, column):
        """Column `column` of every Markdown row that matches label and has a number there."""
        values = []
        for r in self.table_rows():
            if re.search(label, "| " + " | ".join(r) + " |") and len(r) >= column and NUMBER.search(r[column - 1]):
                values.append(number(r[column - 1]))
        if not values:
            raise LookupError(f"no table row matching /{label}/ with a number in column {column}")
        return values

    def table_rows(self):
        return [[c.strip() for c in line.strip().strip("|").split("|")]
                for line in self.text.splitlines() if line.startswith("|") and not line.startswith("|---")]

    def evaluate(self, expression):
        names = {"m": self.m, "all": self.all, "cell": self.cell, "column": self.column,
                 "min": min, "max": max, "sum": sum, "len": len, "abs": abs}
        names["__builtins__"] = {}  # globals, so that a generator expression sees the helpers
        return float(eval(expression, names))  # the registry's own expressions


def selected(figures, probes, only):
    if not only:
        return figures
    words = set(re.split(r"[\s,]+", only.strip()))
    area = {p["probe"]: p["area"] for p in probes}
    chosen = [f for f in figures if words & {f["id"], f["probe"], area[f["probe"]], f["id"].split(".")[0]}]
    if not chosen:
        sys.exit(f"bench: BENCH_ONLY={only!r} selects no figure (ids, probes and areas are in bench/figures.tsv)")
    return chosen


def run_probe(probe, command, logs, env):
    log = os.path.join(logs, probe + ".log")
    print(f"bench: {probe}: {command}", file=sys.stderr, flush=True)
    start, cpu0 = time.time(), os.times()
    with open(log, "w") as f:
        rc = subprocess.call(["bash", "-c", command], cwd=ROOT, env=env, stdout=f, stderr=subprocess.STDOUT)
    cpu1 = os.times()
    seconds = time.time() - start
    cpu = cpu1.children_user - cpu0.children_user + cpu1.children_system - cpu0.children_system
    load = open("/proc/loadavg").read().split()[0]
    with open(log, "a") as f:  # read back by probe_load, also when the logs are reused
        f.write(f"bench: load average {load} at the end; {seconds:.0f} s wall, {cpu:.0f} s CPU, exit {rc}\n")
    print(f"bench: {probe}: exit {rc}, {seconds:.0f} s wall, {cpu:.0f} s CPU", file=sys.stderr, flush=True)
    return {"rc": rc, "seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1), "load": float(load)}


def probe_load(text):
    """The highest 1-minute load average the probe's log reports (its driver's lines and the
    one bench appends), or None."""
    loads = [float(x) for x in re.findall(r"load(?: average)?(?: before| after)?:? (\d+\.\d+)", text)]
    return max(loads) if loads else None


def utc(seconds):
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def machine():
    model, flags = "?", set()
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name") and model == "?":
                model = line.split(":", 1)[1].strip()
            if line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
    simd = [x for x in ("avx2", "fma", "avx512f", "avx512bw") if x in flags]
    return f"{model}, {os.cpu_count()} cores, {' '.join(simd) or 'no AVX2'}"


def verdict(figure, value, quoted, tol, load):
    if value is None:
        return "missing"
    ratio = value / quoted if quoted else float("inf")
    if 1 / (1 + tol) <= ratio <= 1 + tol:
        return "holds"
    better = (ratio > 1) == (figure["better"] == "higher")
    if not better and figure["kind"] == "time" and load is not None and load > 1.5 * os.cpu_count():
        return f"slower, loaded ({load:.1f})"
    return "contradicted (" + ("better" if better else "worse") + " than quoted)"


def quoted_in_files(figure):
    absent = []
    for where in figure["where"].split(","):
        with open(os.path.join(ROOT, where)) as f:
            if quoted_text(figure) not in f.read():
                absent.append(where)
    return absent


def measure(figures, probes, logs, quick, reuse, env):
    commands = {p["probe"]: p["quick" if quick else "full"] for p in probes}
    runs, results = {}, {}
    for probe in dict.fromkeys(f["probe"] for f in figures):
        command = commands[probe]
        if command == "-":
            runs[probe] = {"rc": None, "skipped": "no quick command"}
            continue
        log = os.path.join(logs, probe + ".log")
        if not reuse:
            runs[probe] = run_probe(probe, command, logs, env)
            if runs[probe]["rc"] == SKIPPED:
                runs[probe] = {"rc": None, "skipped": "needs hardware this machine lacks (exit 77)"}
                continue
        elif not os.path.exists(log):
            runs[probe] = {"rc": None, "skipped": "no log to reuse"}
            continue
        text = open(log).read() if os.path.exists(log) else ""
        if reuse and re.search(rf"exit {SKIPPED}\s*$", text):
            runs[probe] = {"rc": None, "skipped": "needs hardware this machine lacks (exit 77)"}
            continue
        when = utc(os.path.getmtime(log)) if os.path.exists(log) else "-"
        load = probe_load(text)
        for f in (f for f in figures if f["probe"] == probe):
            out, value, peer, error = Output(text), None, None, ""
            try:
                value = out.evaluate(f["measured"])
                peer = out.evaluate(f["peer"]) if f["peer"] != "-" else None
            except Exception as e:  # a registry row's error is that row's, never the run's
                error = f"{type(e).__name__}: {e}"
            results[f["id"]] = {"value": value, "peer": peer, "error": error, "when": when, "load": load}
    return runs, results


def fmt(x):
    if x is None:
        return "-"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    if x == 0 or abs(x) >= 0.01:
        return f"{x:.{max(3 - len(str(int(abs(x)))), 0) if abs(x) >= 1 else 3}f}"
    return f"{x:.3g}"


def table(figures, store, header):
    counts = {}
    for f in figures:
        verdict_word = store.get(f["id"], {}).get("verdict", "not run").split(" (")[0].split(";")[0]
        counts[verdict_word] = counts.get(verdict_word, 0) + 1
    summary = ", ".join(f"{n} {v}" for v, n in sorted(counts.items(), key=lambda c: -c[1]))
    lines = header + ["", f"{len(figures)} figures: {summary}.", "", "| id | what (target) | measured | peer | ours vs peer | quoted | measured / quoted | verdict | when (load) |",
                      "|---|---|---|---|---|---|---|---|---|"]
    for f in figures:
        r = store.get(f["id"], {})
        value, peer = r.get("value"), r.get("peer")
        vs = "-"
        if value is not None and peer:
            vs = f"{(peer / value if f['better'] == 'lower' else value / peer):.2f}x"
        load = f" ({r['load']:.1f})" if r.get("load") is not None else ""
        ratio = f"{value / quoted_value(f):.2f}" if value is not None and quoted_value(f) else "-"
        lines.append(f"| {f['id']} | {f['what']} | {fmt(value)} | {fmt(peer)} | {vs} | {quoted_text(f).replace('|', '&#124;')} | {ratio} "
                     f"| {r.get('verdict', 'not run')} | {r.get('when', '-')}{load} |")
    return "\n".join(lines) + "\n"


def main():
    build = os.environ.get("BUILD", "build")
    quick = os.environ.get("BENCH_QUICK", "") not in ("", "0")
    reuse = os.environ.get("BENCH_REUSE", "") not in ("", "0")
    tol = float(os.environ.get("BENCH_TOL", "0.30"))
    strict = os.environ.get("BENCH_STRICT", "") not in ("", "0")
    probes = read_tsv(os.path.join(HERE, "probes.tsv"), ["probe", "area", "full", "quick"])
    figures = read_tsv(os.path.join(HERE, "figures.tsv"),
                       ["id", "probe", "quoted", "better", "kind", "where", "measured", "peer", "what"])
    known = {p["probe"] for p in probes}
    for f in figures:
        if f["probe"] not in known:
            sys.exit(f"bench/figures.tsv: {f['id']}: no probe {f['probe']} in bench/probes.tsv")
    chosen = selected(figures, probes, os.environ.get("BENCH_ONLY", ""))
    logs = os.path.join(ROOT, build, "bench", "quick-logs" if quick else "logs")
    os.makedirs(logs, exist_ok=True)
    env = dict(os.environ, BIN=os.path.abspath(os.path.join(ROOT, build, "bin")),
               BUILD=os.path.abspath(os.path.join(ROOT, build)))
    load0, start = open("/proc/loadavg").read().split()[:3], time.time()
    runs, results = measure(chosen, probes, logs, quick, reuse, env)
    load1 = open("/proc/loadavg").read().split()[:3]
    now = utc(time.time())
    store_path = os.path.join(ROOT, build, "bench", "figures-quick.json") if quick else os.path.join(HERE, "figures.json")
    store = {}
    if os.path.exists(store_path):
        store = json.load(open(store_path)).get("figures", {})
    problems = []
    for f in chosen:
        r = results.get(f["id"])
        if r is None:  # a probe skipped in quick mode
            continue
        r["verdict"] = verdict(f, r["value"], quoted_value(f), tol, r["load"])
        if r["verdict"].startswith("slower") and strict:
            r["verdict"] = "contradicted (worse than quoted)"
        absent = quoted_in_files(f)
        if absent:
            r["verdict"] += f"; quoted text not in {', '.join(absent)}"
        store[f["id"]] = r
        fatal = r["value"] is None or absent or (r["verdict"].startswith("contradicted") and not quick)
        if fatal:
            problems.append(f"{f['id']}: {r['verdict']}: measured {fmt(r['value'])}, quoted {quoted_text(f)!r} "
                            f"in {f['where']}{' (' + r['error'] + ')' if r['error'] else ''}")
    seconds = time.time() - start
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    header = ["# Every quoted figure, regenerated (`make bench`)", "",
              "Generated by `bench/figures.py` from the registry `bench/figures.tsv` (figures) and "
              "`bench/probes.tsv` (commands); do not edit by hand. A figure is contradicted when the run "
              f"puts it more than {tol:.0%} away from the figure as quoted, either way; `make bench` then exits 1.", "",
              f"Last run: {now}, commit {commit}, {'quick (smaller sizes: not comparable)' if quick else 'full'}"
              f"{', BENCH_ONLY=' + os.environ['BENCH_ONLY'] if os.environ.get('BENCH_ONLY') else ''}; "
              f"{machine()}; load average {' '.join(load0)} before, {' '.join(load1)} after; "
              f"{seconds / 60:.1f} min{' (logs reused)' if reuse else ''}."]
    with open(store_path + ".tmp", "w") as f:
        json.dump({"figures": store, "last_run": {"when": now, "commit": commit, "probes": runs,
                                                   "seconds": round(seconds)}}, f, indent=1, sort_keys=True)
    os.replace(store_path + ".tmp", store_path)
    md = store_path[:-len(".json")] + ".md"
    with open(md + ".tmp", "w") as f:
        f.write(table(figures, store, header))
    os.replace(md + ".tmp", md)
    print(f"bench: {len(chosen)} figures, table in {os.path.relpath(md, ROOT)}", file=sys.stderr)
    for p in problems:
        print(f"bench: {p}", file=sys.stderr)
    failed = [p for p, r in runs.items() if r.get("rc")]
    for p in failed:
        print(f"bench: probe {p} exited {runs[p]['rc']} (log: {os.path.relpath(os.path.join(logs, p + '.log'), ROOT)})",
              file=sys.stderr)
    return 1 if problems or failed else 0


if __name__ == "__main__":
    sys.exit(main())
