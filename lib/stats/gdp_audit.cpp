#include "stats/gdp_audit.hpp"

#include <cmath>
#include <queue>
#include <vector>

#include <boost/math/distributions/normal.hpp>
#include <fmt/format.h>

#include "accounting/gdp.hpp"
#include "core/error.hpp"
#include "stats/binomial_bounds.hpp"
#include "stats/roc.hpp"

namespace dpaudit {
namespace {

void check(const ScoreSet& scores, double delta, double alpha) {
  if (!(delta > 0 && delta < 1)) throw UsageError(fmt::format("gdp needs delta in (0,1), got {}", delta));
  if (!(alpha > 0 && alpha < 1)) throw UsageError(fmt::format("alpha {} is not in (0,1)", alpha));
  if (scores.in().empty() || scores.out().empty()) throw DataError("gdp needs in and out scores");
}

// Phi^-1(p) for p in (0, 1).
double normal_quantile(double p) { return boost::math::quantile(boost::math::normal(), p); }

// mu at bounded rates: -Phi^-1(fpr) - Phi^-1(fnr) (= Phi^-1(1 - fpr) - Phi^-1(fnr),
// without rounding 1 - fpr).
double mu_at(double fpr, double fnr) {
  if (fpr >= 1 || fnr >= 1) return -INFINITY;
  return -normal_quantile(fpr) - normal_quantile(fnr);
}

GdpAuditEstimate finish(GdpAuditEstimate e, double delta) {
  e.delta = delta;
  e.epsilon = e.mu > 0 ? gdp_epsilon(e.mu, delta) : 0;
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
  const RocSweep sweep = roc_sweep(scores.in(), scores.out());
  const std::size_t n = sweep.points.size();
  // Along the sweep FPR_hi never decreases and FNR_hi never increases, so no rule in a
  // block i..j beats mu_at(FPR_hi(i), FNR_hi(j)): best-first branch and bound over
  // halving blocks, with the Beta quantiles computed only at block ends.
  std::vector<double> fpr_hi(n, NAN), fnr_hi(n, NAN);
  const auto fpr_at = [&](std::size_t i) {
    if (std::isnan(fpr_hi[i])) fpr_hi[i] = clopper_pearson_upper(sweep.points[i].false_positives, sweep.n_out, alpha_per_rate);
    return fpr_hi[i];
  };
  const auto fnr_at = [&](std::size_t i) {
    if (std::isnan(fnr_hi[i]))
      fnr_hi[i] = clopper_pearson_upper(sweep.false_negatives(sweep.points[i]), sweep.n_in, alpha_per_rate);
    return fnr_hi[i];
  };
  std::size_t best = 0;
  double best_mu = -INFINITY;
  const auto visit = [&](std::size_t i) {
    const double mu = mu_at(fpr_at(i), fnr_at(i));
    if (mu > best_mu) best_mu = mu, best = i;
  };
  struct Block { double bound; std::size_t lo, hi; bool operator<(const Block& o) const { return bound < o.bound; } };
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
  const OperatingPoint& p = sweep.points[best];
  GdpAuditEstimate e;
  e.mu = best_mu;
  e.threshold = p.threshold;
  e.fpr = double(p.false_positives) / double(sweep.n_out);
  e.fnr = double(sweep.false_negatives(p)) / double(sweep.n_in);
  e.fpr_bound = fpr_at(best);
  e.fnr_bound = fnr_at(best);
  e.thresholds_tried = n;
  e.alpha_per_rate = alpha_per_rate;
  e.n_in = sweep.n_in;
  e.n_out = sweep.n_out;
  return finish(e, delta);
}

GdpAuditEstimate gdp_audit(const ScoreSet& scores, double delta, double alpha, ThresholdChoice choice,
                           double fixed_threshold) {
  check(scores, delta, alpha);
  switch (choice) {
    case ThresholdChoice::bonferroni:
      return gdp_audit_sweep(scores, delta,
                             alpha / 2 / double(roc_sweep(scores.in(), scores.out()).points.size()));
    case ThresholdChoice::max:
      return gdp_audit_sweep(scores, delta, alpha / 2);
    case ThresholdChoice::fixed: {
      const OperatingPoint p = operating_point_at(scores.in(), scores.out(), fixed_threshold);
      GdpAuditEstimate e;
      e.n_in = scores.in().size();
      e.n_out = scores.out().size();
      e.threshold = fixed_threshold;
      e.fpr = double(p.false_positives) / double(e.n_out);
      e.fnr = double(e.n_in - p.true_positives) / double(e.n_in);
      e.alpha_per_rate = alpha / 2;
      e.fpr_bound = clopper_pearson_upper(p.false_positives, e.n_out, e.alpha_per_rate);
      e.fnr_bound = clopper_pearson_upper(e.n_in - p.true_positives, e.n_in, e.alpha_per_rate);
      e.thresholds_tried = 1;
      e.mu = mu_at(e.fpr_bound, e.fnr_bound);
      return finish(e, delta);
    }
    case ThresholdChoice::split:
      break;
  }
  throw UsageError("gdp chooses its threshold with bonferroni or max, or takes --threshold; not split", "--thresholds");
}

}  // namespace dpaudit
