#include "stats/empirical_curve.hpp"

#include <cmath>

#include "core/error.hpp"
#include "stats/binomial_bounds.hpp"
#include "stats/epsilon_from_rates.hpp"
#include "stats/roc.hpp"

namespace dpaudit {

std::vector<BandPoint> roc_band(const ScoreSet& scores, double alpha) {
  if (!(alpha > 0 && alpha < 1)) throw UsageError("alpha must lie in (0, 1)", "{alpha}");
  const std::size_t n_in = scores.in().size(), n_out = scores.out().size();
  if (n_in == 0 || n_out == 0)
    throw DataError("the curve needs scores of both labels (in and out)");
  const RocSweep sweep = roc_sweep(scores.in(), scores.out());
  const double level = alpha / (2 * static_cast<double>(sweep.points.size()));
  std::vector<BandPoint> band;
  // Thresholds descend, so FPR_hi never decreases: a point joins the frontier when its
  // TPR_lo beats the last one's, and replaces it when their FPR_hi are equal.
  for (const OperatingPoint& p : sweep.points) {
    const double log_fpr =
        log_rate_upper(RateBound::clopper_pearson, p.false_positives, n_out, level);
    const double log_fnr =
        log_rate_upper(RateBound::clopper_pearson, sweep.false_negatives(p), n_in, level);
    const double fpr_hi = std::exp(log_fpr), tpr_lo = -std::expm1(log_fnr);
    if (!band.empty() && tpr_lo <= band.back().tpr_lo) continue;
    if (!band.empty() && fpr_hi <= band.back().fpr_hi) band.pop_back();
    band.push_back({p.threshold, static_cast<double>(p.false_positives) / n_out,
                    static_cast<double>(p.true_positives) / n_in, fpr_hi, tpr_lo, log_fpr,
                    log_fnr});
  }
  return band;
}

double band_epsilon(const std::vector<BandPoint>& band, double delta) {
  double eps = 0;
  for (const BandPoint& p : band)
    eps = std::max(eps, epsilon_from_log_rates(p.log_fpr_hi, p.log_fnr_hi, delta));
  return eps;
}

std::vector<double> delta_grid() {
  std::vector<double> grid;
  for (int k = 4; k <= 40; ++k) grid.push_back(std::pow(10.0, -k / 4.0));
  return grid;
}

}  // namespace dpaudit
