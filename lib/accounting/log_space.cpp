#include "accounting/log_space.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include <fmt/format.h>
#include <boost/math/tools/toms748_solve.hpp>

#include "core/error.hpp"
#include "core/infinity.hpp"

namespace dpaudit {

namespace {

constexpr double kLogSqrt2Pi = 0.91893853320467274178;  // log(sqrt(2 pi))

// log Phi(z) for z < -35 from the Mills-ratio series
// Phi(z) = phi(z)/|z| * (1 - 1/z^2 + 3/z^4 - 15/z^6 + ...), truncated where the next
// term is below 1e-14 relative (Abramowitz & Stegun 26.2.12).
double log_normal_cdf_far_left(double z) {
  const double u = 1.0 / (z * z);
  const double series = 1 - u * (1 - 3 * u * (1 - 5 * u * (1 - 7 * u * (1 - 9 * u))));
  return -0.5 * z * z - std::log(-z) - kLogSqrt2Pi + std::log(series);
}

}  // namespace

double log_normal_cdf(double z) {
  // A NaN here comes from a computation, not from a flag: exit 1, not 2.
  if (std::isnan(z)) throw DataError("internal: log Phi of NaN (a number beyond double's range)");
  if (z > 0) return std::log1p(-0.5 * std::erfc(z / std::sqrt(2.0)));
  if (z > -35) return std::log(0.5 * std::erfc(-z / std::sqrt(2.0)));
  if (z == -kInf) return -kInf;
  return log_normal_cdf_far_left(z);
}

double log_normal_sf(double z) {
  return log_normal_cdf(-z);
}

double log_cdf(const Gaussian& g, double x) {
  return log_normal_cdf((x - g.mean) / g.stddev);
}
double log_sf(const Gaussian& g, double x) {
  return log_normal_cdf((g.mean - x) / g.stddev);
}

double log_add(double a, double b) {
  if (a < b) std::swap(a, b);
  if (b == -kInf) return a;
  return a + std::log1p(std::exp(b - a));
}

double log_sub(double a, double b) {
  if (b == -kInf) return a;
  if (!(a > b)) return -kInf;
  const double d = b - a;  // log(1 - e^d), d < 0 (Maechler 2012: two branches)
  return a + (d > -0.69314718055994531 ? std::log(-std::expm1(d)) : std::log1p(-std::exp(d)));
}

void Region::add(double lo, double hi) {
  if (!(lo < hi)) return;
  if (size > 0 && parts[size - 1].hi >= lo) {
    parts[size - 1].hi = std::max(parts[size - 1].hi, hi);
    return;
  }
  if (size == kMaxParts) throw DataError("internal: region has too many intervals");
  parts[size++] = {lo, hi};
}

double log_hockey_stick(double log_p, double log_q, double eps) {
  // Past 1e6 in magnitude, eps + log Q(R) is rounded by ~1e-16 of that magnitude; when
  // it is within 1e-12 of it from log P(R) the sign of the difference is lost, and the
  // upper bound P(R) is returned (a wide Gaussian against a far narrower one).
  const double scaled_q = eps + log_q;
  const double magnitude = std::max(std::abs(eps), std::abs(log_q));
  if (magnitude > 1e6 && std::abs(log_p - scaled_q) < 1e-12 * magnitude) return log_p;
  return log_sub(log_p, scaled_q);
}

double smallest_epsilon(const std::function<double(double)>& log_delta, double delta,
                        double log_delta_at_infinity) {
  check_delta(delta);
  const double log_target = std::log(delta);
  if (log_delta_at_infinity > log_target) return kInf;
  if (log_delta(0) <= log_target) return 0;
  // Bracket [lo, hi] with log_delta(lo) > target >= log_delta(hi).
  double lo = 0, hi = 1;
  while (log_delta(hi) > log_target) {
    lo = hi;
    hi *= 2;
    if (hi > 1e100) return kInf;
  }
  // -inf (delta exactly 0) is clamped below every representable target.
  auto f = [&](double eps) { return std::max(log_delta(eps), -1000.0) - log_target; };
  auto tolerance = [](double x, double y) {
    return std::abs(y - x) <= 1e-10 * std::max(std::abs(x), std::abs(y)) ||
           std::abs(y - x) <= 1e-300;
  };
  std::uintmax_t max_iter = 300;
  const auto bracket = boost::math::tools::toms748_solve(f, lo, hi, tolerance, max_iter);
  return bracket.second;
}

void check_delta(double delta, const char* what) {
  if (!(delta > 0 && delta < 1))
    throw UsageError(fmt::format("{} must be in (0,1), got {}", what, delta));
}

void check_epsilon(double eps, const char* what) {
  if (!(eps >= 0) || !std::isfinite(eps))
    throw UsageError(fmt::format("{} must be finite and >= 0, got {}", what, eps));
}

}  // namespace dpaudit
