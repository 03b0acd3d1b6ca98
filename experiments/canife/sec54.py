#!/usr/bin/python3
"""Andrew et al. 2024, Sec. 5.4: CANIFE's eps_hat recomputed from the saved audits of R1 under
every reading of Maddock et al. 2023's composition (experiments/canife.md, "Which rule gives
0.879?"). Usage: sec54.py DIR SEEDS... (DIR/r1_SEED/scores.csv and run.json, as dp-train canife
writes them; rdp-compose on PATH). Prints a markdown table on stdout.

Per-round eps_r, from the scores (label 1: the canary was in the mock round):
  search     max over thresholds "in when score >= t" of log((1 - d - FPR)/FNR) and
             log((1 - d - FNR)/FPR), a threshold with one zero rate skipped, both zero: inf
             (Maddock et al.'s canary_analyser.py since February 2023; dpaudit's eps_r)
  max-acc    at the single threshold of maximum accuracy ("in when score > t"), inf when
             either error count is 0 (the first public code, October 2022)
  literal    Alg. 2 line 6 as printed: the max over every threshold, a zero rate included (inf)
Composition, RDP at the run's q, final delta 1e-5:
  one-step   sigma_r = the noise of ONE Gaussian step (q = 1) at (max(eps_r, 0.15), d_r); inf ->
             the run's sigma 0.2 (code since February 2023) or the n-score cap (capped reading)
  segment    sigma_r = the noise at which the audit's whole segment of rounds at q meets
             (eps_r, 1e-5); inf audits skipped, their rounds joining the next finite audit's
             (October 2022)
Each GetNoise is `rdp-compose --eps E --q Q --steps L --delta D`, each GetPrivacy
`rdp-compose --events - --delta 1e-5`: the composition is recomputed here, not read from run.json.
"""
import csv
import json
import math
import statistics
import subprocess
import sys

INF = math.inf


def rdp(*args, stdin=None):
    out = subprocess.run(["rdp-compose", *map(str, args)], input=stdin, capture_output=True,
                         text=True, check=True)
    return float(out.stdout)


def get_noise(eps, q, steps, delta):
    return rdp("--eps", repr(eps), "--q", repr(q), "--steps", steps, "--delta", repr(delta))


def get_privacy(events, delta=1e-5):
    if not events:
        return INF
    if any(s == 0 for s, _, _ in events):
        return INF  # an infinite eps_r read as no noise
    csv_text = "sigma,q,steps\n" + "".join(f"{s!r},{q!r},{n}\n" for s, q, n in events)
    return rdp("--events", "-", "--delta", repr(delta), stdin=csv_text)


def rates_eps(fp, n_out, fn, n_in, d):
    fpr, fnr = fp / n_out, fn / n_in
    terms = []
    if fnr > 0:
        terms.append((1 - d - fpr) / fnr)
    if fpr > 0:
        terms.append((1 - d - fnr) / fpr)
    return max(0.0, math.log(max(terms))) if max(terms) > 0 else 0.0


def eps_search(ins, outs, d, skip_one_zero=True):
    best = 0.0
    for t in sorted(set(ins + outs), reverse=True):
        fp = sum(s >= t for s in outs)
        fn = sum(s < t for s in ins)
        if fp == 0 and fn == 0:
            return INF
        if (fp == 0 or fn == 0):
            if not skip_one_zero:
                return INF
            continue
        best = max(best, rates_eps(fp, len(outs), fn, len(ins), d))
    return best


def eps_max_accuracy(ins, outs, d):
    best_t, best_correct = None, -1
    for t in sorted(set(ins + outs), reverse=True):  # ties: the highest threshold
        correct = sum(s > t for s in ins) + sum(s <= t for s in outs)
        if correct > best_correct:
            best_t, best_correct = t, correct
    fp = sum(s > best_t for s in outs)
    fn = sum(s <= best_t for s in ins)
    return INF if fp == 0 or fn == 0 else rates_eps(fp, len(outs), fn, len(ins), d)


def backward_cover(rounds, total):
    return [(r + 1 if j == 0 else r - rounds[j - 1]) + (total - 1 - r if j + 1 == len(rounds) else 0)
            for j, r in enumerate(rounds)]


def forward_cover(rounds, total):
    nxt = rounds[1:] + [total]
    return [(n - r) + (r if j == 0 else 0) for j, (r, n) in enumerate(zip(rounds, nxt))]


def one_step(eps_r, cover, q, d_r, sigma_if_inf, floor=0.15):
    sig = [sigma_if_inf if math.isinf(e) else get_noise(max(e, floor), 1, 1, d_r) for e in eps_r]
    return get_privacy([(s, q, n) for s, n in zip(sig, cover)])


def segment(eps_r, cover, q, delta=1e-5, floor=0.15):
    joined, pending, last = [0] * len(cover), 0, None
    for j, (e, n) in enumerate(zip(eps_r, cover)):
        pending += n
        if not math.isinf(e):
            joined[j], pending, last = pending, 0, j
    if last is None:
        return INF
    joined[last] += pending
    events = [(get_noise(max(e, floor), q, n, delta), q, n) for e, n in zip(eps_r, joined) if n]
    return get_privacy(events)


