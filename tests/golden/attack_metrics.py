#!/usr/bin/python3
"""Golden numbers for tests/unit/test_attack_metrics.cpp.

Computed by brute force, independently of the C++ one-pass sweep: every rule "in when
score >= t" for t over the distinct scores and +inf is counted by direct comparison;
AUROC as the mean over all (in, out) pairs of [in > out] + [in = out]/2; the ROC
convex-hull AUROC as the area of scipy.spatial.ConvexHull of the ROC points plus the
corner (1, 0); Clopper-Pearson upper bounds as scipy.stats.beta.ppf(1 - a, k + 1, n - k).
No scikit-learn. Run: /usr/bin/python3 tests/golden/attack_metrics.py
(numpy 1.24, scipy 1.10.1 from Debian 12).

Scores (integer formulas, so the C++ test builds the same doubles):
  in_i  = ((i * 7919) % 211 + 40) / 10,  i = 0..199
  out_j = ((j * 104729) % 197) / 10,     j = 0..149
"""
import numpy as np
from scipy.spatial import ConvexHull
from scipy.stats import beta

ALPHA = 0.05
TARGETS = [0.0, 0.001, 0.01, 0.1, 0.5, 1.0]


def cp_upper(k, n, a):
    return 1.0 if k == n else beta.ppf(1 - a, k + 1, n - k)


def metrics(ins, outs):
    ins, outs = np.asarray(ins, float), np.asarray(outs, float)
    n_in, n_out = len(ins), len(outs)
    thresholds = np.concatenate([[np.inf], np.unique(np.concatenate([ins, outs]))[::-1]])
    tp = np.array([(ins >= t).sum() for t in thresholds])
    fp = np.array([(outs >= t).sum() for t in thresholds])
    m = len(thresholds)
    auroc = ((ins[:, None] > outs[None, :]).sum() + 0.5 * (ins[:, None] == outs[None, :]).sum()) / (n_in * n_out)
    pts = np.stack([fp / n_out, tp / n_in], axis=1)
    hull_auroc = ConvexHull(np.vstack([pts, [[1.0, 0.0]]])).volume
    tpr_at = [max(tp[i] for i in range(m) if fp[i] <= f * n_out) / n_in for f in TARGETS]
    correct = tp + (n_out - fp)
    i = int(np.argmax(correct))  # first = highest threshold on ties
    acc = (correct[i] / (n_in + n_out), thresholds[i],
           1 - cp_upper(n_in + n_out - correct[i], n_in + n_out, ALPHA / m))
    balanced = tp * n_out + (n_out - fp) * n_in
    j = int(np.argmax(balanced))
    bal = (balanced[j] / (2 * n_in * n_out), thresholds[j],
           (2 - cp_upper(n_in - tp[j], n_in, ALPHA / (2 * m)) - cp_upper(fp[j], n_out, ALPHA / (2 * m))) / 2)
    return m, auroc, hull_auroc, tpr_at, acc, bal


def show(name, ins, outs):
    m, auroc, hull, tpr_at, acc, bal = metrics(ins, outs)
    print(f"{name}: rules {m}")
    print(f"  auroc {auroc!r}  auroc_convex_hull {hull!r}")
    print("  tpr_at_fpr " + ", ".join(f"{f}: {t!r}" for f, t in zip(TARGETS, tpr_at)))
    print(f"  accuracy {acc[0]!r} at {acc[1]!r}, lower {acc[2]!r}")
    print(f"  balanced {bal[0]!r} at {bal[1]!r}, lower {bal[2]!r}")


show("hand example", [0.4, 0.8, 0.9], [0.1, 0.4, 0.7])
show("formula scores", [((i * 7919) % 211 + 40) / 10 for i in range(200)],
     [((j * 104729) % 197) / 10 for j in range(150)])
