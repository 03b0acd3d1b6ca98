#!/usr/bin/env python3
"""Tables of fedavg audits (audit.json of experiments/fedavg/audit.sh).

summarize.py noise AUDIT...     Andrew et al. 2024, Table 3/4 columns, one row per noise multiplier
summarize.py repeats AUDIT...   Andrew et al. 2024, Fig. 2 as a table: noise, repeats, eps_est/eps_lo (final, all)
summarize.py anderson AUDIT...  Andrew et al. 2024, Table 6: Anderson-Darling statistic of each set of
                                final-model seen cosines, noise x repeats, with the critical values
summarize.py adaptive AUDIT...  the noise table of runs with adaptive clipping, with the final clip
summarize.py schedule AUDIT...  the noise table by schedule (rounds x clients a round) with the Gaussians the
                                fits assume: seen and unseen max-over-rounds cosines (all iterates), seen
                                final-model cosines and the null's std 1/sqrt(d) (final model); and
                                seen_model / unseen_model: the Gaussians a one-round model of a seen canary
                                and the maximum of R null cosines predict (seen_model, unseen_model)
noise/repeats/adaptive print an aligned text table whose first line is a '#' comment with
the columns, so gnuplot reads the rows directly. eps_lo_*_max: Andrew et al. 2024's eps_lo (a 95% Jeffreys
bound on each error rate at the best threshold, without a correction for choosing it).
"""
import json
import sys

COLUMNS = {
    "noise": ["noise_multiplier", "analytic_eps", "eps_lo_all", "eps_lo_all_max", "eps_est_all", "eps_lo_final",
              "eps_lo_final_max", "eps_est_final", "test_accuracy"],
    "repeats": ["noise_multiplier", "canary_repeats", "eps_est_final", "eps_lo_final", "eps_est_all", "eps_lo_all",
                "eps_lo_final_max", "test_accuracy"],
    "schedule": ["rounds", "clients_per_round", "noise_multiplier", "eps_one_round", "analytic_eps", "eps_lo_all",
                 "eps_lo_all_max", "eps_est_all", "eps_lo_final", "eps_lo_final_max", "eps_est_final",
                 "fit_all_seen.mean", "fit_all_seen.std", "fit_all_unseen.mean", "fit_all_unseen.std",
                 "seen_model.mean", "seen_model.std", "unseen_model.mean", "unseen_model.std", "fit_final_seen.mean", "fit_final_seen.std", "null_std",
                 "test_accuracy"],
    "adaptive": ["noise_multiplier", "analytic_eps", "eps_lo_all", "eps_lo_all_max", "eps_est_all", "eps_lo_final",
                 "eps_lo_final_max", "eps_est_final", "final_clip", "test_accuracy"],
}


def field(audit, name):
    """audit[name], where a dotted name reads into a nested object (fit_all_seen.std)."""
    for key in name.split("."):
        audit = audit[key]
    return audit


def seen_model(audit_path, audit):
    """The max-over-rounds cosine of a canary inserted once, if its insertion round gives the max:
    in round r the release is rho_r = (S_r + c + Z_r) / n with S_r the clients' clipped updates
    (|<c, S_r>| ~ ||S_r|| / sqrt(d), neglected), Z_r ~ N(0, (z C)^2 I) and C = 1, so
    cos(c, rho_r) ~ (1 + z xi) / (n ||rho_r||), xi ~ N(0, 1). Over an insertion round uniform on
    the run's rounds (metrics.csv's update_norm = ||rho_r||): mean E_r[b_r], variance
    Var_r(b_r) + z^2 E_r[b_r^2] with b_r = 1 / (n ||rho_r||)."""
    import csv
    import os
    with open(os.path.join(os.path.dirname(audit_path), "metrics.csv")) as f:
        norms = [float(row["update_norm"]) for row in csv.DictReader(f)]
    b = [1 / (audit["clients_per_round"] * u) for u in norms]
    mean = sum(b) / len(b)
    second = sum(x * x for x in b) / len(b)
    z = audit["noise_multiplier"]
    return {"mean": mean, "std": (second - mean * mean + z * z * second) ** 0.5}


def unseen_model(audit):
    """An unseen canary's max over R rounds of cosines that are each about N(0, 1/d) (the null of
    Andrew et al. 2024, Thm 3.1) and nearly independent across rounds: the mean and std of the
    largest of R standard normals (density R phi(x) Phi(x)^(R-1), integrated on a grid), / sqrt(d)."""
    import math
    rounds, scale = audit["rounds"], audit["dim"] ** -0.5
    step, moments = 1e-3, [0.0, 0.0, 0.0]
    for i in range(-8000, 12001):
        x = i * step
        density = rounds * math.exp(-x * x / 2) / math.sqrt(2 * math.pi) \
            * (0.5 * math.erfc(-x / math.sqrt(2))) ** (rounds - 1)
        for k in range(3):
            moments[k] += density * x ** k * step
    mean = moments[1] / moments[0]
    return {"mean": mean * scale, "std": (moments[2] / moments[0] - mean * mean) ** 0.5 * scale}


def number(x):
    x = float(x)
    return "inf" if x == float("inf") else f"{x:.4g}"


def anderson(audits):
    """Rows noise, columns repeats, as Andrew et al. 2024, Table 6. Critical values for estimated mean
    and variance (Stephens 1974): 0.656 (10%) and 1.092 (1%) as Andrew et al. 2024 quote them; scipy
    scales them by 1/(1 + 4/n - 25/n^2), which lib/stats/anderson_darling.hpp follows."""
    noises, repeats, cell, sizes = [], [], {}, set()
    for a in audits:
        z, r = a["noise_multiplier"], a["canary_repeats"]
        noises += [z] if z not in noises else []
        repeats += [r] if r not in repeats else []
        cell[(z, r)] = a["anderson_final"]
        sizes.add(a["seen"])
    print("# Andrew et al. 2024, Table 6: Anderson-Darling statistic of the final-model seen cosines (n = "
          + "/".join(str(n) for n in sorted(sizes)) + ")")
    print("# " + f"{'noise':>8}  " + "  ".join(f"{f'{r} reps':>8}" for r in repeats))
    for z in noises:
        print("  " + f"{number(z):>8}  " + "  ".join(f"{number(cell[(z, r)]) if (z, r) in cell else '-':>8}"
                                                      for r in repeats))
    for n in sorted(sizes):
        scale = 1 + 4 / n - 25 / n ** 2
        print(f"# n = {n}: reject normality at 10% above 0.656 (scipy: {0.656 / scale:.3f}), "
              f"at 1% above 1.092 (scipy: {1.092 / scale:.3f})")


def main():
    kind, paths = sys.argv[1], sys.argv[2:]
    audits = [json.load(open(p)) for p in paths]
    if kind == "anderson":
        anderson(audits)
        return
    if kind == "schedule":
        for path, a in zip(paths, audits):
            a["seen_model"] = seen_model(path, a)
            a["unseen_model"] = unseen_model(a)
    cols = COLUMNS[kind]
    width = max(14, *(len(c) for c in cols))
    print("# " + "  ".join(f"{c:>{width}}" for c in cols))
    for a in audits:
        print("  " + "  ".join(f"{number(field(a, c)):>{width}}" for c in cols))


if __name__ == "__main__":
    main()
