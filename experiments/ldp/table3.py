#!/usr/bin/env python3
"""002 App. Table 3: table3.py RUN.json... > table3.md (benign crafter, black-box Eq. 6).

One row per (server constant, clients n, eps, seed): FPR, FNR, Eq. 3 as printed (with its
95% Clopper-Pearson bound), and Eq. 3 of the reversed rule (every guess negated: g1 iff
|delta(x1)| < |delta(x2)|), beside 002's MNIST column."""
import json
import sys

PAPER = {1: 0.12, 2: 0.07, 4: 0.06, 10: 0.06}  # 002 App. Table 3 (MNIST; eps not given)


def main():
    runs = [json.load(open(p)) for p in sys.argv[1:]]
    print("| server constant | clients n | eps | seed | FPR | FNR | FPR + FNR | Eq. 3 (CP 95%) | "
          "reversed rule: Eq. 3 (CP 95%) | 002 (MNIST) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in runs:
        fpr, fnr = r["false_positive_rate"], r["false_negative_rate"]
        print(f"| {r['server_constant']} | {r['clients']} | {r['eps']:g} | {r['seed']} | {fpr:.4f} | {fnr:.4f} | "
              f"{fpr + fnr:.4f} | {float(r['eps_eq3']):.2f} ({float(r['eps_cp95']):.2f}) | "
              f"{float(r['eps_eq3_reversed']):.2f} ({float(r['eps_cp95_reversed']):.2f}) | "
              f"{PAPER.get(r['clients'], '-')} |")


if __name__ == "__main__":
    main()
