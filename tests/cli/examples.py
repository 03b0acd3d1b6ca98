#!/usr/bin/env python3
"""Runs every example of the documentation as written (issue 9, item 15).

Collects the command examples of the README (``` blocks), of every man page (.nf/.fi
blocks) and of every tool's --help (its EXAMPLES section), and runs each with bash in a
scratch folder where the files the examples read exist (FIXTURES below, made with the
tools themselves). Sizes are shrunk by the rules in SHRINK so the whole set runs in about
a minute; nothing else is changed. An example passes when its exit status is the one it
promises: 3 where its comment says "exit 3", 0 otherwise (--device cuda without a GPU: the
refusal, 1 or 2).

usage: examples.py BIN SRC [--list]

With EXAMPLES_CAPTURE=DIR set, each example's command, exit status, stdout, stderr and the
checksums of the files it left are also written to DIR/<hash of the command>.txt (the
scratch path replaced by WORK), so two builds can be compared byte for byte with diff -r.
"""
import concurrent.futures
import hashlib
import os
import re
import shlex
import subprocess
import sys
import tempfile

TOOLS = ("canary-gen", "dp-train", "score-dump", "eps-from-scores", "eps-gauss2", "rdp-compose")
# Lines that start an example: one of our tools, a variable set from one, or a printf fed to one.
STARTS = TOOLS + ("printf", "sigma=$(", "export PATH")

# Sizes shrunk for a test (pattern -> replacement, applied in order to every example).
# The documented values are the papers' settings; the test runs the same commands small.
SHRINK = [
    (r"--dim 1000000\b", "--dim 3000"),
    (r"--null-dim 1000000\b", "--null-dim 3000"),
    (r"--dim 100000\b", "--dim 3000"),
    (r"--count 1000\b", "--count 100"),
    (r"--first-index 1000\b", "--first-index 100"),
    (r"--trials 100000\b", "--trials 3000"),
    (r"--trials 10000\b", "--trials 3000"),
    (r"--num-canaries 1000\b", "--num-canaries 20"),
    (r"--num-unseen 1000\b", "--num-unseen 20"),
    (r"--clients 3000\b", "--clients 200"),
    (r"--clients-per-round 100\b", "--clients-per-round 20"),
]
# The same for training runs, applied to the dp-train part of a pipe only (rdp-compose
# --empirical's --rounds is the run's length, not a size).
SHRINK_TRAINING = [
    (r"--rounds \d+", "--rounds 4"),
    (r"--audit-every \d+", "--audit-every 2"),
    (r"--design-steps \d+", "--design-steps 5"),
]
# Options appended to runs whose default size is a paper's full run (only where absent).
SMALL_RUN = {
    "dp-train fedavg": "--rounds 4 --clients 200 --clients-per-round 20",
    "dp-train canife": "--rounds 4 --audit-every 2 --audit-rounds 10 --design-steps 5 --design-pool 16",
    "dp-train sgd": "--train-size 200 --steps 12",
    "dp-train ldp": "--trials 500",
}

ROFF = [("\\\\", "\\"), ("\\-", "-"), ("\\e", "\\"), ("\\(aq", "'"), ("\\(dq", '"'), ("\\&", ""), ("\\(em", "--")]


def unroff(line):
    for a, b in ROFF:
        line = line.replace(a, b)
    return line


def join_continued(lines):
    """Joins lines continued by a trailing '|' or '\\' into one command per entry."""
    out, cur = [], ""
    for raw in lines:
        line = raw.rstrip()
        code = strip_comment(line).rstrip()
        if cur:
            cur += "\n" + line
        elif code.strip().startswith(STARTS):
            cur = line
        else:
            continue
        if not (code.endswith("|") or code.endswith("\\")):
            out.append(cur.strip())
            cur = ""
    if cur:
        out.append(cur.strip())
    return out


