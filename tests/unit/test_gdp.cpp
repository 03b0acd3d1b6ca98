// Gaussian differential privacy. [golden] values computed with mpmath 1.3.0 at 40
// digits from the closed forms in lib/accounting/gdp.hpp (mu by the formula, eps by
// bisection of Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) = delta).
#include <doctest/doctest.h>

#include <cmath>

#include "accounting/analytic_gaussian.hpp"
#include "accounting/gdp.hpp"
#include "accounting/pld.hpp"
#include "core/error.hpp"
#include "relative_close.hpp"

using namespace dpaudit;

TEST_CASE(
    "full batch: exact, mu^2 = sum T_i / sigma_i^2 (Dong, Roth & Su 2022, Thm 2.7, Cor. 3.3)") {
  const GdpMu g = gdp_mu({{2.0, 1.0, 10}, {4.0, 1.0, 40}, {1.0, 1.0, 1}});
  CHECK(g.exact);
  CHECK(close(g.mu, std::sqrt(6.0), 1e-15));
  CHECK(close(gdp_epsilon(g.mu, 1e-6), 14.090076228523902, 1e-9));  // [golden]
  // the same number as the Gaussian mechanism at sigma_eff = 1/mu (and as the PLD's interval)
  CHECK(
      close(gdp_epsilon(g.mu, 1e-6), gaussian_mechanism_epsilon(1 / std::sqrt(6.0), 1e-6), 1e-12));
  const PldInterval pld =
      PldAccountant({{2.0, 1.0, 10}, {4.0, 1.0, 40}, {1.0, 1.0, 1}}).epsilon(1e-6);
  CHECK(pld.lower <= gdp_epsilon(g.mu, 1e-6));
  CHECK(pld.upper >= gdp_epsilon(g.mu, 1e-6));
  // without replacement too: q = 1 is the Gaussian mechanism at sensitivity 2, mu = 2 sqrt(T) /
  // sigma
  const GdpMu w = gdp_mu({{2.0, 1.0, 10, Sampling::without_replacement}});
  CHECK(w.exact);
  CHECK(close(w.mu, std::sqrt(10.0), 1e-15));
}

TEST_CASE("the CLT for subsampling (Bu, Dong, Long & Su 2020)") {
  // Poisson: mu = q sqrt(T (e^(1/sigma^2) - 1))
  const GdpMu p = gdp_mu({{1.1, 0.01, 1000}});
  CHECK_FALSE(p.exact);
  CHECK(close(p.mu, 0.35849454581545706, 1e-14));                   // [golden]
  CHECK(close(gdp_epsilon(p.mu, 1e-5), 1.3774291008101913, 1e-9));  // [golden]
  // without replacement: mu = sqrt(2) q sqrt(T (e^(1/sigma^2) Phi(1.5/sigma) + 3 Phi(-0.5/sigma) -
  // 2)) at sigma = 1.1 over the sensitivity: the event's sigma is over the clip norm, 2 x 1.1
  const GdpMu u = gdp_mu({{2.2, 0.01, 1000, Sampling::without_replacement}});
  CHECK(close(u.mu, 0.46087585153837859, 1e-13));                   // [golden]
  CHECK(close(gdp_epsilon(u.mu, 1e-5), 1.8199975058956373, 1e-9));  // [golden]
  // segments add in mu^2
  CHECK(close(gdp_mu({{1.1, 0.01, 400}, {1.1, 0.01, 600}}).mu, p.mu, 1e-14));
}

TEST_CASE("the CLT is not a bound: below the true eps on a short run with a small rate") {
  // issue 13's case: q = 128/60000, sigma 0.8, 469 steps, delta 1e-5. The CLT gives
  // 0.3027 [golden]; the PLD interval (and dp_accounting, 0.5417) is far above it.
  const double gdp = gdp_epsilon(gdp_mu({{0.8, 128.0 / 60000, 469}}).mu, 1e-5);
  CHECK(close(gdp, 0.30268201052682506, 1e-9));
  CHECK(gdp < PldAccountant({{0.8, 128.0 / 60000, 469}}).epsilon(1e-5).lower);
}

