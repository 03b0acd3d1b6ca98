#include "accounting/gdp.hpp"

#include <cmath>
#include <limits>

#include <boost/math/distributions/normal.hpp>
#include <fmt/format.h>

#include "accounting/analytic_gaussian.hpp"
#include "accounting/calibrate.hpp"
#include "accounting/log_space.hpp"
#include "core/error.hpp"

namespace dpaudit {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// mu^2 of one step of an event (exact at q = 1, the CLT's per-step term otherwise).
// sigma is the noise over the sensitivity (without replacement, half the event's).
double mu_squared_per_step(const AccountingEvent& e) {
  const double sigma = noise_over_sensitivity(e), inv_var = 1 / (sigma * sigma);
  if (e.q == 1) return inv_var;
  if (e.sampling == Sampling::poisson) return e.q * e.q * std::expm1(inv_var);
  const boost::math::normal n;
  return 2 * e.q * e.q *
         (std::exp(inv_var) * boost::math::cdf(n, 1.5 / sigma) + 3 * boost::math::cdf(n, -0.5 / sigma) - 2);
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

double gdp_sigma_for_epsilon(double eps, double q, long long steps, double delta, Sampling sampling) {
  check_event({1, q, steps, sampling});
  check_delta(delta);
  return smallest_sigma([&](double sigma) { return gdp_epsilon(gdp_mu({{sigma, q, steps, sampling}}).mu, delta); },
                        eps, 1e-9);
}

}  // namespace dpaudit
