#include "stats/epsilon_estimators.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/power_of_two.hpp"
#include "stats/binomial_bounds.hpp"
#include "stats/gaussian_fit.hpp"
#include "stats/roc.hpp"
#include "stats/sweep_maximum.hpp"

namespace dpaudit {

Guarantee estimate_guarantee(const EstimatorOptions& options, bool decisions) {
  const ThresholdChoice choice = decisions ? ThresholdChoice::fixed : options.strategy.choice;
  switch (options.method) {
    case Method::threshold:
      return {GuaranteeKind::point_estimate, Assumption::none};
    case Method::clopper_pearson:
      return {bound_kind(choice), Assumption::none};
    case Method::jeffreys:
      return {bound_kind(choice, GuaranteeKind::approximate_bound), Assumption::none};
    case Method::gauss_fit:
      return {GuaranteeKind::point_estimate, Assumption::gaussian_scores};
  }
  throw UsageError("unknown method");
}
namespace {

RateBound rate_bound_of(Method method) {
  switch (method) {
    case Method::threshold:
      return RateBound::point;
    case Method::clopper_pearson:
      return RateBound::clopper_pearson;
    case Method::jeffreys:
      return RateBound::jeffreys;
    case Method::gauss_fit:
      break;
  }
  throw UsageError("gauss-fit has no decision rule");
}

// The log rates a method plugs into Eq. 1 for one rule, and the observed rates.
struct RuleRates {
  RateBound bound;
  double alpha_per_rate;
  std::size_t n_in;
  std::size_t n_out;
  std::optional<CosineNull> null;