TEST_CASE("delta(eps) of mu-GDP (Dong, Roth & Su 2022, Cor. 2.13)") {
  CHECK(close(gdp_delta(1.0, 1.0), 0.12693673750664395, 1e-12));  // [golden]
  CHECK(gdp_delta(INFINITY, 3.0) == 1);
  CHECK(gdp_epsilon(INFINITY, 1e-5) == INFINITY);
  // e^(1/sigma^2) overflows: mu = inf, eps = inf
  CHECK(gdp_mu({{0.01, 0.5, 10}}).mu == INFINITY);
  // q^2 underflows: mu = 0, a mechanism that reveals nothing (0-GDP): eps = delta = 0
  CHECK(gdp_mu({{1.0, 1e-300, 10}}).mu == 0);
  CHECK(gdp_epsilon(0, 1e-5) == 0);
  CHECK(gdp_delta(0, 0) == 0);
}

TEST_CASE("calibration") {
  // Poisson, closed form: mu* from the target, sigma = 1 / sqrt(log(1 + mu*^2 / (q^2 T)))
  // with mu* = 0.26805112321129422 for eps 1 at delta 1e-5 [golden]
  CHECK(close(gdp_sigma_for_epsilon(1.0, 0.01, 1000, 1e-5), 1.3589917308057999, 1e-8));
  // full batch: sigma = sqrt(T) / mu* = 4 / mu*
  CHECK(close(gdp_sigma_for_epsilon(1.0, 1.0, 16, 1e-5), 14.922526539263767, 1e-8));
  const double s = gdp_sigma_for_epsilon(2.0, 0.01, 1000, 1e-5, Sampling::without_replacement);
  CHECK(gdp_epsilon(gdp_mu({{s, 0.01, 1000, Sampling::without_replacement}}).mu, 1e-5) <= 2.0);
  CHECK(gdp_epsilon(gdp_mu({{s * (1 - 1e-8), 0.01, 1000, Sampling::without_replacement}}).mu,
                    1e-5) > 2.0);
}

TEST_CASE("invalid arguments") {
  CHECK_THROWS_AS(gdp_mu({}), UsageError);
  CHECK_THROWS_AS(gdp_mu({{0, 0.1, 10}}), UsageError);
  CHECK_THROWS_AS(gdp_mu({{1, 0.1, 0}}), UsageError);
  CHECK_THROWS_AS(gdp_epsilon(-1, 1e-5), UsageError);  // mu = 0 is legal (0-GDP), below it not
  CHECK_THROWS_AS(gdp_epsilon(NAN, 1e-5), UsageError);
  CHECK_THROWS_AS(gdp_delta(-1, 1), UsageError);
  CHECK_THROWS_AS(gdp_epsilon(1, 1), UsageError);
  CHECK_THROWS_AS(gdp_delta(1, -1), UsageError);
  CHECK_THROWS_AS(gdp_sigma_for_epsilon(0, 0.1, 10, 1e-5), UsageError);
}

TEST_CASE("extreme but legal noise and rates: mu is a number or inf, never NaN") {
  // q^2 underflows to 0 where e^(1/sigma^2) overflows: mu^2 = 10 q^2 e^(1e4) = e^(9079.1) = inf
  CHECK(std::isinf(gdp_mu({{0.01, 1e-200, 10}}).mu));
  CHECK(gdp_mu({{1e300, 0.5, 10}}).mu == 0);
  CHECK(gdp_epsilon(gdp_mu({{1e300, 0.5, 10}}).mu, 1e-5) == 0);
  // without replacement at sigma 1e8 (x = 2/sigma per unit sensitivity): mu^2 = 10 * 2 q^2
  // (x^2/2 + x^3/sqrt(2 pi)) = 10 * 2 * 0.25 * 2e-16 = 1e-15 to 1.6e-8 relative
  const auto wor = Sampling::without_replacement;
  CHECK(close(gdp_mu({{1e8, 0.5, 10, wor}}).mu, std::sqrt(1e-15), 1e-7));
  // the series and the direct form meet at x = 1e-4 (sigma 2e4): 1e-6 apart at most
  CHECK(close(gdp_mu({{19999.0, 0.5, 10, wor}}).mu, gdp_mu({{20001.0, 0.5, 10, wor}}).mu, 2e-4));
  CHECK(std::isinf(gdp_mu({{1e-3, 0.5, 10, wor}}).mu));
}
