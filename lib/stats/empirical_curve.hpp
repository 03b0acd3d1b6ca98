// The empirical privacy curve of an audit's scores: what the trials prove about the whole
// trade-off curve, not one (eps, delta) point of it, as a CSV a CI job can diff beside the
// analytic curve (rdp-compose --tradeoff, --eps-delta).
//
// The band. Every threshold rule "in when score >= t" of the ROC sweep (t over the K distinct
// scores) gets Clopper-Pearson bounds on its two error rates, each at level alpha / (2K):
// FPR_hi (upper, from the out scores) and TPR_lo = 1 - FNR_hi (lower, from the in scores).
// By the union bound all 2K hold at once with probability >= 1 - alpha, so the band is a
// simultaneous one: with that probability, every rule's true (FPR, TPR) lies at or left of
// FPR_hi and at or above TPR_lo. It assumes independent trials, nothing about the curve's
// shape. Only the rules not dominated in (FPR_hi, TPR_lo) are kept (the band's frontier).
//
// eps_lo(delta). On the same event, an (eps, delta)-DP mechanism has, for every rule,
// TPR <= e^eps FPR + delta and TNR <= e^eps FNR + delta, so
//   eps_lo(delta) = max over rules of max( log((TPR_lo - delta) / FPR_hi),
//                                          log((1 - FPR_hi - delta) / (1 - TPR_lo)) )
// is a lower bound at every delta at once: eps-from-scores' default (Clopper-Pearson,
// Bonferroni over the thresholds) at each delta, all from one band.
#pragma once
#include <vector>

#include "stats/scores.hpp"

namespace dpaudit {

struct BandPoint {
  double threshold;  // the rule: in when score >= threshold
  double fpr;        // observed rates
  double tpr;
  double fpr_hi;  // the band: FPR at most this, TPR at least tpr_lo
  double tpr_lo;
  double log_fpr_hi;  // the same bounds as logs (FNR_hi = 1 - tpr_lo), exact when tiny
  double log_fnr_hi;
};

// The band's frontier, fpr_hi ascending and tpr_lo strictly ascending. Throws DataError
// unless both classes have scores; UsageError unless 0 < alpha < 1.
std::vector<BandPoint> roc_band(const ScoreSet& scores, double alpha);

// eps_lo at delta in [0, 1) from the band (0 when nothing is proven; +inf when a rule has
// FPR_hi = 0 or TPR_lo = 1 with room for delta).
double band_epsilon(const std::vector<BandPoint>& band, double delta);

// The delta grid of the curve files: 10^(-k/4) for k = 4 .. 40 (0.1 down to 1e-10).
std::vector<double> delta_grid();

}  // namespace dpaudit