  double log_fnr(const OperatingPoint& p) const {
    return log_rate_upper(bound, n_in - p.true_positives, n_in, alpha_per_rate);
  }
  double log_fpr(const OperatingPoint& p) const {
    if (null) return log_sf(*null, p.threshold);  // exact: nothing to bound
    return log_rate_upper(bound, p.false_positives, n_out, alpha_per_rate);
  }
  double fnr(const OperatingPoint& p) const {
    return static_cast<double>(n_in - p.true_positives) / static_cast<double>(n_in);
  }
  double fpr(const OperatingPoint& p) const {
    if (null) return std::exp(log_sf(*null, p.threshold));
    return static_cast<double>(p.false_positives) / static_cast<double>(n_out);
  }
};

EpsilonEstimate evaluate_rule(const OperatingPoint& p, const RuleRates& rates,
                              const EstimatorOptions& options, std::size_t thresholds_tried) {
  EpsilonEstimate e;
  e.delta = options.delta;
  const double log_fpr_bound = rates.log_fpr(p);
  const double log_fnr_bound = rates.log_fnr(p);
  e.epsilon = epsilon_from_log_rates(log_fpr_bound, log_fnr_bound, options.delta, options.sides);
  e.threshold = p.threshold;
  e.fpr = rates.fpr(p);
  e.fnr = rates.fnr(p);
  const bool point = rates.bound == RateBound::point;
  e.fpr_bound = point ? e.fpr : std::exp(log_fpr_bound);
  e.fnr_bound = point ? e.fnr : std::exp(log_fnr_bound);
  e.thresholds_tried = thresholds_tried;
  e.alpha_per_rate = point ? 0 : rates.alpha_per_rate;
  e.n_in = rates.n_in;
  e.n_out = rates.null ? 0 : rates.n_out;
  return e;
}

// The rule of a sweep with the largest epsilon (branch and bound, sweep_maximum.hpp).
OperatingPoint best_rule(const RocPoints& points, const RuleRates& rates,
                         const EstimatorOptions& options) {
  const SweepMaximum best = maximize_epsilon(
      points.size(), [&](std::size_t i) { return rates.log_fpr(points[i]); },
      [&](std::size_t i) { return rates.log_fnr(points[i]); }, options.delta, options.sides);
  return points[best.index];
}

// Choose the rule on one half (the best at alpha_each), bound it on the other.
EpsilonEstimate split_estimate(const ScoreSet& choose, const ScoreSet& hold, RateBound bound,
                               double alpha_each, const EstimatorOptions& options) {
  const RocPoints points(choose.in(), choose.out());
  // Point estimates tie at inf wherever FPR or FNR is 0; a confidence bound prefers
  // rules backed by many samples, so the threshold method chooses by Clopper-Pearson too.
  const RateBound choose_bound = bound == RateBound::point ? RateBound::clopper_pearson : bound;
  const RuleRates choose_rates{choose_bound, alpha_each, choose.in().size(), choose.out().size(),
                               options.null};
  const double t = best_rule(points, choose_rates, options).threshold;
  return evaluate_rule(
      operating_point_at(hold.in(), hold.out(), t),
      RuleRates{bound, alpha_each, hold.in().size(), hold.out().size(), options.null}, options,
      points.size());
}

EpsilonEstimate threshold_estimate(const ScoreSet& all, const EstimatorOptions& options) {
  // With a null the out side is not sampled: its scores (if any) play no part.
  // (A reference to `all` otherwise: a copy of 10^7 scores cost a tenth of the run.)
  std::optional<ScoreSet> in_only;
  if (options.null) in_only.emplace(all.in(), std::vector<double>{}, all.dim());
  const ScoreSet& scores = options.null ? *in_only : all;
  const RateBound bound = rate_bound_of(options.method);
  const auto rates_at = [&](const ScoreSet& s, double level) {
    return RuleRates{bound, level, s.in().size(), s.out().size(), options.null};
  };
  StrategyHooks<EpsilonEstimate> hooks;
  hooks.at_threshold = [&](const ScoreSet& s, double t, double level) {
    return evaluate_rule(operating_point_at(s.in(), s.out(), t), rates_at(s, level), options, 1);
  };
  hooks.best = [&](const ScoreSet& s, ThresholdChoice,
                   const std::function<double(std::size_t)>& level) {
    const RocPoints points(s.in(), s.out());
    const std::size_t m = points.size();
    const RuleRates rates = rates_at(s, level(m));
    return evaluate_rule(best_rule(points, rates, options), rates, options, m);
  };
  hooks.choose_then_test = [&](const ScoreSet& choose, const ScoreSet& hold, double level) {
    return split_estimate(choose, hold, bound, level, options);
  };
  hooks.bound = &EpsilonEstimate::epsilon;
  // The union bound spends alpha evenly on the sampled rates: FNR, and FPR unless exact.
  return estimate_by_strategy(scores, options.strategy, options.alpha, options.null ? 1 : 2,
                              options.null ? SplitKind::in_only : SplitKind::per_class, hooks);
}

Gaussian fit_with_spread(const std::vector<double>& x, const char* side) {
  const Gaussian g = fit_gaussian(x);
  if (!(g.stddev > 0))
    throw DataError(fmt::format("all {} scores are equal: gauss-fit needs scores that vary", side));
  return g;  // a spread beyond 1.8e308 is inf here; the estimate uses scaled fits
}

EpsilonEstimate gauss_fit_estimate(const ScoreSet& scores, const EstimatorOptions& options) {
  check_delta(options.delta);
  if (options.sides != Sides::both)
    throw UsageError("one-sided estimates apply to threshold rules, not gauss-fit");
  EpsilonEstimate e;
  e.delta = options.delta;
  e.fit_in = fit_with_spread(scores.in(), "in");
  e.n_in = scores.in().size();
  if (options.null) {
    e.epsilon =
        null_vs_gaussian_epsilon(options.null->dim, options.null->kind, *e.fit_in, options.delta);
  } else {
    e.fit_out = fit_with_spread(scores.out(), "out");
    e.n_out = scores.out().size();
    // The two-Gaussian eps is invariant under x -> x / 2^k: both fits again in units of a
    // power of two near the largest |score| (exact), so that scores near 1e308 (whose
    // difference of means overflows) or subnormal ones (whose fits round to a few ulps)
    // keep their digits; the fits are reported in the scores' units.
    const double largest =
        std::max({std::abs(scores.in().front()), std::abs(scores.in().back()),
                  std::abs(scores.out().front()), std::abs(scores.out().back())});
    const int k = std::ilogb(largest);  // largest > 0: both fits have a spread
    const auto scaled = [down = PowerOfTwo(-k)](const std::vector<double>& x) {
      std::vector<double> y(x.size());
      for (std::size_t i = 0; i < x.size(); ++i) y[i] = down(x[i]);
      return fit_gaussian(y);
    };
    e.epsilon = two_gaussian_epsilon(scaled(scores.out()), scaled(scores.in()), options.delta);
  }
  return e;
}

void check_options(const EstimatorOptions& options) {
  if (!(options.alpha > 0 && options.alpha < 1))
    throw UsageError(fmt::format("alpha {} is not in (0,1)", options.alpha));
  if (!(options.delta >= 0 && options.delta < 1))
    throw UsageError(fmt::format("delta {} is not in [0,1)", options.delta));
}

}  // namespace

EpsilonEstimate estimate_epsilon(const ScoreSet& scores, const EstimatorOptions& options) {
  check_options(options);
  if (scores.in().empty()) throw DataError("no in scores (label 1)");
  if (!options.null && scores.out().empty()) throw DataError("no out scores (label 0)");
  return options.method == Method::gauss_fit ? gauss_fit_estimate(scores, options)
                                             : threshold_estimate(scores, options);
}

EpsilonEstimate estimate_epsilon(const DecisionCounts& d, const EstimatorOptions& options) {
  check_options(options);
  if (d.n_in == 0 || d.n_out == 0) throw DataError("decisions need both labels, 0 and 1");
  const RuleRates rates{rate_bound_of(options.method), options.alpha / 2, d.n_in, d.n_out,
                        std::nullopt};
  EpsilonEstimate e =
      evaluate_rule({0, d.n_in - d.false_negatives, d.false_positives}, rates, options, 1);
  e.threshold.reset();
  return e;
}

BootstrapDistribution bootstrap_epsilon(const ScoreSet& scores, const EstimatorOptions& options,
                                        const BootstrapOptions& boot) {
  const ScoreSet sample = options.null ? ScoreSet(scores.in(), {}, scores.dim()) : scores;
  return bootstrap(
      sample, [&](const ScoreSet& s) { return estimate_epsilon(s, options).epsilon; }, boot);
}

std::map<double, EpsilonEstimate> estimate_epsilon_per_round(
    const std::map<double, ScoreSet>& rounds, const EstimatorOptions& options,
    bool delta_one_over_n) {
  std::map<double, EpsilonEstimate> estimates;
  std::uint64_t index = 0;
  for (const auto& [round, scores] : rounds) {
    EstimatorOptions round_options = options;
    round_options.strategy.seed = options.strategy.seed + index++;
    if (delta_one_over_n) {
      const std::size_t n = scores.in().size() + (options.null ? 0 : scores.out().size());
      if (n < 2)  // delta 1/1 = 1 is no delta: bad data, not a usage error
        throw DataError(fmt::format("{} score: delta = 1/n needs at least 2", n),
                        fmt::format("round {}", round));
      round_options.delta = 1.0 / static_cast<double>(n);
    }
    estimates.emplace(round, estimate_epsilon(scores, round_options));
  }
  return estimates;
}

}  // namespace dpaudit
