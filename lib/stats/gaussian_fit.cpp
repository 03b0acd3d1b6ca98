#include "stats/gaussian_fit.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/power_of_two.hpp"

namespace dpaudit {

Gaussian fit_gaussian(const std::vector<double>& x, unsigned ddof) {
  if (x.size() <= ddof)
    throw UsageError(fmt::format("fit_gaussian: {} samples, needs more than {}", x.size(), ddof));
  const double n = static_cast<double>(x.size());
  // In units of a power of two near the largest |x| (exact scaling): a sum of scores near
  // 1e308 does not overflow, nor do squares of subnormal ones underflow to 0.
  double largest = 0;
  for (double v : x) largest = std::max(largest, std::abs(v));
  if (largest == 0) return {0, 0};
  const int e = std::ilogb(largest);
  const PowerOfTwo down(-e);
  double sum = 0;
  for (double v : x) sum += down(v);
  const double mean = sum / n;
  double squares = 0;
  for (double v : x) squares += (down(v) - mean) * (down(v) - mean);
  return {std::scalbn(mean, e), std::scalbn(std::sqrt(squares / (n - ddof)), e)};
}

}  // namespace dpaudit
