#!/usr/bin/env bash
# bench/canife/run.sh BIN [T_SHORT] [T_LONG] [THREADS] [SEED]: CANIFE canary crafting (Maddock et al. 2023
# Alg. 1, sample level) of `dp-train canife` against the same crafting in plain PyTorch
# (craft_torch.py, Debian's python3-torch 1.13), mlp 784-128-10 (101,770 parameters),
# design pool M 512 test images, minibatch m 128, Adam lr 1, clip 1, C_n 1, loss cov;
# 100 mock rounds per audit at q 128/60000, z 0.2. Defaults: T_SHORT 500, T_LONG 2500
# (0: extrapolate T 2500 from T_SHORT instead of running it), THREADS 1, SEED 1. Environment:
# MOCK overrides the 100 mock rounds (smoke tests; with 4, dp-train stops on a negative eps_r).
#
# dp-train: `dp-train canife --rounds 2 --audit-every 1` (2 audits, at the initial model and
# after one DP-SGD step) at each T; --timings gives design_seconds (the pool's clipped
# gradients, L(z_0), the T Adam steps, L(z_T)) and mock_seconds per audit. Its CPU time is
# user + sys of the whole process (/usr/bin/time); the per-step CPU is differenced between
# the two T, (cpu(T_LONG) - cpu(T_SHORT)) / (2 (T_LONG - T_SHORT)), so start-up, data,
# training steps and mock rounds cancel.
# PyTorch: one audit (at its initial model) per T; it times its Adam loop alone, the whole
# design (the same parts as dp-train's design_seconds) and the mock rounds, wall and CPU.
#
# Prints per-run lines, then a Markdown table.
set -euo pipefail
BIN=$1
T_SHORT=${2:-500}
T_LONG=${3:-2500}
THREADS=${4:-1}
SEED=${5:-1}
MOCK=${MOCK:-100}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

dp_train() {  # dp_train T
  /usr/bin/time -f "%U %S" -o "$OUT/dp-train-$1.time" "$BIN/dp-train" canife --noise-multiplier 0.2 --rounds 2 \
    --audit-every 1 --design-steps "$1" --audit-rounds "$MOCK" --threads "$THREADS" --seed "$SEED" --quiet --out "$OUT/dp-train-$1" \
    --timings "$OUT/dp-train-$1.timings.json" >/dev/null
}
torch_peer() {  # torch_peer T
  /usr/bin/python3 "$HERE/craft_torch.py" --steps "$1" --threads "$THREADS" --seed "$SEED" --noise-multiplier 0.2 \
    --mock-rounds "$MOCK" >"$OUT/torch-$1.json"
}

echo "threads $THREADS, seed $SEED, T $T_SHORT and $T_LONG, $MOCK mock rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
STEPS=$T_SHORT
[ "$T_LONG" -gt 0 ] && STEPS="$T_SHORT $T_LONG"
for t in $STEPS; do  # one benchmark at a time
  dp_train "$t"
  torch_peer "$t"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

/usr/bin/python3 - "$OUT" "$T_SHORT" "$T_LONG" "$THREADS" <<'PY'
import csv, json, statistics, sys
out, ts, tl, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
mean = statistics.mean

def dp(t):
    rows = list(csv.DictReader(open(f"{out}/dp-train-{t}/audits.csv")))
    timings = json.load(open(f"{out}/dp-train-{t}.timings.json"))["audits"]
    cpu = sum(map(float, open(f"{out}/dp-train-{t}.time").read().split()))
    return {"design": [a["design_seconds"] for a in timings], "mock": [a["mock_seconds"] for a in timings],
            "health": [float(r["health"]) for r in rows], "cpu": cpu}

def pt(t):
    return json.load(open(f"{out}/torch-{t}.json"))

