// A discrete privacy-loss distribution and its hockey-stick curve:
// delta(eps) = P(L = inf) + sum_l p_l (1 - e^(eps - l))_+ (Doroshenko et al. 2022),
// checked on small distributions by hand.
#include <doctest/doctest.h>

#include <cmath>

#include "accounting/pld_pmf.hpp"
#include "core/error.hpp"
#include "relative_close.hpp"

using namespace dpaudit;

TEST_CASE("delta(eps) of a two-point PLD, closed form") {
  // losses 0.5 (mass 0.3) and 1.0 (mass 0.7) on the lattice h = 0.5
  const PldPmf p{0.5, 1, {0.3, 0.7}, 0};
  CHECK(close(pld_delta(p, 0), 0.3 * (1 - std::exp(-0.5)) + 0.7 * (1 - std::exp(-1.0)), 1e-15));
  CHECK(close(pld_delta(p, 0.7), 0.7 * (1 - std::exp(0.7 - 1.0)), 1e-15));
  CHECK(pld_delta(p, 1.0) == 0);
  CHECK(pld_delta(p, 5.0) == 0);
  // negative eps: every point above it counts
  CHECK(close(pld_delta(p, -1), 0.3 * (1 - std::exp(-1.5)) + 0.7 * (1 - std::exp(-2.0)), 1e-15));
  // mass at +inf counts fully at every eps
  const PldPmf inf{0.5, 1, {0.3, 0.6}, 0.1};
  CHECK(close(pld_delta(inf, 0.7), 0.1 + 0.6 * (1 - std::exp(-0.3)), 1e-15));
  CHECK(pld_delta(inf, 50) == 0.1);
}

TEST_CASE("delta at many eps in one scan equals delta at each") {
  // losses -1 .. 1 by 0.5, mass 0.05 at +inf; eps below, between, on and above the points
  const PldPmf p{0.5, -2, {0.1, 0.2, 0.3, 0.2, 0.15}, 0.05};
  const std::vector<double> eps{-3, -1, -0.7, 0, 0.2, 0.5, 0.5, 0.99, 1, 1.5, 40};
  const std::vector<double> all = pld_deltas(p, eps);
  REQUIRE(all.size() == eps.size());
  for (std::size_t k = 0; k < eps.size(); ++k) {
    CAPTURE(eps[k]);
    CHECK(close(all[k], pld_delta(p, eps[k]), 1e-14));
  }
  // closed form at 0.2: 0.05 + 0.2 (1 - e^(0.2 - 0.5)) + 0.15 (1 - e^(0.2 - 1))
  CHECK(close(all[4], 0.05 + 0.2 * -std::expm1(-0.3) + 0.15 * -std::expm1(-0.8), 1e-15));
  CHECK(all.back() == 0.05);
  CHECK(pld_deltas(p, {}).empty());
  CHECK_THROWS_AS(pld_deltas(p, {1, 0.5}), UsageError);
  CHECK_THROWS_AS(pld_deltas(p, {NAN}), UsageError);
}

TEST_CASE("eps(delta) inverts delta(eps)") {
  const PldPmf p{0.5, -2, {0.1, 0.2, 0.3, 0.25, 0.15}, 0};  // losses -1, -0.5, 0, 0.5, 1
  for (double delta : {0.2, 0.1, 0.05, 0.01, 1e-3, 1e-6}) {
    const double eps = pld_epsilon(p, delta);
    INFO("delta " << delta << " eps " << eps);
    // eps is a double near 1: eps - l keeps ~1e-16 absolute, delta(eps) ~1e-16 / (1 - eps) relative
    if (eps > 0)
      CHECK(close(pld_delta(p, eps), delta, 1e-10));
    else
      CHECK(pld_delta(p, 0) <= delta);
  }
  // in (0.5, 1]: delta = 0.15 (1 - e^(eps - 1)) -> eps = 1 + log(1 - delta / 0.15)
  CHECK(close(pld_epsilon(p, 0.01), 1 + std::log(1 - 0.01 / 0.15), 1e-14));
  // delta(0) = 0.25 (1 - e^-0.5) + 0.15 (1 - e^-1) = 0.193184...: at or above it, eps = 0
  CHECK(pld_epsilon(p, 0.25 * (1 - std::exp(-0.5)) + 0.15 * (1 - std::exp(-1.0)) + 1e-12) == 0);
  CHECK(pld_epsilon(p, 0.5) == 0);
}

TEST_CASE("mass at +inf above delta: eps is inf; at or below it, finite") {
  const PldPmf p{0.1, 0, {0.5, 0.4}, 0.1};
  CHECK(pld_epsilon(p, 0.05) == INFINITY);
  CHECK(std::isfinite(pld_epsilon(p, 0.1)));
  CHECK(std::isfinite(pld_epsilon(p, 0.2)));
  // only the point at 0.1 is above 0: delta(eps) = 0.1 + 0.4 (1 - e^(eps - 0.1))
  CHECK(close(pld_epsilon(p, 0.12), 0.1 + std::log(1 - 0.02 / 0.4), 1e-14));
}

TEST_CASE("a PLD far from the origin keeps its digits") {
  // one point at loss 4666.5 (lattice 0.5): delta(eps) = 1 - e^(eps - 4666.5)
  const PldPmf p{0.5, 9333, {1.0}, 0};
  CHECK(close(pld_epsilon(p, 1e-5), 4666.5 + std::log1p(-1e-5), 1e-15));
  // 4666.5 - 1e-3 is itself rounded by 1e-13: 1e-10 of the 1e-3
  CHECK(close(pld_delta(p, 4666.5 - 1e-3), -std::expm1(-1e-3), 1e-9));
}

TEST_CASE("delta outside (0,1)") {
  const PldPmf p{0.5, 0, {1.0}, 0};
  CHECK_THROWS_AS(pld_epsilon(p, 0), UsageError);
  CHECK_THROWS_AS(pld_epsilon(p, 1), UsageError);
  CHECK_THROWS_AS(pld_epsilon(p, NAN), UsageError);
}
