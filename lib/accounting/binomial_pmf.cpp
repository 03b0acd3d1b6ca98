#include "accounting/binomial_pmf.hpp"

#include <cfloat>
#include <cmath>

namespace dpaudit {
namespace {

constexpr double kLog2Pi = 1.8378770664093454836;  // log(2 pi)

// stirlerr(m) = log m! - log(sqrt(2 pi m) (m/e)^m), m >= 1 whole: for m <= 15 from lgamma in
// long double (|log m!| <= 28: about 1e-18 absolute), above from the Stirling series
// 1/(12m) - 1/(360m^3) + 1/(1260m^5) - 1/(1680m^7) + 1/(1188m^9), truncated where the next
// term is below 2^-53 of the first (Loader 2000's cut-offs).
double stirlerr(double m) {
  if (m <= 15) {
    const long double ml = m;
    return static_cast<double>(lgammal(ml + 1) - (ml + 0.5L) * logl(ml) + ml -
                               0.5L * static_cast<long double>(kLog2Pi));
  }
  constexpr double s0 = 1.0 / 12, s1 = 1.0 / 360, s2 = 1.0 / 1260, s3 = 1.0 / 1680, s4 = 1.0 / 1188;
  const double mm = m * m;
  if (m > 500) return (s0 - s1 / mm) / m;
  if (m > 80) return (s0 - (s1 - s2 / mm) / mm) / m;
  if (m > 35) return (s0 - (s1 - (s2 - s3 / mm) / mm) / mm) / m;
  return (s0 - (s1 - (s2 - (s3 - s4 / mm) / mm) / mm) / mm) / m;
}

// bd0(x, M) = x log(x/M) + M - x >= 0, x > 0, M > 0. Near x = M it is the difference of two
// nearly equal terms: there (|x - M| < (x + M) / 10) the series in v = (x - M) / (x + M),
//   bd0 = (x - M) v + 2 x sum_{j >= 1} v^(2j+1) / (2j + 1),
// whose terms fall by v^2 <= 1/100 each, summed until one no longer changes the sum.
double bd0(double x, double m) {
  if (std::abs(x - m) < 0.1 * (x + m)) {
    const double v = (x - m) / (x + m), v2 = v * v;
    double sum = (x - m) * v, term = 2 * x * v;
    for (int j = 1; j < 100; ++j) {
      term *= v2;
      const double next = sum + term / (2 * j + 1);
      if (next == sum) break;
      sum = next;
    }
    return sum;
  }
  return x * std::log(x / m) + m - x;
}

}  // namespace

double log_binomial_pmf(double n, double k, double log_p, double log_1mp) {
  if (k == 0) return n * log_1mp;
  if (k == n) return n * log_p;
  const double p = std::exp(log_p), q = std::exp(log_1mp);
  if (p < DBL_MIN || q < DBL_MIN)
    return std::lgamma(n + 1) - std::lgamma(k + 1) - std::lgamma(n - k + 1) + k * log_p +
           (n - k) * log_1mp;
  const double saddle =
      stirlerr(n) - stirlerr(k) - stirlerr(n - k) - bd0(k, n * p) - bd0(n - k, n * q);
  return saddle - 0.5 * (kLog2Pi + std::log(k) + std::log1p(-k / n));
}

}  // namespace dpaudit
