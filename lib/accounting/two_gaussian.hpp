// The exact (eps, delta) curve between two Gaussians with unequal variances
// (003 Sec. 3.2), computed from the privacy-loss random variable in log space, and
// the building blocks it shares with the cosine null (cosine_null.hpp) and the
// analytic Gaussian mechanism (analytic_gaussian.hpp): log normal CDFs, regions of
// the real line, the hockey-stick divergence and the eps search.
#pragma once
#include <array>
#include <cstddef>
#include <cmath>
#include <functional>
#include <limits>

namespace dpaudit {

struct Gaussian {
  double mean;
  double stddev;
};

// delta(eps) = max over both directions of the hockey-stick divergence
// E_P[(1 - e^eps dQ/dP)_+]. Throws UsageError for a stddev <= 0, a NaN/Inf
// parameter, or eps < 0 / NaN.
double two_gaussian_delta(const Gaussian& p, const Gaussian& q, double eps);
// The same as a natural logarithm (-inf when delta is 0), accurate far below 1e-308.
double two_gaussian_log_delta(const Gaussian& p, const Gaussian& q, double eps);
// Smallest eps >= 0 with two_gaussian_delta(p,q,eps) <= delta, to 1e-10 relative;
// +inf when none is finite (up to 1e100), and for means more than 1e150 standard
// deviations apart. Throws UsageError unless 0 < delta < 1. Computed after mapping the
// narrower Gaussian to N(0,1) (eps is invariant under affine maps).
double two_gaussian_epsilon(const Gaussian& p, const Gaussian& q, double delta);

// ---- building blocks -------------------------------------------------------

// log Phi(z) and log(1 - Phi(z)) of the standard normal, accurate in both tails
// (erfc, and the asymptotic Mills-ratio series below z = -35).
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
