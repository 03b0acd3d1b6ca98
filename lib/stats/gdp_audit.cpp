#include "stats/gdp_audit.hpp"

#include <algorithm>
#include <cmath>
#include <queue>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>
#include <boost/math/distributions/normal.hpp>

#include "accounting/gdp.hpp"
#include "core/error.hpp"
#include "stats/binomial_bounds.hpp"
#include "stats/roc.hpp"

namespace dpaudit {

Guarantee gdp_epsilon_guarantee(ThresholdChoice choice) {
  return {bound_kind(choice), Assumption::gaussian_tradeoff_curve};
}
namespace {

void check(const ScoreSet& scores, double delta, double alpha) {
  if (!(delta > 0 && delta < 1))
    throw UsageError(fmt::format("gdp needs delta in (0,1), got {}", delta));
  if (!(alpha > 0 && alpha < 1)) throw UsageError(fmt::format("alpha {} is not in (0,1)", alpha));
  if (scores.in().empty() || scores.out().empty()) throw DataError("gdp needs in and out scores");
}

// Phi^-1(p) for p in (0, 1).
double normal_quantile(double p) {
  return boost::math::quantile(boost::math::normal(), p);
}

// mu at bounded rates: -Phi^-1(fpr) - Phi^-1(fnr) (= Phi^-1(1 - fpr) - Phi^-1(fnr),
// without rounding 1 - fpr).
double mu_at(double fpr, double fnr) {
  if (fpr >= 1 || fnr >= 1) return -INFINITY;
  return -normal_quantile(fpr) - normal_quantile(fnr);
}

// The rule at operating point p of scores with n_in, n_out, its rates at alpha_per_rate.
GdpAuditEstimate rule_estimate(const OperatingPoint& p, std::size_t n_in, std::size_t n_out,
                               double alpha_per_rate, std::size_t tried) {
  GdpAuditEstimate e;
  e.n_in = n_in;
  e.n_out = n_out;
  e.threshold = p.threshold;
  e.fpr = double(p.false_positives) / double(n_out);
  e.fnr = double(n_in - p.true_positives) / double(n_in);
  e.alpha_per_rate = alpha_per_rate;
  e.fpr_bound = clopper_pearson_upper(p.false_positives, n_out, alpha_per_rate);
  e.fnr_bound = clopper_pearson_upper(n_in - p.true_positives, n_in, alpha_per_rate);
  e.thresholds_tried = tried;
  e.mu = mu_at(e.fpr_bound, e.fnr_bound);
  return e;
}

// The best rule of a sweep. Along it FPR_hi never decreases and FNR_hi never increases,
// so no rule in a block i..j beats mu_at(FPR_hi(i), FNR_hi(j)): best-first branch and
// bound over halving blocks, with the Beta quantiles computed only at block ends. They are
// kept by point in hash maps: a search visits a few thousand of the points (two arrays
// of every point's would be 160 MB at 10^7 scores, each page faulted in for a few).
GdpAuditEstimate best_of_sweep(const RocPoints& points, double alpha_per_rate) {
  const std::size_t n = points.size();
  std::unordered_map<std::size_t, double> fpr_hi, fnr_hi;
  const auto fpr_at = [&](std::size_t i) {
    const auto [at, added] = fpr_hi.try_emplace(i, 0.0);
    if (added)
      at->second = clopper_pearson_upper(points[i].false_positives, points.n_out(), alpha_per_rate);
    return at->second;
  };
  const auto fnr_at = [&](std::size_t i) {
    const auto [at, added] = fnr_hi.try_emplace(i, 0.0);
    if (added)
      at->second =
          clopper_pearson_upper(points.false_negatives(points[i]), points.n_in(), alpha_per_rate);
    return at->second;
  };
  std::size_t best = 0;
  double best_mu = -INFINITY;
  const auto visit = [&](std::size_t i) {
    const double mu = mu_at(fpr_at(i), fnr_at(i));
    if (mu > best_mu) best_mu = mu, best = i;
  };
  struct Block {
    double bound;
    std::size_t lo, hi;
    bool operator<(const Block& o) const { return bound < o.bound; }
  };
  std::priority_queue<Block> blocks;
  visit(0);
  visit(n - 1);
  blocks.push({mu_at(fpr_at(0), fnr_at(n - 1)), 0, n - 1});
  while (!blocks.empty() && blocks.top().bound > best_mu) {
    const Block b = blocks.top();
    blocks.pop();
    if (b.hi - b.lo < 2) continue;  // both ends visited
    const std::size_t mid = b.lo + (b.hi - b.lo) / 2;
    visit(mid);
    blocks.push({mu_at(fpr_at(b.lo), fnr_at(mid)), b.lo, mid});
    blocks.push({mu_at(fpr_at(mid), fnr_at(b.hi)), mid, b.hi});
  }
  return rule_estimate(points[best], points.n_in(), points.n_out(), alpha_per_rate, n);
}

GdpAuditEstimate at_threshold(const ScoreSet& s, double t, double alpha_per_rate,
                              std::size_t tried) {
  return rule_estimate(operating_point_at(s.in(), s.out(), t), s.in().size(), s.out().size(),
                       alpha_per_rate, tried);
}

// Choose on one half (best at alpha_per_rate), bound on the other; mu < 0 refutes
// nothing, so a split's mu is at least 0 (multi_split takes the median of these).
GdpAuditEstimate gdp_split_estimate(const ScoreSet& choose, const ScoreSet& hold,
                                    double alpha_per_rate) {
  const RocPoints points(choose.in(), choose.out());
  GdpAuditEstimate e = at_threshold(hold, *best_of_sweep(points, alpha_per_rate).threshold,
                                    alpha_per_rate, points.size());
  e.mu = std::max(0.0, e.mu);
  return e;
}

// mu < 0 (or -inf) refutes nothing: mu = 0, and gdp_epsilon(0, delta) = 0.
GdpAuditEstimate finish(GdpAuditEstimate e, double delta) {
  e.delta = delta;
  e.mu = std::max(0.0, e.mu);
  e.epsilon = gdp_epsilon(e.mu, delta);
  return e;
}

}  // namespace

double gdp_mu_from_rates(double fpr, double fnr) {
  if (!(fpr > 0 && fpr <= 1) || !(fnr > 0 && fnr <= 1))
    throw UsageError(fmt::format("rates must be in (0,1], got FPR {} and FNR {}", fpr, fnr));
  return mu_at(fpr, fnr);
}

GdpAuditEstimate gdp_audit_sweep(const ScoreSet& scores, double delta, double alpha_per_rate) {
  check(scores, delta, alpha_per_rate);
  return finish(best_of_sweep(RocPoints(scores.in(), scores.out()), alpha_per_rate), delta);
}

GdpAuditEstimate gdp_audit(const ScoreSet& scores, double delta, double alpha,
                           const ThresholdStrategy& strategy) {
  check(scores, delta, alpha);
  StrategyHooks<GdpAuditEstimate> hooks;
  hooks.at_threshold = [](const ScoreSet& s, double t, double level) {
    return at_threshold(s, t, level, 1);
  };
  hooks.best = [](const ScoreSet& s, ThresholdChoice,
                  const std::function<double(std::size_t)>& level) {
    const RocPoints points(s.in(), s.out());
    return best_of_sweep(points, level(points.size()));
  };
  hooks.choose_then_test = gdp_split_estimate;
  hooks.bound = &GdpAuditEstimate::mu;  // eps grows with mu: the median mu gives the median eps
  return finish(estimate_by_strategy(scores, strategy, alpha, 2, SplitKind::per_class, hooks),
                delta);
}

}  // namespace dpaudit