d_s, p_s = dp(ts), pt(ts)
for t in [ts] + ([tl] if tl else []):
    d, p = dp(t), pt(t)
    print(f"dp-train T {t}: design_seconds {' '.join(f'{v:.3f}' for v in d['design'])}, mock_seconds "
          f"{' '.join(f'{v:.3f}' for v in d['mock'])}, health {' '.join(f'{v:.6f}' for v in d['health'])}, "
          f"process CPU {d['cpu']:.2f} s")
    print(f"pytorch  T {t}: design {p['design_seconds']:.3f} s (CPU {p['design_cpu_seconds']:.3f}), loop "
          f"{p['loop_seconds']:.3f} s (CPU {p['loop_cpu_seconds']:.3f}), pool {p['pool_seconds']:.3f} s, mock "
          f"{p['mock_seconds']:.3f} s (CPU {p['mock_cpu_seconds']:.3f}), health {p['health']:.6f}")

rows = []
d_rate = ts / mean(d_s["design"])
p_rate = ts / p_s["design_seconds"]
p_loop = p_s["steps_per_second"]
rows.append((f"design steps/s, T {ts}: T / design_seconds (pool, losses included)", f"{d_rate:.1f}", f"{p_rate:.1f}",
             f"{d_rate / p_rate:.1f}x"))
if tl:
    d_l, p_l = dp(tl), pt(tl)
    d_step = (mean(d_l["design"]) - mean(d_s["design"])) / (tl - ts)
    d_step_cpu = (d_l["cpu"] - d_s["cpu"]) / (2 * (tl - ts))
    p_step = (p_l["loop_seconds"] + p_s["loop_seconds"]) / (tl + ts)
    p_step_cpu = (p_l["loop_cpu_seconds"] + p_s["loop_cpu_seconds"]) / (tl + ts)
    rows.append((f"Adam steps/s (dp-train: differenced T {tl} - {ts}; PyTorch: loop alone)", f"{1 / d_step:.1f}",
                 f"{1 / p_step:.1f}", f"{p_step / d_step:.1f}x"))
    rows.append(("Adam steps per CPU second (same)", f"{1 / d_step_cpu:.1f}", f"{1 / p_step_cpu:.1f}",
                 f"{p_step_cpu / d_step_cpu:.1f}x"))
    d_audit = mean(d_l["design"]) + mean(d_l["mock"])
    p_audit = p_l["design_seconds"] + p_l["mock_seconds"]
    rows.append((f"seconds per audit, T {tl} (design + {p_l['mock_rounds']} mock rounds), measured",
                 f"{d_audit:.2f} ({mean(d_l['design']):.2f} + {mean(d_l['mock']):.2f})",
                 f"{p_audit:.1f} ({p_l['design_seconds']:.1f} + {p_l['mock_seconds']:.1f})", f"{p_audit / d_audit:.1f}x"))
    p_audit_cpu = p_l["design_cpu_seconds"] + p_l["mock_cpu_seconds"]
    rows.append((f"CPU seconds per audit, T {tl} (dp-train: half its process, start-up and data included)",
                 f"{d_l['cpu'] / 2:.2f}", f"{p_audit_cpu:.1f}", f"{p_audit_cpu / (d_l['cpu'] / 2):.1f}x"))
    rows.append((f"health, T {ts}", " ".join(f"{v:.5f}" for v in d_s["health"]), f"{p_s['health']:.5f}", ""))
    rows.append((f"health, T {tl}", " ".join(f"{v:.5f}" for v in d_l["health"]), f"{p_l['health']:.5f}", ""))
else:
    p_audit = p_s["pool_seconds"] + p_s["loop_seconds"] * 2500 / ts + (p_s["design_seconds"] - p_s["pool_seconds"] - p_s["loop_seconds"]) + p_s["mock_seconds"]
    d_audit = mean(d_s["design"]) * 2500 / ts + mean(d_s["mock"])
    rows.append(("seconds per audit, T 2500, extrapolated (dp-train: design x 2500/T, an upper bound)",
                 f"{d_audit:.2f}", f"{p_audit:.1f}", f"{p_audit / d_audit:.1f}x"))
    rows.append((f"health, T {ts}", " ".join(f"{v:.5f}" for v in d_s["health"]), f"{p_s['health']:.5f}", ""))
print(f"| threads {threads} | dp-train | PyTorch | ratio |")
print("|---|---|---|---|")
for r in rows:
    print("| " + " | ".join(r) + " |")
PY
