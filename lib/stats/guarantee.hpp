// What a printed epsilon proves, and what it rests on. Every estimate says this beside
// its number (eps-from-scores --json "guarantee" and "assumes", --report, one stderr note
// when the number rests on an assumption or over-states its confidence, the man pages),
// so that no number that assumes a shape of the audited mechanism reads as a plain lower
// bound.
//
//   kind
//     lower bound          a 1 - alpha lower bound on the mechanism's eps at delta, exact
//                          (Clopper-Pearson, the one-run binomial test), for every mechanism
//                          with the property in `assumes`
//     approximate bound    the same with Jeffreys' interval, whose coverage is close to
//                          1 - alpha but not guaranteed at every rate (Brown, Cai & DasGupta 2001)
//     point estimate       an estimate of eps with no confidence statement (the observed
//                          rates of the best rule; a Gaussian fit)
//     not a bound          the best rule chosen without paying for the choice (--thresholds
//                          max or uncorrected): its stated confidence is over-stated
//   assumes
//     none                      nothing about the mechanism: a property of the test alone
//     gaussian trade-off curve  the mechanism's trade-off curve is a Gaussian one, mu-GDP
//                               with equality (Dong, Roth & Su 2022); DP-SGD's subsampled
//                               curve is close to but not exactly Gaussian, randomized
//                               response's and Laplace's are far from it
//     gaussian scores           each class's scores are Gaussian (Andrew et al. 2024's fit)
#pragma once
#include <optional>
#include <string>

#include "stats/threshold_strategy.hpp"

namespace dpaudit {

enum class GuaranteeKind { lower_bound, approximate_bound, point_estimate, not_a_bound };
enum class Assumption { none, gaussian_tradeoff_curve, gaussian_scores };

struct Guarantee {
  GuaranteeKind kind = GuaranteeKind::lower_bound;
  Assumption assumes = Assumption::none;
};

// "lower bound", "approximate bound", "point estimate", "not a bound".
std::string guarantee_name(GuaranteeKind kind);
// "none", "gaussian trade-off curve", "gaussian scores".
std::string assumption_name(Assumption assumes);

// The kind of a confidence bound whose rule was chosen by `choice`: not a bound for max
// and uncorrected (the choice is not paid for), `sound` otherwise.
GuaranteeKind bound_kind(ThresholdChoice choice, GuaranteeKind sound = GuaranteeKind::lower_bound);

// One sentence for stderr when a number is not a plain lower bound valid for every
// mechanism: what it assumes, or why its confidence is over-stated, naming `what` (e.g.
// "gdp's eps"). None for a lower bound that assumes nothing, and for a point estimate
// that assumes nothing (its name says what it is). The sentence is a pattern (core/error.hpp)
// that may name {thresholds}; `what` is a pattern too.
std::optional<std::string> guarantee_note(const Guarantee& g, const std::string& what);

}  // namespace dpaudit
