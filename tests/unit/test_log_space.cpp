// The log-space building blocks (lib/accounting/log_space.hpp). Values marked
// [mpmath] were computed with mpmath 1.2.1 at 50 digits (tests/golden/accounting.py).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "accounting/log_space.hpp"
#include "core/error.hpp"
#include "relative_close.hpp"

using namespace dpaudit;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

TEST_CASE("log normal CDF: closed values and both tails") {
  CHECK(log_normal_cdf(0) == doctest::Approx(std::log(0.5)).epsilon(1e-15));
  // Phi(-1.959963984540054) = 0.025 (the 97.5% quantile of N(0,1))
  CHECK(close(log_normal_cdf(-1.959963984540054), std::log(0.025), 1e-13));
  // log Phi(-40) = -804.6084420137538 [mpmath: log(ncdf(-40)) at 50 digits]; erfc underflows here
  CHECK(close(log_normal_cdf(-40), -804.6084420137538, 1e-14));
  // log Phi(10) = -Phi(-10) = -7.619853024160527e-24 [mpmath]
  CHECK(close(log_normal_cdf(10), -7.619853024160527e-24, 1e-10));
  CHECK(log_normal_sf(3) == log_normal_cdf(-3));
  CHECK(log_normal_cdf(-std::numeric_limits<double>::infinity()) ==
        -std::numeric_limits<double>::infinity());
  CHECK(log_normal_cdf(std::numeric_limits<double>::infinity()) == 0);
}

TEST_CASE("log_add / log_sub") {
  CHECK(log_add(std::log(2.0), std::log(3.0)) == doctest::Approx(std::log(5.0)).epsilon(1e-15));
  CHECK(log_sub(std::log(5.0), std::log(3.0)) == doctest::Approx(std::log(2.0)).epsilon(1e-15));
  CHECK(log_sub(-1000, -1000) == -std::numeric_limits<double>::infinity());
  CHECK(log_add(-2000, -2000) == doctest::Approx(-2000 + std::log(2.0)).epsilon(1e-15));
}

TEST_CASE("log_mass of a region: each interval from its own tail") {
  const Gaussian g{0, 1};
  Region r;
  r.add(-kInf, -1.959963984540054);  // P = 0.025
  r.add(1.959963984540054, kInf);    // P = 0.025
  CHECK(close(log_mass(g, 0.0, r), std::log(0.05), 1e-13));
  Region middle;
  middle.add(-1.959963984540054, 1.959963984540054);  // straddles the median: 0.95
  CHECK(close(log_mass(g, 0.0, middle), std::log(0.95), 1e-13));
  Region far;
  far.add(-kInf, -40);  // log Phi(-40) [mpmath], where 1 - P(X > -40) would round to 0
  CHECK(close(log_mass(g, 0.0, far), -804.6084420137538, 1e-14));
  Region touching;  // touching parts merge
  touching.add(0, 1);
  touching.add(1, 2);
  CHECK(touching.size == 1);
  CHECK(touching.parts[0].hi == 2);
}

TEST_CASE("hockey stick and the smallest eps") {
  // P(R) - e^eps Q(R) with P = 0.5, Q = 0.1, eps = log 2: 0.5 - 0.2 = 0.3.
  CHECK(close(std::exp(log_hockey_stick(std::log(0.5), std::log(0.1), std::log(2.0))), 0.3, 1e-14));
  CHECK(log_hockey_stick(std::log(0.1), std::log(0.5), 0) == -kInf);  // negative: delta 0
  // log delta(eps) = -eps: the smallest eps with delta <= 1e-3 is log(1000).
  CHECK(close(smallest_epsilon([](double e) { return -e; }, 1e-3), std::log(1000.0), 1e-10));
  CHECK(smallest_epsilon([](double) { return std::log(0.5); }, 0.1) ==
        kInf);  // never reaches delta
  CHECK(smallest_epsilon([](double) { return -kInf; }, 0.1) == 0);
  CHECK_THROWS_AS(check_delta(1.0), UsageError);
  CHECK_THROWS_AS(check_epsilon(-1.0), UsageError);
}