def strip_comment(line):
    """The line without its trailing '# ...' comment (a '#' outside quotes after a blank)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
    return line


def readme_examples(src):
    lines, inside, blocks = open(os.path.join(src, "README.md")).read().splitlines(), False, []
    for line in lines:
        if line.startswith("```"):
            inside = not inside
            continue
        if inside:
            blocks.append(line)
        else:
            blocks.append("")
    return [("README.md", c) for c in join_continued(blocks)]


def man_examples(src):
    found = []
    mandir = os.path.join(src, "man")
    for name in sorted(os.listdir(mandir)):
        inside, block = False, []
        for line in open(os.path.join(mandir, name)).read().splitlines():
            if line.startswith(".nf"):
                inside = True
            elif line.startswith(".fi"):
                inside = False
                block.append("")
            elif inside:
                block.append(unroff(line))
        found += [("man/" + name, c) for c in join_continued(block)]
    return found


def help_examples(bin_dir):
    found = []
    commands = [[t] for t in TOOLS] + [["dp-train", s] for s in ("sum", "fedavg", "ldp", "sgd", "canife")]
    for cmd in commands:
        text = subprocess.run([os.path.join(bin_dir, cmd[0])] + cmd[1:] + ["--help"],
                              capture_output=True, text=True, check=True).stdout
        if "EXAMPLES" not in text:
            continue
        body = text.split("EXAMPLES", 1)[1].splitlines()[1:]
        found += [(" ".join(cmd) + " --help", c) for c in join_continued(body)]
    return found


def shrink(command):
    command = "\n".join(strip_comment(line).rstrip() for line in command.splitlines())
    for pattern, repl in SHRINK:
        command = re.sub(pattern, repl, command)
    segments = command.split("|")
    for i, seg in enumerate(segments):
        if seg.strip().startswith("dp-train"):
            for pattern, repl in SHRINK_TRAINING:
                seg = re.sub(pattern, repl, seg)
            segments[i] = seg
    command = "|".join(segments)
    for prefix, extra in SMALL_RUN.items():
        segments = command.split("|")
        for i, seg in enumerate(segments):
            if seg.strip().startswith(prefix) and "--engine simulate" not in seg:
                add = [o for o in re.findall(r"--[\w-]+ \S+", extra) if o.split()[0] not in seg]
                # Append before an output redirection so the options stay the tool's.
                head, sep, tail = seg.partition(" >")
                head = head.rstrip().rstrip("\\").rstrip()
                segments[i] = head + " " + " ".join(add) + ((" " + sep.strip() + tail) if sep else " ")
        command = "|".join(segments)
    return command



# Whether the build has CUDA (ctest passes DPAUDIT_CUDA) and a GPU answers: an example with
# --device cuda runs on it there, and elsewhere must refuse as score-dump(1) says (exit 1
# without a GPU, 2 in a build without CUDA), not fail in some other way.
CUDA_RUNS = os.environ.get("DPAUDIT_CUDA") == "ON" and subprocess.run(
    "nvidia-smi -L", shell=True, capture_output=True).returncode == 0


def expected_statuses(command):
    """{3} where the example promises exit 3, {0, 3} where it says "exit 3 above X" (a
    gate whose outcome depends on the data), {1, 2} for --device cuda where it cannot run, {0}
    otherwise."""
    if "--device cuda" in command and not CUDA_RUNS:
        return {1, 2}
    comments = " ".join(line[len(strip_comment(line)):] for line in command.splitlines())
    if re.search(r"\bexit 3 above\b", comments):
        return {0, 3}
    return {3} if re.search(r"\bexit 3\b", comments) else {0}


# Trained-model games run a handful of trials in the test (the simulated ones stay as written).
def shrink_trials(command):
    if command.startswith("dp-train ldp"):
        command = re.sub(r"--trials \d+", "--trials 500", command)
    if re.search(r"--threat (api|gradient-canary)\b", command):
        command = re.sub(r"--trials \d+", "--trials 6", command)
        command = re.sub(r"--trial-range 0:\d+", "--trial-range 0:3", command)
    return command


def fixtures(bin_dir, python, root):
    """The files the examples read, made with the tools at the shrunk sizes."""
    script = f"""
