#include "stats/canife_epsilon.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "stats/binomial_bounds.hpp"
#include "stats/epsilon_from_rates.hpp"
#include "stats/roc.hpp"

namespace dpaudit {

namespace {

void check_round(const std::vector<double>& in, const std::vector<double>& out, double delta,
                 double alpha) {
  if (in.empty() || out.empty())
    throw UsageError("a round needs scores with and without the canary");
  if (!(delta >= 0 && delta < 1)) throw UsageError("delta must lie in [0, 1)");
  if (!(alpha > 0 && alpha < 1)) throw UsageError("alpha must lie in (0, 1)");
}

// eps at error counts fp of n_out and fn of n_in: inf when both are 0.
double count_epsilon(std::size_t fp, std::size_t n_out, std::size_t fn, std::size_t n_in,
                     double delta) {
  return fp == 0 && fn == 0
             ? std::numeric_limits<double>::infinity()
             : epsilon_from_rates(double(fp) / double(n_out), double(fn) / double(n_in), delta);
}

// Clopper-Pearson at the chosen threshold's counts; a rate's lower bound is 1 minus the upper
// bound of the complementary count.
void add_interval(CanifeEpsilon& e, std::size_t n_in, std::size_t n_out, double delta,
                  double alpha) {
  const double tail = alpha / 2;
  const double fpr_hi = clopper_pearson_upper(e.false_positives, n_out, tail);
  const double fnr_hi = clopper_pearson_upper(e.false_negatives, n_in, tail);
  const double fpr_lo = 1 - clopper_pearson_upper(n_out - e.false_positives, n_out, tail);
  const double fnr_lo = 1 - clopper_pearson_upper(n_in - e.false_negatives, n_in, tail);
  e.epsilon_lower = epsilon_from_rates(fpr_hi, fnr_hi, delta);
  e.epsilon_upper = epsilon_from_rates(std::max(0.0, fpr_lo), std::max(0.0, fnr_lo), delta);
}

}  // namespace

CanifeEpsilon canife_epsilon(std::vector<double> in, std::vector<double> out, double delta,
                             double alpha) {
  check_round(in, out, delta, alpha);
  std::sort(in.begin(), in.end());
  std::sort(out.begin(), out.end());
  const RocSweep sweep = roc_sweep(in, out);
  CanifeEpsilon best;
  bool found = false;
  for (const OperatingPoint& p : sweep.points) {
    const std::size_t fp = p.false_positives, fn = sweep.false_negatives(p);
    if ((fp == 0) != (fn == 0)) continue;  // one rate 0: skipped (Maddock et al. 2023's code)
    const double eps = count_epsilon(fp, out.size(), fn, in.size(), delta);
    if (!found || eps > best.epsilon) {
      best = {eps, p.threshold, fp, fn, 0, 0};
      found = true;
    }
  }
  if (!found || best.epsilon == 0) return {};
  add_interval(best, in.size(), out.size(), delta, alpha);
  return best;
}

CanifeEpsilon canife_epsilon_max_accuracy(std::vector<double> in, std::vector<double> out,
                                          double delta, double alpha) {
  check_round(in, out, delta, alpha);
  std::sort(in.begin(), in.end());
  std::sort(out.begin(), out.end());
  const RocSweep sweep = roc_sweep(in, out);
  // "in" when score > gamma = the point's threshold: the counts of the point above it.
  CanifeEpsilon best;
  std::size_t best_correct = 0;
  for (std::size_t i = 0; i < sweep.points.size(); ++i) {
    const std::size_t tp = i == 0 ? 0 : sweep.points[i - 1].true_positives;
    const std::size_t fp = i == 0 ? 0 : sweep.points[i - 1].false_positives;
    const std::size_t correct = tp + out.size() - fp;
    if (i == 0 || correct > best_correct) {
      best = {0, sweep.points[i].threshold, fp, in.size() - tp, 0, 0};
      best_correct = correct;
    }
  }
  const std::size_t fp = best.false_positives, fn = best.false_negatives;
  best.epsilon = fp == 0 || fn == 0 ? std::numeric_limits<double>::infinity()
                                    : count_epsilon(fp, out.size(), fn, in.size(), delta);
  add_interval(best, in.size(), out.size(), delta, alpha);
  return best;
}

std::map<double, CanifeEpsilon> canife_epsilon_per_round(const std::map<double, ScoreSet>& rounds,
                                                         std::optional<double> delta,
                                                         double alpha) {
  std::map<double, CanifeEpsilon> out;
  for (const auto& [round, s] : rounds) {
    const double n = double(s.in().size() + s.out().size());
    out.emplace(round, canife_epsilon(s.in(), s.out(), delta ? *delta : 1 / n, alpha));
  }
  return out;
}

}  // namespace dpaudit
