// Golden numbers marked [golden] come from tests/golden/accounting.py: the RDP of the
// Poisson-subsampled Gaussian as log(A_alpha)/(alpha-1), with A_alpha the integral of
// mu0 (mu/mu0)^alpha computed by mpmath 1.2.1 quadrature at 50 digits (not the series).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "accounting/rdp.hpp"
#include "core/error.hpp"
#include "relative_close.hpp"

using namespace dpaudit;

TEST_CASE("default orders contain dp_accounting's and Opacus's defaults") {
  const auto orders = default_rdp_orders();
  CHECK(orders.size() == 99 + 53 + 4);
  CHECK(orders.front() == 1.1);
  CHECK(orders[98] == 10.9);
  CHECK(orders[99] == 11);
  CHECK(orders[151] == 63);
  CHECK(orders.back() == 1024);
}

TEST_CASE("q = 1: the Gaussian mechanism, RDP alpha / (2 sigma^2) (Mironov 2017)") {
  for (double alpha : {1.5, 2.0, 7.3, 64.0})
    CHECK(close(subsampled_gaussian_rdp(0.7, 1, alpha), alpha / (2 * 0.49), 1e-15));
  const std::vector<double> orders = {2, 10.5};
  const auto rdp = composed_rdp({{2.0, 1.0, 1}}, orders);
  CHECK(close(rdp[0], 2 / 8.0, 1e-15));
  CHECK(close(rdp[1], 10.5 / 8.0, 1e-15));
  // sigma^2 underflows to 0 (sigma 1e-200): RDP and eps are +inf, not a NaN or an error
  CHECK(std::isinf(subsampled_gaussian_rdp(1e-200, 1, 2.0)));
  CHECK(std::isinf(rdp_epsilon({{1e-200, 1.0, 10}}, 1e-5).epsilon));
}

TEST_CASE("subsampled Gaussian RDP matches quadrature, integer and fractional orders") {
  // [golden] (sigma, q, alpha). The fractional series stops at terms below e^-30
  // (Mironov, Talwar & Zhang 2019), an absolute error of ~1e-13 in A_alpha.
  CHECK(std::abs(subsampled_gaussian_rdp(1.1, 0.01, 2.5) - 0.00016207740937000371) < 1e-13);
  CHECK(close(subsampled_gaussian_rdp(1.1, 0.01, 8), 0.00058407033552025108, 1e-10));
  CHECK(close(subsampled_gaussian_rdp(1.1, 0.01, 32), 8.4694164336759256, 1e-10));
  CHECK(close(subsampled_gaussian_rdp(0.8, 0.05, 1.5), 0.0062679076135898844, 1e-10));
  CHECK(close(subsampled_gaussian_rdp(2.0, 0.3, 12.7), 0.44437515677064892, 1e-10));
  CHECK(close(subsampled_gaussian_rdp(5.0, 1e-3, 3), 6.1218689805355314e-8, 1e-9));
}

TEST_CASE("sampling without replacement: Wang, Balle & Kasiviswanathan 2019") {
  // [golden] Thm 9 at integer orders, Cor. 10 (CGF interpolation) between them,
  // evaluated by tests/golden/accounting.py in mpmath. The code uses Thm 27, whose terms
  // are min(Thm 9's, 4 sqrt(Delta^(2 floor(j/2)) Delta^(2 ceil(j/2)))); at these noise
  // levels (sigma <= 2, or the sum dominated by j near alpha) Thm 9's term is the smaller
  // in every term that counts, so the values are the same.
  const auto wor = Sampling::without_replacement;
  CHECK(close(subsampled_gaussian_rdp(1.1, 0.01, 8, wor), 0.0020421531238429167, 1e-12));
  CHECK(close(subsampled_gaussian_rdp(1.1, 0.01, 2.5, wor), 0.00061697899111294148, 1e-12));
  CHECK(close(subsampled_gaussian_rdp(0.8, 0.05, 1.5, wor), 0.023573612020587725, 1e-12));
  CHECK(close(subsampled_gaussian_rdp(2.0, 0.3, 32, wor), 2.7810394804111312, 1e-12));
  CHECK(close(subsampled_gaussian_rdp(0.5, 0.001, 12, wor), 16.527280348434027, 1e-12));
  // q = 1 is the Gaussian mechanism either way
  CHECK(subsampled_gaussian_rdp(1.3, 1, 5, wor) == subsampled_gaussian_rdp(1.3, 1, 5));
  // segments of the two kinds compose, each with its own bound; an event's sigma is over the
  // clip norm, and replace-one doubles the sensitivity: the per-step bound is read at sigma/2
  const std::vector<double> orders = {4};
  const auto mixed = composed_rdp({{1.0, 0.01, 10}, {1.0, 0.01, 5, wor}}, orders);
  CHECK(close(
      mixed[0],
      10 * subsampled_gaussian_rdp(1.0, 0.01, 4) + 5 * subsampled_gaussian_rdp(0.5, 0.01, 4, wor),
      1e-14));
  // q = 1 without replacement: the Gaussian mechanism at sensitivity 2, alpha 4 / (2 sigma^2)
  CHECK(close(composed_rdp({{1.3, 1, 1, wor}}, {5})[0], 5 * 4 / (2 * 1.3 * 1.3), 1e-14));
  const double sigma = rdp_sigma_for_epsilon(2.0, 0.01, 1000, 1e-5, default_rdp_orders(), wor);
  CHECK(rdp_epsilon({{sigma, 0.01, 1000, wor}}, 1e-5).epsilon <= 2.0);
  CHECK(rdp_epsilon({{sigma * (1 - 1e-6), 0.01, 1000, wor}}, 1e-5).epsilon > 2.0);
}

