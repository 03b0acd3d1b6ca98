#include "accounting/analytic_gaussian.hpp"

#include <cmath>
#include <cstdint>
#include <limits>

#include <fmt/format.h>
#include <boost/math/tools/toms748_solve.hpp>

#include "accounting/two_gaussian.hpp"
#include "core/error.hpp"
#include "core/infinity.hpp"

namespace dpaudit {

namespace {

void check_sigma(double sigma) {
  if (!(sigma > 0) || !std::isfinite(sigma))
    throw UsageError(fmt::format("sigma must be positive and finite, got {}", sigma));
}

// Balle & Wang 2018, Thm 8, with sensitivity 1: the privacy-loss region {L > eps} is
// x < 1/2 - eps sigma^2 for N(0, sigma^2) against N(1, sigma^2).
double log_delta_unchecked(double sigma, double eps) {
  return log_hockey_stick(log_normal_cdf(0.5 / sigma - eps * sigma),
                          log_normal_cdf(-0.5 / sigma - eps * sigma), eps);
}

}  // namespace

double gaussian_mechanism_log_delta(double sigma, double eps) {
  check_sigma(sigma);
  if (eps == kInf) return -kInf;  // delta(inf) = 0 for any sigma > 0
  check_epsilon(eps);
  return log_delta_unchecked(sigma, eps);
}

double gaussian_mechanism_delta(double sigma, double eps) {
  return std::exp(gaussian_mechanism_log_delta(sigma, eps));
}

double gaussian_composition_epsilon(double sigma, double k, double delta) {
  return k == 0 ? 0.0 : gaussian_mechanism_epsilon(sigma / std::sqrt(k), delta);
}

double gaussian_mechanism_epsilon(double sigma, double delta) {
  check_sigma(sigma);
  return smallest_epsilon([sigma](double eps) { return log_delta_unchecked(sigma, eps); }, delta);
}

double gaussian_mechanism_sigma(double eps, double delta) {
  check_delta(delta);
  if (eps == kInf) return 0;  // no noise meets (inf, delta)
  check_epsilon(eps);
  const double log_target = std::log(delta);
  // delta decreases in sigma; search log sigma in a doubling bracket.
  auto f = [&](double log_sigma) {
    return log_delta_unchecked(std::exp(log_sigma), eps) - log_target;
  };
  double lo = 0, hi = 0;
  if (f(0) > 0) {
    do {
      lo = hi++;
    } while (f(hi) > 0 && hi < 700);
  } else {
    do {
      hi = lo--;
    } while (f(lo) <= 0 && lo > -700);
  }
  if (!(f(lo) > 0 && f(hi) <= 0))
    throw DataError(fmt::format("no sigma found for eps {} and delta {}", eps, delta));
  // delta 0 at sigma e^hi is lost precision (Phi(a) and e^eps Phi(b) round to one value),
  // not an answer: refuse rather than feed -inf to the solver (a NaN downstream).
  if (!std::isfinite(f(hi)))
    throw DataError(
        fmt::format("the sigma for eps {} and delta {} is beyond double precision "
                    "(delta rounds to 0 near sigma {:.3g})",
                    eps, delta, std::exp(hi)));
  auto tolerance = [](double x, double y) { return std::abs(y - x) <= 1e-13; };
  std::uintmax_t max_iter = 300;
  const auto r = boost::math::tools::toms748_solve(f, lo, hi, tolerance, max_iter);
  return std::exp(r.second);
}

}  // namespace dpaudit
