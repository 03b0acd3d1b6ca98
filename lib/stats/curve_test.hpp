// Testing a claimed trade-off curve (an f-DP claim, Dong, Roth & Su 2022) with attack
// scores or a game's decisions, assuming nothing about the mechanism's shape: "does the
// trainer violate its own accounting?" (rdp-compose --tradeoff writes the curve its
// accountant certifies: lib/accounting/tradeoff_curve.hpp).
//
// The claim. Outputs of runs without the record ("out") and with it ("in"); a decision
// rule says "in" or "out". f-DP says that every test of out against in with type I error
// x = FPR (saying "in" on an out run) has type II error FNR >= f(x) (DRS Def. 2.1-2.3,
// T(P_out, P_in) >= f). The curve is read as a claim about this ordered pair only.
//
// The test. For a rule with Clopper-Pearson upper bounds FPR_hi >= FPR and FNR_hi >= FNR
// (lib/stats/binomial_bounds), all holding together with probability >= 1 - alpha, a true
// claim gives FNR_hi >= FNR >= f(FPR) >= f(FPR_hi) (f never increases). So
//   margin = f(FPR_hi) - FNR_hi > 0
// for some rule refutes the claim at level alpha, for every mechanism: no Gaussian (or any
// other) shape is assumed, only independent runs (each score or decision from its own run,
// as for the Clopper-Pearson estimator). The rules and the level each is tested at come from
// the threshold strategy (stats/threshold_strategy.hpp): bonferroni (every distinct score,
// alpha split over the family and the two rates), split (chosen on one half, tested on the
// other at alpha / 2 per rate), multi_split (the median margin of the splits, each at
// alpha / 4 per rate: refuted when at least half of them refute, Meinshausen, Meier &
// Buehlmann 2009 as there), fixed (one threshold, alpha / 2 per rate); a decisions file is
// one rule. max and uncorrected do not pay for the choice of rule and are refused.
//
// What is not tested, and why.
//   The swapped reading, FPR_hi < f(FNR_hi): the same rule seen as a test of in against
//   out. It is sound when the claim covers both ordered pairs, as f-DP for a symmetric
//   neighbouring relation does; for a symmetric f (rdp-compose's curves: the PLD and RDP
//   profiles bound both adjacency directions, and each f_{eps,delta} is symmetric) it is
//   the same condition as FNR_hi < f(FPR_hi), the epigraph of a symmetric f being its own
//   mirror image. So it adds nothing for our curves and would be unsound for a curve
//   claimed for (out, in) only: not done.
//   The mirrored rule "in when score < t", with rates (1 - FPR, 1 - FNR): a valid test too,
//   but its bounds need lower confidence bounds of both rates, which doubles the family
//   (halving every rule's level) for a case that arises only when the scores point the
//   wrong way; --negate (lower score = more likely in) is the way to test that orientation.
#pragma once
#include <cstddef>
#include <optional>

#include "accounting/tradeoff_curve.hpp"
#include "stats/scores.hpp"
#include "stats/threshold_strategy.hpp"

namespace dpaudit {

struct CurveTestResult {
  bool refuted = false;  // margin > 0
  // f(FPR_hi) - FNR_hi of the rule below (the largest over the family searched); multi_split:
  // the median over the splits, the rule being the lower middle split's.
  double margin = 0;
  std::optional<double> threshold;      // the rule "in when score >= threshold" (none: decisions)
  double fpr = 0, fnr = 0;              // its observed rates
  double fpr_bound = 0, fnr_bound = 0;  // their Clopper-Pearson upper bounds
  double curve_at_bound = 0;            // f(fpr_bound)
  std::size_t thresholds_tried = 0;     // the family's size (1: fixed, decisions)
  std::size_t splits = 0;               // multi_split: the margin is the median over this many
  double alpha_per_rate = 0;
  std::size_t n_in = 0, n_out = 0;  // the samples the rates rest on (split: the held-out half)
};

// The scores against the curve at level alpha with the rules of the strategy. Throws
// UsageError unless 0 < alpha < 1, and for the max and uncorrected strategies; DataError
// for a curve that breaks check_tradeoff_curve's rules, and when a class has no scores (or
// too few to split).
CurveTestResult test_against_curve(const ScoreSet& scores, const TradeoffCurve& curve, double alpha,
                                   const ThresholdStrategy& strategy);

// A game's decisions: one rule, each rate bounded at alpha / 2. Same checks.
CurveTestResult test_against_curve(const DecisionCounts& decisions, const TradeoffCurve& curve,
                                   double alpha);

}  // namespace dpaudit
