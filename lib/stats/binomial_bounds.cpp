#include "stats/binomial_bounds.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <boost/math/special_functions/beta.hpp>

#include "core/error.hpp"

namespace dpaudit {
namespace {

void check_arguments(std::size_t k, std::size_t n, double alpha) {
  if (!(alpha > 0 && alpha < 1)) throw UsageError(fmt::format("alpha {} is not in (0,1)", alpha));
  if (n == 0) throw UsageError("a rate needs at least one trial (n = 0)");
  if (k > n) throw UsageError(fmt::format("count {} exceeds the number of trials {}", k, n));
}

// The 1-alpha quantile of Beta(a, b), as the complement quantile at alpha so that a
// quantile close to 1 keeps its digits.
double beta_upper_quantile(double a, double b, double alpha) {
  return boost::math::ibetac_inv(a, b, alpha);
}

}  // namespace

double clopper_pearson_upper(std::size_t k, std::size_t n, double alpha) {
  check_arguments(k, n, alpha);
  if (k == n) return 1.0;
  if (k == 0) return -std::expm1(std::log(alpha) / static_cast<double>(n));  // 1 - alpha^(1/n)
  return beta_upper_quantile(static_cast<double>(k) + 1, static_cast<double>(n - k), alpha);
}

double jeffreys_upper(std::size_t k, std::size_t n, double alpha) {
  check_arguments(k, n, alpha);
  if (k == n) return 1.0;
  return beta_upper_quantile(static_cast<double>(k) + 0.5, static_cast<double>(n - k) + 0.5, alpha);
}

double log_rate_upper(RateBound bound, std::size_t k, std::size_t n, double alpha) {
  switch (bound) {
    case RateBound::point:
      if (n == 0) throw UsageError("a rate needs at least one trial (n = 0)");
      if (k == 0) return -std::numeric_limits<double>::infinity();
      return std::log(static_cast<double>(k)) - std::log(static_cast<double>(n));
    case RateBound::clopper_pearson:
      return std::log(clopper_pearson_upper(k, n, alpha));
    case RateBound::jeffreys:
      return std::log(jeffreys_upper(k, n, alpha));
  }
  throw UsageError("unknown rate bound");
}

}  // namespace dpaudit
