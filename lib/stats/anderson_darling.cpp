#include "stats/anderson_darling.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "accounting/two_gaussian.hpp"
#include "core/error.hpp"
#include "core/power_of_two.hpp"
#include "stats/gaussian_fit.hpp"

namespace dpaudit {

double anderson_darling_normal(const std::vector<double>& x_sorted) {
  const std::size_t n = x_sorted.size();
  if (n < 2) throw UsageError("anderson_darling_normal: needs at least 2 samples");
  if (!std::is_sorted(x_sorted.begin(), x_sorted.end()))
    throw UsageError("anderson_darling_normal: samples are not sorted ascending");
  // The statistic is scale-free: computed on the samples over a power of two near the
  // largest (exact), so that x - mean and the spread stay finite near +-1e308.
  const double largest = std::max(std::abs(x_sorted.front()), std::abs(x_sorted.back()));
  const int e = largest > 0 ? std::ilogb(largest) : 0;
  std::vector<double> x(n);
  const PowerOfTwo down(-e);
  for (std::size_t i = 0; i < n; ++i) x[i] = down(x_sorted[i]);
  const Gaussian fit = fit_gaussian(x, 1);
  if (!(fit.stddev > 0)) throw UsageError("anderson_darling_normal: all samples are equal");
  const double nd = static_cast<double>(n);
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double w_low = (x[i] - fit.mean) / fit.stddev;
    const double w_high = (x[n - 1 - i] - fit.mean) / fit.stddev;
    sum +=
        (2.0 * static_cast<double>(i) + 1.0) / nd * (log_normal_cdf(w_low) + log_normal_sf(w_high));
  }
  return -nd - sum;
}

double anderson_darling_critical_value(std::size_t n, double significance_percent) {
  // Stephens (1974), Case 3 (both parameters estimated), as tabulated in scipy.
  static constexpr std::array<std::pair<double, double>, 5> kTable{
      {{15, 0.576}, {10, 0.656}, {5, 0.787}, {2.5, 0.918}, {1, 1.092}}};
  for (const auto& [level, value] : kTable) {
    if (level == significance_percent) {
      const double nd = static_cast<double>(n);
      return value / (1.0 + 4.0 / nd - 25.0 / (nd * nd));
    }
  }
  throw UsageError(fmt::format("no Anderson-Darling critical value at {}% (15, 10, 5, 2.5 or 1)",
                               significance_percent));
}

}  // namespace dpaudit