TEST_CASE(
    "without replacement: Thm 27, the strengthened bound (Wang, Balle & Kasiviswanathan 2019)") {
  const auto wor = Sampling::without_replacement;
  // [golden] Thm 27 evaluated in mpmath 1.3.0 at 1500 digits, the forward differences
  // Delta^m = sum_k C(m,k) (-1)^(m-k) e^(k(k-1)/(2 sigma^2)) summed exactly (in double
  // that sum loses every digit; the code integrates E[(r - 1)^m] instead).
  CHECK(close(subsampled_gaussian_rdp(8.816, 0.01279, 8, wor), 3.4066646436425044e-5, 1e-12));
  CHECK(close(subsampled_gaussian_rdp(8.816, 0.01279, 256, wor), 0.0011764399050638246, 1e-12));
  CHECK(close(subsampled_gaussian_rdp(3, 0.2, 5, wor), 0.049613138813249239, 1e-12));
  CHECK(close(subsampled_gaussian_rdp(3, 0.2, 40, wor), 0.66617372763593492, 1e-12));
  // [golden] issue 13, dp_accounting's RDP accountant (Thm 27 up to order 256, Thm 9's
  // terms above): sigma 8.816, q 0.01279, 8 steps, delta 8.04e-8 gives 0.0478 (Thm 9: 0.1347).
  // dp_accounting's noise multiplier is over the replace-one sensitivity, an event's over
  // the clip norm (half the sensitivity): the same run is the event at sigma 2 x 8.816.
  std::vector<double> up_to_256;
  for (double a : default_rdp_orders())
    if (a <= 256) up_to_256.push_back(a);
  const RdpResult dp = rdp_epsilon({{2 * 8.816, 0.01279, 8, wor}}, 8.04e-8, up_to_256);
  CHECK(std::abs(dp.epsilon - 0.0478) < 5e-5);
  // at order 512 the code keeps Thm 27's terms up to j = 257: lower still
  CHECK(rdp_epsilon({{2 * 8.816, 0.01279, 8, wor}}, 8.04e-8).epsilon < dp.epsilon);
}

TEST_CASE("long runs keep 1e-12: A - 1 is summed, not A") {
  // issue 13: sigma 8.525, q 8.986e-6, 572,906,105 steps. [golden] mpmath 1.3.0 at 60
  // digits: order 128 by the binomial sum, orders 1.5 and 10.5 by quadrature of
  // E[(1 - q + q r)^alpha] - 1; total RDP = steps log(A) / (alpha - 1). (Summing A itself,
  // 1 + 1e-8 rounded, gave 0.041020942423 at order 128: 2.4e-8 relative, 9.8e-10 in eps.)
  const std::vector<RdpEvent> run{{8.525, 8.986e-6, 572906105}};
  const auto rdp = composed_rdp(run, {128, 1.5, 10.5});
  CHECK(close(rdp[0], 0.041020943406901027232, 1e-12));
  CHECK(close(rdp[1], 0.0004807065747334659546, 1e-12));
  CHECK(close(rdp[2], 0.0033649498109365792677, 1e-12));
}

