// The largest value of a criterion over a sweep of decision rules (epsilon_from_log_rates,
// or a curve test's margin), without evaluating every rule. Along a ROC sweep (thresholds
// decreasing) the FPR and any upper bound on it that grows with the count never decrease,
// and the FNR and its bound never increase. So, for a criterion that never increases in
// either rate, on a block of rules i..j no rule beats criterion(fpr(i), fnr(j)), the best
// rates the block can combine. A best-first branch
// and bound over halving blocks computes rates only at block ends, and splits only
// blocks whose bound beats the best rule found so far; that matters when one rate
// costs a Beta quantile (~3 us) and there are a million rules (on the 10^6-score
// benchmark, 140-360 rules are evaluated).
#pragma once
#include <cstddef>
#include <functional>

#include "stats/epsilon_from_rates.hpp"

namespace dpaudit {

struct SweepMaximum {
  std::size_t index = 0;  // a rule attaining the maximum
  double epsilon = 0;     // epsilon_from_log_rates at that rule
  double log_fpr = 0;     // the log rates at that rule
  double log_fnr = 0;
  std::size_t evaluations = 0;  // rules whose rates were computed
};

// Rates of rule i as natural logs; log_fpr must not decrease and log_fnr must not
// increase with i. n >= 1, else UsageError.
using LogRateAt = std::function<double(std::size_t)>;
SweepMaximum maximize_epsilon(std::size_t n, const LogRateAt& log_fpr, const LogRateAt& log_fnr,
                              double delta, Sides sides);

// The same search for any criterion(fpr, fnr) that never increases in either argument, the
// rates given in any monotone form (logs, plain rates): fpr(i) must not decrease and fnr(i)
// must not increase with i. The result's `epsilon` holds the criterion's maximum, log_fpr
// and log_fnr the two rates as given; among rules of equal value, which one is reported is
// fixed by the search order (deterministic). n >= 1, else UsageError.
using SweepCriterion = std::function<double(double fpr, double fnr)>;
SweepMaximum maximize_over_sweep(std::size_t n, const LogRateAt& fpr, const LogRateAt& fnr,
                                 const SweepCriterion& criterion);

}  // namespace dpaudit
