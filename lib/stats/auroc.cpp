#include "stats/auroc.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace dpaudit {
namespace {

void check_classes(const RocSweep& sweep) {
  if (sweep.n_in == 0 || sweep.n_out == 0) throw UsageError("ROC summary needs in and out scores");
}

}  // namespace

double auroc(const RocSweep& sweep) {
  check_classes(sweep);
  // Along decreasing thresholds, the in scores equal to point p's threshold beat
  // every out score below it and tie with the out scores at it.
  double wins = 0;
  std::size_t tp_before = 0, fp_before = 0;
  for (const auto& p : sweep.points) {
    const double new_in = static_cast<double>(p.true_positives - tp_before);
    const double new_out = static_cast<double>(p.false_positives - fp_before);
    const double out_below = static_cast<double>(sweep.n_out - p.false_positives);
    wins += new_in * (out_below + new_out / 2);
    tp_before = p.true_positives;
    fp_before = p.false_positives;
  }
  return wins / (static_cast<double>(sweep.n_in) * static_cast<double>(sweep.n_out));
}

double tpr_at_fpr(const RocSweep& sweep, double max_fpr) {
  check_classes(sweep);
  std::size_t best_tp = 0;
  for (const auto& p :
       sweep.points) {  // false positives never decrease: stop at the first too many
    if (static_cast<double>(p.false_positives) > max_fpr * static_cast<double>(sweep.n_out)) break;
    best_tp = p.true_positives;
  }
  return static_cast<double>(best_tp) / static_cast<double>(sweep.n_in);
}

double auroc_against(const std::vector<double>& in_sorted, const LogCdf& out_log_cdf,
                     const LogCdf& out_log_pdf) {
  if (in_sorted.empty()) throw UsageError("ROC summary needs in scores");
  if (!std::is_sorted(in_sorted.begin(), in_sorted.end()))
    throw UsageError("auroc_against: scores are not sorted");
  constexpr std::size_t kBlock = 64;
  constexpr double kTolerance = 1e-12;
  const auto cdf = [&](double t) { return std::exp(out_log_cdf(t)); };
  // Integral of the density over [a, b]: 3-point Gauss-Legendre, exact for quintics.
  const auto mass = [&](double a, double b) {
    const double mid = (a + b) / 2, half = (b - a) / 2, offset = half * std::sqrt(0.6);
    return half *
           (5.0 / 9 * std::exp(out_log_pdf(mid - offset)) + 8.0 / 9 * std::exp(out_log_pdf(mid)) +
            5.0 / 9 * std::exp(out_log_pdf(mid + offset)));
  };
  const std::size_t n = in_sorted.size();
  double f_start = cdf(in_sorted[0]);
  double sum = f_start;
  std::vector<double> carried;
  for (std::size_t start = 0; start + 1 < n;) {
    const std::size_t end = std::min(start + kBlock, n - 1);
    const double f_end = cdf(in_sorted[end]);
    carried.clear();
    double f = f_start;
    for (std::size_t i = start + 1; i <= end; ++i) {
      f += mass(in_sorted[i - 1], in_sorted[i]);
      carried.push_back(f);
    }
    const bool accurate = std::abs(carried.back() - f_end) <= kTolerance;
    for (std::size_t i = start + 1; i < end; ++i)
      sum += accurate ? carried[i - start - 1] : cdf(in_sorted[i]);
    sum += f_end;
    f_start = f_end;
    start = end;
  }
  return sum / static_cast<double>(n);
}

double tpr_at_fpr_against(const std::vector<double>& in_sorted, const LogCdf& out_log_sf,
                          double max_fpr, double lo, double hi) {
  if (in_sorted.empty()) throw UsageError("ROC summary needs in scores");
  const double log_target = std::log(max_fpr);
  if (out_log_sf(hi) > log_target) return 0;
  // Invariant: P(T >= lo) > max_fpr >= P(T >= hi); 200 halvings reach adjacent doubles.
  for (int i = 0; i < 200 && lo < hi; ++i) {
    const double mid = lo + (hi - lo) / 2;
    if (mid == lo || mid == hi) break;
    (out_log_sf(mid) > log_target ? lo : hi) = mid;
  }
  const auto at_least = std::lower_bound(in_sorted.begin(), in_sorted.end(), hi);
  return static_cast<double>(in_sorted.end() - at_least) / static_cast<double>(in_sorted.size());
}

}  // namespace dpaudit
