#!/usr/bin/env bash
# bench/sgd/poison.sh BIN [TRIALS] [POISONS]: the cost of each of Nasr et al. 2021's six threat models
# in `dp-train sgd` (Nasr et al. 2021's reduced setting as experiments/sgd.mk: N 1000, q 0.1, mlp
# 784-32-10, 100 steps, lr 1, eps 4, one thread), and Crafter 3's double-backprop step
# against the same step in plain PyTorch (craft_functorch.py: functorch, and autograd
# with create_graph), one thread each.
#
# Per threat model: trials/s of the game after its setup (TRIALS trials per hypothesis,
# default 20: 2 TRIALS models / (seconds - setup_seconds)), the setup (data, initial
# model, and for the poisons the 8 shadow models and C2's 100 ascent steps, once per run
# and shard), and for adaptive-poison the CPU time of crafting per trial and per step.
# The simulated malicious-dataset game plays 100,000 trials. C3 step: dp-train's CPU
# seconds per step (craft_seconds / (crafts x 10)) against the peers' CPU seconds per
# step (time.process_time), POISONS poisons of 10 steps each (default 100).
set -euo pipefail
BIN=$1
TRIALS=${2:-20}
POISONS=${3:-100}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
SETTING=(--train-size 1000 --q 0.1 --steps 100 --lr 1 --eps 4 --threads 1 --quiet --json)

for threat in api static-poison intermediate-poison adaptive-poison gradient-canary; do
  "$BIN/dp-train" sgd --threat "$threat" "${SETTING[@]}" --trials "$TRIALS" >"$OUT/$threat.json"
done
"$BIN/dp-train" sgd --threat malicious-dataset --train-size 1000 --q 0.1 --steps 100 --eps 4 --threads 1 --quiet \
  --json --trials "$TRIALS" >"$OUT/malicious-dataset.json"
"$BIN/dp-train" sgd --threat malicious-dataset --engine simulate --q 0.1 --steps 100 --eps 4 --threads 1 --quiet \
  --json --trials 100000 >"$OUT/simulated.json"
for api in functorch autograd; do
  /usr/bin/python3 "$HERE/craft_functorch.py" --api $api --hidden 32 --steps 10 --poisons "$POISONS" --threads 1 \
    >"$OUT/peer-$api.json"
done

/usr/bin/python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
load = lambda name: json.load(open(f"{out}/{name}.json"))
print("| threat model | trials/s (after setup) | setup s | crafting per trial |")
print("|---|---|---|---|")
for name in ["api", "static-poison", "intermediate-poison", "adaptive-poison", "gradient-canary",
             "malicious-dataset", "simulated"]:
    j = load(name)
    trials = j["trial_range"][1] - j["trial_range"][0]
    rate = trials / (j["seconds"] - j.get("setup_seconds", 0))
    craft = "-"
    if name in ("static-poison", "intermediate-poison"):
        craft = "once per run: in the setup"
    if name == "adaptive-poison":
        craft = f"{j['craft_seconds'] / trials * 1e3:.1f} ms CPU ({j['crafts'] / trials:.1f} poisons)"
    label = "malicious-dataset, simulated" if name == "simulated" else name
    print(f"| {label} | {rate:,.1f} | {j.get('setup_seconds', 0):.2f} | {craft} |")
a = load("adaptive-poison")
ours = a["craft_seconds"] / (a["crafts"] * a["adaptive_steps"])
print()
print("| C3 step (mlp 784-32-10, 1 thread) | CPU ms per step | dp-train's speed-up |")
print("|---|---|---|")
print(f"| dp-train (closed form, Eigen) | {ours * 1e3:.3f} | 1 |")
for api in ["functorch", "autograd"]:
    p = load(f"peer-{api}")
    print(f"| PyTorch {api} | {p['cpu_seconds_per_step'] * 1e3:.3f} | {p['cpu_seconds_per_step'] / ours:.1f}x |")
PY