set -eu
export PATH="{bin_dir}:$PATH"
canary-gen --kind sphere --count 100 --dim 3000 --seed 7 > canaries.json
canary-gen --kind sphere --count 100 --dim 3000 --seed 7 --first-index 100 > unseen.json
cp canaries.json seen.json
dp-train sum --dim 3000 --clients 0 --canaries canaries.json --noise 0.541 --seed 1 -o release.npy
dp-train sum --dim 3000 --clients 0 --canaries canaries.json --noise 0.541 --seed 2 -o final.npy
dp-train sum --dim 3000 --clients 0 --noise 0.01 --seed 3 -o init.npy
score-dump --canaries canaries.json --model release.npy > cosines3000.csv
canary-gen --kind sphere --count 100 --dim 101770 --seed 7 > c101770.json
dp-train sum --dim 101770 --clients 0 --canaries c101770.json --noise 0.541 --seed 1 -o - |
  score-dump --canaries c101770.json --model - > cosines.csv
canary-gen --kind sphere --count 10 --dim 650 --seed 1 > c.json
dp-train ldp --crafter dummy-gradient --eps 4 --trials 1000 -o game.csv
dp-train ldp --crafter dummy-gradient --eps 4 --trials 1000 --trial-range 0:500 -o game0.csv --quiet
dp-train ldp --crafter dummy-gradient --eps 4 --trials 1000 --trial-range 500:1000 -o game1.csv --quiet
for k in 0 1 2; do
  dp-train sgd --threat malicious-dataset --engine simulate --eps 4 --trials 3000 --quiet \\
    --trial-range $((k * 1000)):$((k * 1000 + 1000)) -o part$k.csv
done
printf 'sigma,q,steps\\n1.1,0.01,1000\\n0.8,0.02,500\\n' > segments.csv
rdp-compose --accountant pld --sigma 2.2477 --q 0.1 --steps 100 --tradeoff curve.csv
dp-train canife --task synthetic --q 0.05 --rounds 4 --audit-every 2 --audit-rounds 10 \\
  --design-steps 5 --design-pool 16 --noise-multiplier 1 --out run/ >/dev/null
dp-train canife --level user --task synthetic --clients 50 --q 0.2 --rounds 4 --audit-every 2 \\
  --audit-rounds 10 --design-pool 8 --design-steps 5 --noise-multiplier 1 --out user/ --quiet
dp-train fedavg --clients 100 --clients-per-round 10 --rounds 2 \\
  --num-canaries 10 --num-unseen 10 --out fedavg/ --quiet
cp fedavg/scores_final.csv fedavg/scores_all.csv run/
"{python}" - <<'PY'
import numpy as np
rng = np.random.default_rng(1)
# Two-class scores with a round column (10 rounds of 40 scores), and a one-run audit:
# 1,000 canaries each included with probability 1/2, included ones scoring higher.
rounds = np.repeat(np.arange(10), 40)
labels = np.tile(np.r_[np.zeros(20, int), np.ones(20, int)], 10)
scores = rng.normal(size=400) + 2.5 * labels
with open("scores.csv", "w") as f:
    f.write("round,trial,label,score\\n")
    for i, (r, l, s) in enumerate(zip(rounds, labels, scores)):
        f.write(f"{{r}},{{i}},{{l}},{{s:.6f}}\\n")
inc = rng.integers(0, 2, 1000)
with open("canaries.csv", "w") as f:
    f.write("label,score\\n")
    for l, s in zip(inc, rng.normal(size=1000) + 3.0 * inc):
        f.write(f"{{l}},{{s:.6f}}\\n")
