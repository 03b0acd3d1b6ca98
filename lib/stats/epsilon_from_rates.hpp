// Epsilon from the error rates of one decision rule: a test that says "in" with
// false-positive rate FPR (on out samples) and false-negative rate FNR (on in
// samples) refutes (eps, delta)-DP for every eps below
//   max( log((1 - delta - FPR) / FNR), log((1 - delta - FNR) / FPR) )
// (Andrew et al. 2024, Eq. 1; Maddock et al. 2023, Sec. 3.4; Nasr et al. 2021, Eq. 4; Matsumoto et
// al. 2022, Eq. 3 with delta = 0).
#pragma once

namespace dpaudit {

enum class Sides {
  both,          // both terms, as in the papers
  tpr_over_fpr,  // only log((1 - delta - FNR) / FPR) = log((TPR - delta) / FPR)
};

// The formula with the rates given as natural logs, so a rate like an exact null
// tail of 1e-300 (or one that underflows) keeps its meaning. A term whose
// numerator 1 - delta - rate is <= 0 says nothing; a zero denominator with a
// positive numerator gives +inf. The result is clamped below at 0 (epsilon >= 0).
// Throws UsageError unless 0 <= delta < 1 and the log rates are <= 0 and not NaN.
double epsilon_from_log_rates(double log_fpr, double log_fnr, double delta,
                              Sides sides = Sides::both);

// The same with plain rates in [0, 1].
double epsilon_from_rates(double fpr, double fnr, double delta, Sides sides = Sides::both);

}  // namespace dpaudit