def constant_for(target, rule, lo=0.05, hi=3.8):
    """The constant eps_r at which `rule` gives eps_hat = target (bisection), None if out of reach."""
    if rule(hi) < target:
        return None
    for _ in range(40):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if rule(mid) < target else (lo, mid)
    return (lo + hi) / 2


def fmt(values):
    finite = [v for v in values if not math.isinf(v)]
    n_inf = len(values) - len(finite)
    if not finite:
        return "inf (every seed)"
    s = f"{statistics.mean(finite):.3f}"
    if len(finite) > 1:
        s += f" +- {statistics.stdev(finite):.3f}"
    return s + (f" ({n_inf} of {len(values)} seeds inf)" if n_inf else "")


def main():
    out, seeds = sys.argv[1], sys.argv[2:]
    rows = {k: [] for k in ("code23", "check23", "capped", "code22", "alg2", "alg2skip", "alg2cap")}
    counts = {"sep": 0, "finite22": 0, "audits": 0}
    for seed in seeds:
        run = json.load(open(f"{out}/r1_{seed}/run.json"))
        c = run["config"]
        q, total, n, sigma = c["q"], c["rounds"], c["audit_rounds"], run["noise_multiplier"]
        scores = {}
        for r in csv.DictReader(open(f"{out}/r1_{seed}/scores.csv")):
            scores.setdefault(int(r["round"]), ([], []))[r["label"] == "0"].append(float(r["score"]))
        rounds = sorted(scores)
        back, fwd = backward_cover(rounds, total), forward_cover(rounds, total)
        e23 = [eps_search(*scores[r], 1 / n) for r in rounds]
        e22 = [eps_max_accuracy(*scores[r], 1e-5) for r in rounds]
        e5 = [eps_search(*scores[r], 1e-5) for r in rounds]
        lit = [eps_search(*scores[r], 1e-5, skip_one_zero=False) for r in rounds]
        cap_1n = math.log((1 - 3 / n) / (2 / n))            # one error on each side, d = 1/n
        cap_5 = math.log((1 - 1e-5 - 2 / n) / (2 / n))      # the same at d = 1e-5
        counts["audits"] += len(rounds)
        counts["sep"] += sum(math.isinf(e) for e in e23)
        counts["finite22"] += sum(not math.isinf(e) for e in e22)
        rows["code23"].append(one_step(e23, back, q, 1 / n, sigma))
        rows["check23"].append(abs(rows["code23"][-1] - run["eps_hat"]) < 1e-6 * run["eps_hat"])
        rows["capped"].append(one_step([min(e, cap_1n) for e in e23], back, q, 1 / n, sigma))
        rows["code22"].append(segment(e22, back, q))
        rows["alg2"].append(one_step(lit, fwd, q, 1e-5, 0, floor=1e-9))
        rows["alg2skip"].append(one_step(e5, fwd, q, 1e-5, 0, floor=1e-9))
        rows["alg2cap"].append(one_step([min(e, cap_5) for e in e5], fwd, q, 1e-5, 0, floor=1e-9))
    need23 = constant_for(0.879, lambda e: one_step([e] * 5, back, q, 1 / n, sigma))
    need22 = constant_for(0.879, lambda e: segment([e] * 5, back, q))
    need_alg2 = constant_for(0.879, lambda e: one_step([e] * 5, fwd, q, 1e-5, 0, floor=1e-9),
                             hi=cap_5)
    print(f"{len(seeds)} seeds, {counts['audits']} audits: {counts['sep']} separate (eps_r = inf by "
          f"the search); {counts['finite22']} finite at the max-accuracy threshold; run.json's eps_hat "
          f"recomputed: {all(rows['check23'])}\n")
    print("| reading | eps_r | composition | eps_hat (mean +- sd) | constant eps_r that gives 0.879 |")
    print("|---|---|---|---|---|")
    print(f"| Maddock et al.'s code since Feb. 2023 (dpaudit's eps_hat) | search, d 1/n | one-step, "
          f"inf -> sigma 0.2, backward | {fmt(rows['code23'])} | {need23:.2f} |")
    print(f"| capped reading (dpaudit's eps_hat_inf_capped) | search, d 1/n, inf -> {cap_1n:.2f} | "
          f"one-step, backward | {fmt(rows['capped'])} | (as above) |")
    print(f"| the first public code, Oct. 2022 | max-accuracy, d 1e-5 | segment, inf skipped | "
          f"{fmt(rows['code22'])} | {need22:.2f} |")
    print(f"| Alg. 2 as printed | literal, d 1e-5 | one-step at d 1e-5, no floor, forward | "
          f"{fmt(rows['alg2'])} | "
          f"{'out of reach (at most 3.89 with 100 scores)' if need_alg2 is None else f'{need_alg2:.2f}'} |")
    print(f"| Alg. 2, one zero rate skipped | search, d 1e-5 | one-step at d 1e-5, forward | "
          f"{fmt(rows['alg2skip'])} | (as above) |")
    print(f"| Alg. 2, inf read as {cap_5:.2f} | search, d 1e-5 | one-step at d 1e-5, forward | "
          f"{fmt(rows['alg2cap'])} | (as above) |")


if __name__ == "__main__":
    main()