np.save("seen.npy", rng.normal(0.01, 0.003, 200))
np.save("unseen.npy", rng.normal(0.0, 0.003, 200))
np.save("clients.npy", rng.normal(size=(5, 3)))
np.save("deltas.npy", np.stack([np.load("release.npy"), np.load("final.npy")]))
PY
"""
    subprocess.run(["bash", "-c", script], cwd=root, check=True, stdout=subprocess.DEVNULL)


def collect(bin_dir, src):
    """(source, command) pairs in document order, each command once; and every tool
    that has no example in one kind of source (README, man pages, --help)."""
    everything = readme_examples(src) + man_examples(src) + help_examples(bin_dir)
    missing = [f"{t} in {kind}" for t in TOOLS for kind in ("README.md", "man/", "--help")
               if not any(kind in w and t + " " in c for w, c in everything)]
    seen, out = set(), []
    for where, command in everything:
        if command not in seen:
            seen.add(command)
            out.append((where, command))
    return out, missing


def run_one(tmp, base, env, n, where, command, prelude):
    """Runs one example in a fresh copy of the fixtures; returns a failure message or None."""
    run = shrink_trials(shrink(command))
    work = os.path.join(tmp, f"ex{n}")
    subprocess.run(["cp", "-a", base, work], check=True)
    for out_dir in re.findall(r"^dp-train .*--out (\S+)", run, re.S):
        subprocess.run(["rm", "-rf", os.path.join(work, out_dir)], check=True)
    script = "set -o pipefail\n" + "\n".join(prelude + [run]) + "\n"
    try:
        done = subprocess.run(["bash", "-c", script], cwd=work, env=env,
                              capture_output=True, text=True, timeout=120)
        status, err = done.returncode, done.stderr.strip().splitlines()[-3:]
        capture(work, run, done)
    except subprocess.TimeoutExpired:
        status, err = "timeout", ["ran over 120 s"]
    subprocess.run(["rm", "-rf", work], check=True)
    want = expected_statuses(command)
    if status in want:
        return None
    return f"FAIL [{where}] exit {status}, wanted {sorted(want)}:\n  {run}\n  " + "\n  ".join(err)


def capture(work, run, done):
    """Writes the example's outcome to $EXAMPLES_CAPTURE (see the module comment)."""
    folder = os.environ.get("EXAMPLES_CAPTURE")
    if not folder:
        return
    files = []
    for root, _, names in os.walk(work):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                files.append(f"{hashlib.sha256(f.read()).hexdigest()}  {os.path.relpath(path, work)}")
    text = "\n".join([run, f"exit {done.returncode}", "--- stdout", done.stdout, "--- stderr",
                      done.stderr, "--- files"] + sorted(files)) + "\n"
    key = hashlib.sha256(run.encode()).hexdigest()[:16]
    with open(os.path.join(folder, key + ".txt"), "w") as f:
        f.write(text.replace(work, "WORK"))


def main():
    bin_dir, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    python = os.environ.get("PYTHON", "/usr/bin/python3")
    examples, missing = collect(bin_dir, src)
    if "--list" in sys.argv:
        for where, command in examples:
            print(f"[{where}] {shrink_trials(shrink(command))}")
        return 0
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"],
               A="0", B="3", SLURM_ARRAY_TASK_ID="0")
    # An example that sets a variable (sigma=$(...), export) is run before every later
    # example of the same file, as a reader typing them in order would have it.
    jobs, preludes = [], {}
    for n, (where, command) in enumerate(examples):
        prelude = preludes.setdefault(where, [])
        jobs.append((n, where, command, list(prelude)))
        if re.match(r"(export |\w+=\$\()", command):
            prelude.append(shrink(command))
    # The extraction itself is checked: every tool has examples, in every kind of source.
    if missing:
        print("no examples found for " + ", ".join(missing), file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.join(tmp, "fixtures")
        os.mkdir(base)
        fixtures(bin_dir, python, base)
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            failures = [f for f in pool.map(lambda j: run_one(tmp, base, env, *j), jobs) if f]
    for f in failures:
        print(f, file=sys.stderr)
    print(f"{len(examples) - len(failures)} examples ran as documented, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
