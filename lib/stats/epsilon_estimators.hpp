// Every estimator of the papers from attack scores (or game decisions) to one
// epsilon, in one place:
//   threshold        max over thresholds of Andrew et al. 2024, Eq. 1 at the observed rates
//                    (Maddock et al. 2023, App. C.1); at one decision rule for a game (Matsumoto et
//                    al. 2022, Eq. 3)
//   clopper_pearson  the same at Clopper-Pearson upper bounds of FPR and FNR (Nasr et al. 2021, Eq.
//   5) jeffreys         the same at Jeffreys upper bounds (Andrew et al. 2024, Sec. 5.1, eps_lo)
//   gauss_fit        a Gaussian fitted to each side, then the exact two-Gaussian
//                    epsilon (Andrew et al. 2024, Alg. 3), or against the cosine null (Andrew et
//                    al. 2024, Alg. 2)
// With an analytic null (CosineNull), the out side is not sampled: FPR at a threshold
// is the exact null tail and only FNR is bounded (Andrew et al. 2024's eps_lo-final).
#pragma once
#include <cstddef>
#include <map>
#include <optional>
#include <vector>

#include "accounting/cosine_null.hpp"
#include "accounting/two_gaussian.hpp"
#include "stats/bootstrap.hpp"
#include "stats/epsilon_from_rates.hpp"
#include "stats/guarantee.hpp"
#include "stats/scores.hpp"
#include "stats/threshold_strategy.hpp"

namespace dpaudit {

enum class Method { threshold, clopper_pearson, jeffreys, gauss_fit };

struct EstimatorOptions {
  Method method = Method::clopper_pearson;
  double delta = 0;     // [0,1) for the threshold methods, (0,1) for gauss_fit
  double alpha = 0.05;  // 1 - confidence of the whole bound, split evenly over the bounded rates
  Sides sides = Sides::both;
  ThresholdStrategy strategy;      // the threshold methods on scores: how the rule is chosen
  std::optional<CosineNull> null;  // out side = the analytic cosine null; out scores are ignored
};

struct EpsilonEstimate {
  double epsilon = 0;
  double delta = 0;  // the delta epsilon goes with
  // Threshold methods on scores: the rule "in when score >= threshold" behind epsilon.
  std::optional<double> threshold;
  double fpr = 0;  // observed rates of that rule (FPR exact with a null)
  double fnr = 0;
  double fpr_bound = 0;  // the rates in the formula: upper bounds, or fpr/fnr for threshold
  double fnr_bound = 0;
  std::size_t thresholds_tried = 0;  // rules the maximum ran over (1 for fixed and decisions)
  double alpha_per_rate = 0;         // confidence 1 - alpha_per_rate of each bounded rate
  std::size_t splits = 0;            // multi_split: epsilon is the median over this many splits;
                                     // rule and rates are those of the lower middle split
  std::size_t n_in = 0;              // samples the rates rest on (split: the held-out half)
  std::size_t n_out = 0;             // 0 with a null
  std::optional<Gaussian> fit_in;    // gauss_fit
  std::optional<Gaussian> fit_out;   // gauss_fit without a null
};

// What estimate_epsilon's number is (stats/guarantee.hpp): threshold a point estimate;
// clopper-pearson a lower bound and jeffreys an approximate one (not a bound with
// --thresholds max or uncorrected; decisions are one fixed rule); gauss-fit an estimate
// that assumes Gaussian scores.
Guarantee estimate_guarantee(const EstimatorOptions& options, bool decisions = false);

// Throws UsageError for options out of range, DataError for scores an estimator
// cannot use (a missing class; gauss_fit on a side whose scores are all equal).
EpsilonEstimate estimate_epsilon(const ScoreSet& scores, const EstimatorOptions& options);

// A distinguishing game's single decision rule: threshold, clopper_pearson or jeffreys.
EpsilonEstimate estimate_epsilon(const DecisionCounts& decisions, const EstimatorOptions& options);

// The bootstrap distribution (stats/bootstrap.hpp) of estimate_epsilon(., options):
// each replicate re-runs the estimator on resampled scores. With a null only the in
// scores are resampled (the out side is the null; sampled out scores play no part).
BootstrapDistribution bootstrap_epsilon(const ScoreSet& scores, const EstimatorOptions& options,
                                        const BootstrapOptions& boot);

// One estimate per audit round (CANIFE's eps_r, Maddock et al. 2023, Sec. 3.4). With
// delta_one_over_n, each round uses delta = 1/n, n its number of scores, as Maddock et al. 2023
// does (DataError for a round with fewer than 2); round i (0-based, ascending) uses
// seed options.strategy.seed + i.
std::map<double, EpsilonEstimate> estimate_epsilon_per_round(
    const std::map<double, ScoreSet>& rounds, const EstimatorOptions& options,
    bool delta_one_over_n);

}  // namespace dpaudit
