#include <doctest/doctest.h>

#include <cmath>

#include "accounting/binomial_pmf.hpp"

using namespace dpaudit;

namespace {

// The lgamma form, for the contrast.
double lgamma_form(double n, double k, double log_p, double log_1mp) {
  return std::lgamma(n + 1) - std::lgamma(k + 1) - std::lgamma(n - k + 1) + k * log_p +
         (n - k) * log_1mp;
}

}  // namespace

TEST_CASE("log_binomial_pmf: mpmath's values at 50 digits, far inside the lgamma form's error") {
  // Each reference is log C(n, k) + k log_p + (n - k) log_1mp in mpmath 1.2.1 at 50 digits
  // (loggamma), with log_p and log_1mp the doubles below exactly, 2026-11-27.
  struct Case {
    double n, k, p, reference, tolerance;
  };
  const Case cases[] = {
      {10, 3, 0.3, -1.3211512777668886858, 2e-15},   {1e6, 1, 1e-3, -993.59157780421777916, 1e-12},
      {1e7, 3, 2e-7, -1.7123178275482122364, 1e-14},  // the lgamma form: 3.9e-9 off
      {50, 25, 0.5, -2.1868025221852723111, 1e-14},  {20, 7, 1e-10, -149.92266526431855116, 1e-13},
      {100, 0, 0.2, -22.314355131420976, 1e-14},     {100, 100, 0.2, -160.94379124341003, 1e-13},
  };
  for (const Case& c : cases) {
    const double log_p = std::log(c.p), log_1mp = std::log1p(-c.p);
    CHECK_MESSAGE(std::abs(log_binomial_pmf(c.n, c.k, log_p, log_1mp) - c.reference) <= c.tolerance,
                  c.n << " " << c.k << " " << c.p);
  }
}

TEST_CASE("log_binomial_pmf: one-run's a_1 at 10^7 scores, where the lgamma form is 1.1e-9 off") {
  // r = 10^6 guesses, v - 1 = 869,130, q = 1 / (1 + e^-eps) at one-run's eps of the 10^7-score
  // benchmark; reference as above: -17222.037276184089443.
  const double eps = 1.3765024025178718, l = std::log1p(std::exp(-eps));
  const double log_q = -l, log_not_q = -eps - l, reference = -17222.037276184089443;
  CHECK(std::abs(log_binomial_pmf(1e6, 869130, log_q, log_not_q) - reference) < 4e-11);
  CHECK(std::abs(lgamma_form(1e6, 869130, log_q, log_not_q) - reference) > 1e-9);
}

TEST_CASE("log_binomial_pmf: a p below the smallest normal takes the lgamma form") {
  const double log_p = -800, log_1mp = -std::exp(-800.0);  // p = e^-800 underflows
  CHECK(log_binomial_pmf(10, 2, log_p, log_1mp) == lgamma_form(10, 2, log_p, log_1mp));
}
