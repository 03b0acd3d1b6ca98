#include "stats/curve_test.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "stats/binomial_bounds.hpp"
#include "stats/roc.hpp"
#include "stats/sweep_maximum.hpp"

namespace dpaudit {
namespace {

void check(const TradeoffCurve& curve, double alpha) {
  if (!(alpha > 0 && alpha < 1)) throw UsageError(fmt::format("alpha {} is not in (0,1)", alpha));
  check_tradeoff_curve(curve, "the claimed curve");
}

// The rule with fp false positives of n_out and fn false negatives of n_in, each rate
// bounded at confidence 1 - level.
CurveTestResult rule_result(std::size_t fp, std::size_t n_out, std::size_t fn, std::size_t n_in,
                            const TradeoffCurve& curve, double level, std::size_t tried) {
  CurveTestResult r;
  r.n_in = n_in;
  r.n_out = n_out;
  r.fpr = double(fp) / double(n_out);
  r.fnr = double(fn) / double(n_in);
  r.alpha_per_rate = level;
  r.fpr_bound = clopper_pearson_upper(fp, n_out, level);
  r.fnr_bound = clopper_pearson_upper(fn, n_in, level);
  r.curve_at_bound = curve(r.fpr_bound);
  r.margin = r.curve_at_bound - r.fnr_bound;
  r.thresholds_tried = tried;
  return r;
}

CurveTestResult at_point(const OperatingPoint& p, std::size_t n_in, std::size_t n_out,
                         const TradeoffCurve& curve, double level, std::size_t tried) {
  CurveTestResult r =
      rule_result(p.false_positives, n_out, n_in - p.true_positives, n_in, curve, level, tried);
  r.threshold = p.threshold;
  return r;
}

// The rule of the sweep with the largest margin: f(FPR_hi) - FNR_hi never increases in
// either bound, so sweep_maximum's branch and bound finds it with few Beta quantiles.
CurveTestResult best_of_sweep(const RocPoints& points, const TradeoffCurve& curve, double level) {
  const SweepMaximum best = maximize_over_sweep(
      points.size(),
      [&](std::size_t i) {
        return clopper_pearson_upper(points[i].false_positives, points.n_out(), level);
      },
      [&](std::size_t i) {
        return clopper_pearson_upper(points.false_negatives(points[i]), points.n_in(), level);
      },
      [&](double fpr_hi, double fnr_hi) { return curve(fpr_hi) - fnr_hi; });
  return at_point(points[best.index], points.n_in(), points.n_out(), curve, level, points.size());
}

CurveTestResult finish(CurveTestResult r) {
  r.refuted = r.margin > 0;
  return r;
}

}  // namespace

CurveTestResult test_against_curve(const ScoreSet& scores, const TradeoffCurve& curve, double alpha,
                                   const ThresholdStrategy& strategy) {
  check(curve, alpha);
  if (strategy.choice == ThresholdChoice::max || strategy.choice == ThresholdChoice::uncorrected)
    throw UsageError(
        "a test against a curve needs a valid level: bonferroni, split, multi-split or one fixed "
        "threshold (max and uncorrected do not pay for the choice of rule)");
  if (scores.in().empty() || scores.out().empty())
    throw DataError("a test against a curve needs in and out scores");
  StrategyHooks<CurveTestResult> hooks;
  hooks.at_threshold = [&](const ScoreSet& s, double t, double level) {
    return at_point(operating_point_at(s.in(), s.out(), t), s.in().size(), s.out().size(), curve,
                    level, 1);
  };
  hooks.best = [&](const ScoreSet& s, ThresholdChoice,
                   const std::function<double(std::size_t)>& level) {
    const RocPoints points(s.in(), s.out());
    return best_of_sweep(points, curve, level(points.size()));
  };
  hooks.choose_then_test = [&](const ScoreSet& choose, const ScoreSet& hold, double level) {
    const CurveTestResult chosen =
        best_of_sweep(RocPoints(choose.in(), choose.out()), curve, level);
    return at_point(operating_point_at(hold.in(), hold.out(), *chosen.threshold), hold.in().size(),
                    hold.out().size(), curve, level, chosen.thresholds_tried);
  };
  hooks.bound = &CurveTestResult::margin;
  return finish(estimate_by_strategy(scores, strategy, alpha, 2, SplitKind::per_class, hooks));
}

CurveTestResult test_against_curve(const DecisionCounts& d, const TradeoffCurve& curve,
                                   double alpha) {
  check(curve, alpha);
  if (d.n_in == 0 || d.n_out == 0)
    throw DataError("a test against a curve needs in and out decisions");
  return finish(
      rule_result(d.false_positives, d.n_out, d.false_negatives, d.n_in, curve, alpha / 2, 1));
}

}  // namespace dpaudit
