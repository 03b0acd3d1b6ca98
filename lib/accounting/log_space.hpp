// Log-space building blocks of exact (eps, delta) curves, shared by the two-Gaussian
// curve (two_gaussian.hpp), the cosine null (cosine_null.hpp), the analytic Gaussian
// mechanism and the RDP accountant: log normal CDFs, regions of the real line and
// their masses, the hockey-stick divergence, and the search for the smallest eps.
#pragma once
#include <array>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>

namespace dpaudit {

struct Gaussian {
  double mean;
  double stddev;
};

// log Phi(z) and log(1 - Phi(z)) of the standard normal, accurate in both tails
// (erfc, and the asymptotic Mills-ratio series below z = -35). DataError for a NaN z.
double log_normal_cdf(double z);
double log_normal_sf(double z);
double log_cdf(const Gaussian& g, double x);
double log_sf(const Gaussian& g, double x);

// log(e^a + e^b) and log(e^a - e^b) (a >= b), exact at -inf.
double log_add(double a, double b);
double log_sub(double a, double b);

// A union of at most kMaxParts disjoint open intervals, ascending; ends may be +-inf.
struct Interval {
  double lo;
  double hi;
};
struct Region {
  static constexpr std::size_t kMaxParts = 8;
  std::array<Interval, kMaxParts> parts{};
  std::size_t size = 0;
  // Appends (lo, hi), merging it with the last part when they touch.
  void add(double lo, double hi);
};

// log P(region) for a distribution with log_cdf/log_sf overloads and median m;
// each interval is computed from the tail it lies in, so tiny masses keep their digits.
template <class Dist>
double log_mass(const Dist& dist, double median, const Region& region) {
  double total = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < region.size; ++i) {
    const auto [lo, hi] = region.parts[i];
    double part;
    if (hi <= median) {
      part = log_sub(log_cdf(dist, hi), log_cdf(dist, lo));
    } else if (lo >= median) {
      part = log_sub(log_sf(dist, lo), log_sf(dist, hi));
    } else {  // straddles the median: 1 - P(X <= lo) - P(X >= hi), both <= 1/2
      part = std::log1p(-(std::exp(log_cdf(dist, lo)) + std::exp(log_sf(dist, hi))));
    }
    total = log_add(total, part);
  }
  return total;
}

// log of the hockey-stick term P(R) - e^eps Q(R) from log P(R) and log Q(R);
// -inf when it is <= 0; log P(R) where rounding at |eps| > 1e6 hides the sign.
double log_hockey_stick(double log_p, double log_q, double eps);

// Smallest eps >= 0 with log_delta(eps) <= log(delta), for a nonincreasing
// log_delta: bracketing by doubling, then TOMS 748 to 1e-10 relative (1e-300
// absolute); the upper end of the final bracket is returned, so the answer meets
// delta. +inf when no eps up to 1e100 does, or when log_delta_at_infinity (the
// limit of log delta as eps grows) is already above log(delta).
double smallest_epsilon(const std::function<double(double)>& log_delta, double delta,
                        double log_delta_at_infinity = -std::numeric_limits<double>::infinity());

// Throws UsageError unless 0 < delta < 1 (named `what` in the message).
void check_delta(double delta, const char* what = "delta");
// Throws UsageError unless eps >= 0 and finite.
void check_epsilon(double eps, const char* what = "eps");

}  // namespace dpaudit