TEST_CASE("the fractional series and the binomial sum agree at an integer") {
  for (double sigma : {0.5, 1.0, 3.0})
    for (double q : {1e-4, 0.01, 0.5})
      CHECK(close(subsampled_gaussian_rdp(sigma, q, 3 + 1e-9), subsampled_gaussian_rdp(sigma, q, 3),
                  1e-6));
}

TEST_CASE("composition adds RDP; segments of equal noise merge") {
  const std::vector<double> orders = {1.5, 4, 20};
  const auto split = composed_rdp({{1.0, 0.01, 300}, {1.0, 0.01, 700}}, orders);
  const auto whole = composed_rdp({{1.0, 0.01, 1000}}, orders);
  for (std::size_t i = 0; i < orders.size(); ++i) CHECK(close(split[i], whole[i], 1e-14));
  const auto mixed = composed_rdp({{1.0, 0.01, 10}, {2.0, 0.1, 5}}, orders);
  for (std::size_t i = 0; i < orders.size(); ++i)
    CHECK(close(mixed[i],
                10 * subsampled_gaussian_rdp(1.0, 0.01, orders[i]) +
                    5 * subsampled_gaussian_rdp(2.0, 0.1, orders[i]),
                1e-14));
}

TEST_CASE("the result does not depend on the thread count") {
  std::vector<RdpEvent> events;
  for (int i = 0; i < 50; ++i) events.push_back({0.8 + 0.01 * i, 0.001 * (1 + i % 7), 1 + i});
  const auto one = composed_rdp(events, default_rdp_orders(), 1);
  const auto four = composed_rdp(events, default_rdp_orders(), 4);
  CHECK(one == four);
}

TEST_CASE("RDP to DP: Canonne, Kamath & Steinke 2020, Prop. 12") {
  // [golden] RDP at order 8 times 1000 steps, converted by
  // eps = rdp + log(7/8) - (log(1e-5) + log 8) / 7
  const double rdp8 = 1000 * 0.00058407033552025108;
  const double want = rdp8 + std::log(7.0 / 8.0) - (std::log(1e-5) + std::log(8.0)) / 7;
  const RdpResult r = rdp_epsilon({{1.1, 0.01, 1000}}, 1e-5, {8});
  CHECK(close(r.epsilon, want, 1e-9));
  CHECK(r.order == 8);
  // the optimum over the orders is the smallest per-order value
  const RdpResult best = rdp_to_dp({3.0, 1.0, 5.0}, {2, 4, 8}, 1e-5);
  CHECK(best.order == 4);
  CHECK(close(best.epsilon, 1.0 + std::log(0.75) - (std::log(1e-5) + std::log(4.0)) / 3, 1e-14));
  // tiny RDP: delta^2 > 1 - e^-rdp gives eps 0 (the KL bound, as dp_accounting)
  CHECK(rdp_to_dp({1e-12}, {2}, 1e-3).epsilon == 0);
}

TEST_CASE("extreme but valid: sigma 0.1, q 1e-6, 1e7 steps stays finite") {
  const RdpResult r = rdp_epsilon({{0.1, 1e-6, 10000000}}, 1e-6);
  CHECK(std::isfinite(r.epsilon));
  CHECK(r.epsilon > 0);
  const RdpResult loose = rdp_epsilon({{0.1, 1e-6, 1000}}, 1e-6);
  CHECK(loose.epsilon < r.epsilon);
  // more noise, less eps
  CHECK(rdp_epsilon({{0.5, 1e-6, 10000000}}, 1e-6).epsilon < r.epsilon);
}

TEST_CASE("sigma for a target eps inverts rdp_epsilon to 1e-6 relative") {
  for (double eps : {0.5, 2.0, 8.0}) {
    const double sigma = rdp_sigma_for_epsilon(eps, 0.01, 1000, 1e-5);
    CHECK(rdp_epsilon({{sigma, 0.01, 1000}}, 1e-5).epsilon <= eps);
    CHECK(rdp_epsilon({{sigma * (1 - 1e-6), 0.01, 1000}}, 1e-5).epsilon > eps);
  }
  // q = 1, one step: rdp-compose's sigma and the RDP bound are consistent
  const double sigma = rdp_sigma_for_epsilon(3.0, 1.0, 1, 1e-6);
  CHECK(close(rdp_epsilon({{sigma, 1.0, 1}}, 1e-6).epsilon, 3.0, 1e-6));
}

