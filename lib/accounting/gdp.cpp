#include "accounting/gdp.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <boost/math/distributions/normal.hpp>

#include "accounting/analytic_gaussian.hpp"
#include "accounting/calibrate.hpp"
#include "accounting/log_space.hpp"
#include "core/error.hpp"
#include "core/infinity.hpp"

namespace dpaudit {

namespace {

// mu^2 of one step of an event (exact at q = 1, the CLT's per-step term otherwise).
// sigma is the noise over the sensitivity (without replacement, half the event's).
// Products in log space: q^2 underflows to 0 (q 1e-200) where e^(1/sigma^2) overflows
// (sigma 0.01), and 0 * inf would be a NaN mu.
double mu_squared_per_step(const AccountingEvent& e) {
  const double sigma = noise_over_sensitivity(e), x = 1 / sigma, inv_var = x * x;
  if (e.q == 1) return inv_var;
  double log_factor;  // log of what q^2 multiplies
  if (e.sampling == Sampling::poisson) {
    log_factor =
        inv_var > 40 ? inv_var + std::log1p(-std::exp(-inv_var)) : std::log(std::expm1(inv_var));
  } else if (x < 1e-4) {
    // e^(x^2) Phi(1.5 x) + 3 Phi(-0.5 x) - 2 = x^2/2 + x^3/sqrt(2 pi) + O(x^4): the direct
    // form cancels to nothing (sigma 1e8) or below 0.
    log_factor = std::log(2 * (0.5 * inv_var + 0.3989422804014327 * inv_var * x));
  } else {
    const boost::math::normal n;
    log_factor = inv_var > 700 ? kInf
                               : std::log(2 * (std::exp(inv_var) * boost::math::cdf(n, 1.5 * x) +
                                               3 * boost::math::cdf(n, -0.5 * x) - 2));
  }
  return std::exp(2 * std::log(e.q) + log_factor);
}

}  // namespace

GdpMu gdp_mu(const std::vector<AccountingEvent>& events) {
  if (events.empty()) throw UsageError("no accounting events");
  double mu2 = 0;
  bool exact = true;
  for (const AccountingEvent& e : events) {
    check_event(e);
    mu2 += static_cast<double>(e.steps) * mu_squared_per_step(e);
    exact = exact && e.q == 1;
  }
  return {std::sqrt(mu2), exact};
}

double gdp_delta(double mu, double eps) {
  if (!(mu >= 0)) throw UsageError(fmt::format("mu must be >= 0, got {}", mu));
  check_epsilon(eps);
  if (mu == 0) return 0;  // 0-GDP: N(0,1) against itself
  if (mu == kInf) return 1;
  return gaussian_mechanism_delta(1 / mu, eps);
}

double gdp_epsilon(double mu, double delta) {
  if (!(mu >= 0)) throw UsageError(fmt::format("mu must be >= 0, got {}", mu));
  check_delta(delta);
  if (mu == 0) return 0;  // 0-GDP: N(0,1) against itself
  if (mu == kInf) return kInf;
  return gaussian_mechanism_epsilon(1 / mu, delta);
}

double gdp_sigma_for_epsilon(double eps, double q, long long steps, double delta,
                             Sampling sampling) {
  check_event({1, q, steps, sampling});
  check_delta(delta);
  return smallest_sigma(
      [&](double sigma) {
        return gdp_epsilon(gdp_mu({{sigma, q, steps, sampling}}).mu, delta);
      },
      eps, 1e-9);
}

}  // namespace dpaudit
