#include "stats/canife_epsilon.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "stats/binomial_bounds.hpp"
#include "stats/epsilon_from_rates.hpp"
#include "stats/roc.hpp"

namespace dpaudit {

CanifeEpsilon canife_epsilon(std::vector<double> in, std::vector<double> out, double delta,
                             double alpha) {
  if (in.empty() || out.empty())
    throw UsageError("a round needs scores with and without the canary");
  if (!(delta >= 0 && delta < 1)) throw UsageError("delta must lie in [0, 1)");
  if (!(alpha > 0 && alpha < 1)) throw UsageError("alpha must lie in (0, 1)");
  std::sort(in.begin(), in.end());
  std::sort(out.begin(), out.end());
  const std::size_t n_in = in.size(), n_out = out.size();
  const RocSweep sweep = roc_sweep(in, out);
  CanifeEpsilon best;
  bool found = false;
  for (const OperatingPoint& p : sweep.points) {
    const double gamma = p.threshold;
    const std::size_t fp = p.false_positives, fn = sweep.false_negatives(p);
    if ((fp == 0) != (fn == 0)) continue;  // one rate 0: skipped (Maddock et al. 2023's code)
    const double eps =
        fp == 0 ? std::numeric_limits<double>::infinity()
                : epsilon_from_rates(double(fp) / double(n_out), double(fn) / double(n_in), delta);
    if (!found || eps > best.epsilon) {
      best = {eps, gamma, fp, fn, 0, 0};
      found = true;
    }
  }
  if (!found || best.epsilon == 0) return {};
  // Clopper-Pearson at the chosen threshold; a rate's lower bound is 1 minus the upper
  // bound of the complementary count.
  const double tail = alpha / 2;
  const double fpr_hi = clopper_pearson_upper(best.false_positives, n_out, tail);
  const double fnr_hi = clopper_pearson_upper(best.false_negatives, n_in, tail);
  const double fpr_lo = 1 - clopper_pearson_upper(n_out - best.false_positives, n_out, tail);
  const double fnr_lo = 1 - clopper_pearson_upper(n_in - best.false_negatives, n_in, tail);
  best.epsilon_lower = epsilon_from_rates(fpr_hi, fnr_hi, delta);
  best.epsilon_upper = epsilon_from_rates(std::max(0.0, fpr_lo), std::max(0.0, fnr_lo), delta);
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