TEST_CASE("invalid arguments") {
  CHECK_THROWS_AS(rdp_epsilon({{0, 0.1, 10}}, 1e-5), UsageError);
  CHECK_THROWS_AS(rdp_epsilon({{1, 0, 10}}, 1e-5), UsageError);
  CHECK_THROWS_AS(rdp_epsilon({{1, 1.5, 10}}, 1e-5), UsageError);
  CHECK_THROWS_AS(rdp_epsilon({{1, 0.1, 0}}, 1e-5), UsageError);
  CHECK_THROWS_AS(rdp_epsilon({{1, 0.1, 10}}, 0), UsageError);
  CHECK_THROWS_AS(rdp_epsilon({{1, 0.1, 10}}, 1e-5, {1.0}), UsageError);
  CHECK_THROWS_AS(rdp_epsilon({{1, 0.1, 10}}, 1e-5, {}), UsageError);
  CHECK_THROWS_AS(rdp_epsilon({}, 1e-5), UsageError);
  CHECK_THROWS_AS(rdp_epsilon({{std::nan(""), 0.1, 10}}, 1e-5), UsageError);
  CHECK_THROWS_AS(rdp_sigma_for_epsilon(0, 0.1, 10, 1e-5), UsageError);
  // eps 1e9 in one step is met even at the lowest noise multiplier searched, 1e-4.
  CHECK_THROWS_AS(rdp_sigma_for_epsilon(1e9, 1.0, 1, 1e-5), UsageError);
}

TEST_CASE(
    "huge noise: fractional orders take the chord of the integer ones, a bound, never an error") {
  // sigma 1e6, q 0.01: A - 1 ~ 1e-16 of the series' terms, no digit left. At order 1.5 the
  // chord between log A_1 = 0 and log A_2 = log(1 + q^2 (e^(1/sigma^2) - 1)) (the integer
  // sum, exact) gives RDP = (0.5 log A_2) / 0.5 = log A_2, above the true RDP
  // ~ alpha q^2 / (2 sigma^2) = 7.5e-17 (second order in q; log A is convex in alpha).
  const double log_a2 = std::log1p(1e-4 * std::expm1(1e-12));
  CHECK(close(subsampled_gaussian_rdp(1e6, 0.01, 1.5), log_a2, 1e-12));
  CHECK(subsampled_gaussian_rdp(1e6, 0.01, 1.5) > 1.5e-4 / 2e12);
  CHECK(rdp_epsilon({{1e6, 0.01, 10}}, 1e-5).chord);
  CHECK_FALSE(rdp_epsilon({{1.1, 0.01, 10}}, 1e-5).chord);
  // sigma 1e7, q 0.01, 1000 steps at delta 1e-10 and order 1024 alone: RDP ~ 1000 * 512 q^2 /
  // sigma^2 = 5.12e-13, so eps = log(1023/1024) - (log 1e-10 + log 1024)/1023 + 5.12e-13
  // (Canonne, Kamath & Steinke 2020, Prop. 12)
  const double at_1024 = std::log1p(-1.0 / 1024) - (std::log(1e-10) + std::log(1024.0)) / 1023;
  CHECK(close(rdp_epsilon({{1e7, 0.01, 1000}}, 1e-10, {1024}).epsilon, at_1024, 1e-9));
  // the default orders: RDP(1.1) ~ 5.5e-13 < delta^2 = 1e-10, eps 0 by the KL bound
  CHECK(rdp_epsilon({{1e7, 0.01, 1000}}, 1e-5).epsilon == 0);
  // sigma^2 overflows (z0 = inf * 0 at q = 1/2), q the smallest double: 0, not a NaN
  CHECK(rdp_epsilon({{1e300, 0.5, 10}}, 1e-5).epsilon == 0);
  CHECK(rdp_epsilon({{1.0, 4.9e-324, 10}}, 1e-5).epsilon == 0);
  // where the series still holds (sigma 1e3: A - 1 is 1e-6 of its terms) it is below the
  // chord and above the second-order value alpha q^2 / (2 sigma^2) (e^(1/sigma^2) - 1)
  const double series = subsampled_gaussian_rdp(1e3, 0.01, 1.5);
  const double chord = std::log1p(1e-4 * std::expm1(1e-6));
  CHECK(series < chord);
  CHECK(close(series, 1.5 * 1e-4 * std::expm1(1e-6) / 2, 1e-3));
}
