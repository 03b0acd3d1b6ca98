// The largest epsilon_from_log_rates over a sweep of decision rules, without
// evaluating every rule. Along a ROC sweep (thresholds decreasing) the FPR and any
// upper bound on it that grows with the count never decrease, and the FNR and its
// bound never increase. So on a block of rules i..j no rule beats
// eps(fpr(i), fnr(j)), the best rates the block can combine. A best-first branch
// and bound over halving blocks evaluates the rates O(log n) times per rule near
// the maximum instead of n times; that matters when one rate costs a Beta quantile
// (~3 us) and there are a million rules.
#pragma once
#include <cstddef>
#include <functional>

#include "stats/epsilon_from_rates.hpp"

namespace dpaudit {

struct SweepMaximum {
  std::size_t index = 0;   // a rule attaining the maximum
  double epsilon = 0;      // epsilon_from_log_rates at that rule
  double log_fpr = 0;      // the log rates at that rule
  double log_fnr = 0;
  std::size_t evaluations = 0;  // rules whose rates were computed
};

// Rates of rule i as natural logs; log_fpr must not decrease and log_fnr must not
// increase with i. n >= 1, else UsageError.
using LogRateAt = std::function<double(std::size_t)>;
SweepMaximum maximize_epsilon(std::size_t n, const LogRateAt& log_fpr, const LogRateAt& log_fnr, double delta,
                              Sides sides);

}  // namespace dpaudit
