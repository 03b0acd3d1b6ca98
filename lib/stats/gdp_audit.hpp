// Auditing in Gaussian differential privacy (Nasr et al. 2023, "Tight auditing of
// differentially private machine learning", USENIX Security; Dong, Roth & Su 2022).
// A test with false-positive rate FPR and false-negative rate FNR refutes mu'-GDP
// for every mu' below
//   mu = Phi^-1(1 - FPR) - Phi^-1(FNR)        (DRS Eq. 6: the N(0,1) vs N(mu,1) trade-off),
// so with Clopper-Pearson upper bounds FPR_hi, FNR_hi (each at confidence
// 1 - alpha_per_rate) mu is a lower bound on the mechanism's GDP parameter. Nasr et al.
// then read mu as (eps, delta) by the Gaussian mechanism's curve (DRS Cor. 2.13):
//   delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2),
// i.e. lib/accounting's gdp_epsilon(mu, delta). That step assumes the mechanism's
// trade-off curve is Gaussian (it is for DP-SGD's Gaussian noise); the mu bound itself
// needs no such assumption. jax_privacy's epsilon_from_gdp computes the same (but also
// takes |mu| where the bounded rates sum above 1, reading the reversed rule with upper
// bounds where it would need lower ones: not sound, so not done here).
//
// No evidence: when no rule has FPR_hi + FNR_hi < 1, every mu >= 0 is consistent with the
// outcome and the audit reports mu = 0 and eps = 0 (never -inf or NaN).
#pragma once
#include <cstddef>
#include <optional>

#include "stats/guarantee.hpp"
#include "stats/scores.hpp"
#include "stats/threshold_strategy.hpp"

namespace dpaudit {

// Phi^-1(1 - fpr) - Phi^-1(fnr) for rates in (0, 1]; -inf when either is 1 (the rule
// refutes nothing). UsageError for a rate outside (0, 1] or NaN.
double gdp_mu_from_rates(double fpr, double fnr);

struct GdpAuditEstimate {
  double mu = 0;       // the GDP lower bound, >= 0 (0: no evidence)
  double epsilon = 0;  // gdp_epsilon(mu, delta), 0 when mu = 0
  double delta = 0;
  std::optional<double> threshold;      // the rule "in when score >= threshold" behind mu
  double fpr = 0, fnr = 0;              // its observed rates
  double fpr_bound = 0, fnr_bound = 0;  // their Clopper-Pearson upper bounds
  std::size_t thresholds_tried = 0;
  std::size_t splits = 0;  // multi_split: mu is the median over this many splits; the
                           // rule and rates are those of the lower middle split
  double alpha_per_rate = 0;
  std::size_t n_in = 0, n_out = 0;  // the scores the rates rest on (split: the held-out half)
};

// The best rule "in when score >= t" over every distinct score t, each rate bounded at
// confidence 1 - alpha_per_rate (one ROC sweep). Throws UsageError unless 0 < delta < 1
// and 0 < alpha_per_rate < 1; DataError when a class has no scores.
GdpAuditEstimate gdp_audit_sweep(const ScoreSet& scores, double delta, double alpha_per_rate);

// What gdp_audit's eps is (stats/guarantee.hpp): a lower bound only when the trade-off
// curve is Gaussian (and not a bound with --thresholds max or uncorrected). Its mu is
// a bound of the same kind that assumes nothing.
Guarantee gdp_epsilon_guarantee(ThresholdChoice choice);

// The bound at level alpha, split evenly over FPR and FNR, with the rule chosen by the
// strategy (threshold_strategy.hpp): bonferroni divides by the number of distinct
// scores, uncorrected spends alpha on each rate, multi_split takes the median mu.
GdpAuditEstimate gdp_audit(const ScoreSet& scores, double delta, double alpha,
                           const ThresholdStrategy& strategy);

}  // namespace dpaudit
