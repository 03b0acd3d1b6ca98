// CANIFE's per-round empirical epsilon (Maddock et al. 2023, Sec. 3.4, App. C.1, and its authors'
// code): over the thresholds gamma in the round's scores, the rule "in when score >= gamma" has
// false-positive rate FPR (out scores >= gamma) and false-negative rate FNR (in scores < gamma),
// and
//   eps_r = max_gamma max( log((1 - delta - FPR) / FNR), log((1 - delta - FNR) / FPR) ),
// with one rule of its own: a threshold where exactly one rate is 0 is skipped (it
// would give inf from a single lucky separation); where both are 0 the scores are
// separated and eps_r = inf. Maddock et al. 2023 takes delta = 1/n for n scores, which caps a
// finite eps_r at log((1 - 3/n) / (2/n)) for balanced rounds (3.88 at n = 100). The interval is
// Clopper-Pearson at the chosen threshold, two-sided 95% by default (alpha/2 per tail and rate),
// not corrected for the choice of threshold (as Maddock et al. 2023): lower = eps at the upper
// bounds of both rates, upper = eps at their lower bounds.
#pragma once
#include <cstddef>
#include <map>
#include <optional>
#include <vector>

#include "stats/scores.hpp"

namespace dpaudit {

struct CanifeEpsilon {
  double epsilon = 0;    // 0 when no threshold qualifies
  double threshold = 0;  // the chosen gamma (meaningful when epsilon > 0)
  std::size_t false_positives = 0, false_negatives = 0;
  double epsilon_lower = 0, epsilon_upper = 0;
};

// Throws UsageError unless both sides have scores, 0 <= delta < 1 and 0 < alpha < 1.
CanifeEpsilon canife_epsilon(std::vector<double> in, std::vector<double> out, double delta,
                             double alpha = 0.05);

// eps_r as the authors' first public code had it (canary_analyser.py of October 2022, replaced
// in February 2023 by the search above): at the one threshold of maximum attack accuracy
// (privacy_lint's: "in" when score > gamma, gamma over the scores, the highest of equally
// accurate ones), inf when either error count there is 0, else the formula at delta (the code
// used the run's delta, 1e-5, not 1/n), clamped at 0. Same interval, same checks.
CanifeEpsilon canife_epsilon_max_accuracy(std::vector<double> in, std::vector<double> out,
                                          double delta, double alpha = 0.05);

// eps_r of every round (Maddock et al. 2023, Sec. 3.4), each at delta, or without one at 1/n for
// the round's n scores (as Maddock et al. 2023). Same checks, per round.
std::map<double, CanifeEpsilon> canife_epsilon_per_round(const std::map<double, ScoreSet>& rounds,
                                                         std::optional<double> delta,
                                                         double alpha = 0.05);

}  // namespace dpaudit
