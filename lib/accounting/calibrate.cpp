#include "accounting/calibrate.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dpaudit {

double smallest_sigma(const std::function<double(double)>& eps_at, double eps,
                      double relative_tolerance) {
  if (!(eps > 0) || !std::isfinite(eps))
    throw UsageError(fmt::format("eps must be positive and finite, got {}", eps));
  constexpr double kMin = 1e-4, kMax = 1e6;
  double lo = 1, hi = 1;
  if (eps_at(1) > eps) {
    while (eps_at(hi) > eps) {
      lo = hi;
      hi *= 2;
      if (hi > kMax)
        throw UsageError(fmt::format("eps {} needs a noise multiplier above {}", eps, kMax));
    }
  } else {
    while (eps_at(lo) <= eps) {
      hi = lo;
      lo /= 2;
      if (lo < kMin)
        throw UsageError(fmt::format("eps {} is met by any noise multiplier above {}", eps, kMin));
    }
  }
  while (hi / lo - 1 > relative_tolerance) {
    const double mid = std::sqrt(lo * hi);
    (eps_at(mid) > eps ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace dpaudit
