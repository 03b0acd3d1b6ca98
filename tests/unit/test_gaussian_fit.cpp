#include <doctest/doctest.h>

#include <cmath>

#include "core/error.hpp"
#include "stats/gaussian_fit.hpp"

using namespace dpaudit;

TEST_CASE("mean and std with ddof 0 (003 Alg. 1) and ddof 1") {
  // {1,2,3,4}: mean 2.5, squared deviations sum to 5: std sqrt(5/4), or sqrt(5/3) with ddof 1.
  const Gaussian g = fit_gaussian({1, 2, 3, 4});
  CHECK(g.mean == 2.5);
  CHECK(g.stddev == doctest::Approx(std::sqrt(1.25)));
  CHECK(fit_gaussian({1, 2, 3, 4}, 1).stddev == doctest::Approx(std::sqrt(5.0 / 3)));
  CHECK(fit_gaussian({7}).stddev == 0.0);
}

TEST_CASE("a large common offset costs no digits (two passes)") {
  const Gaussian g = fit_gaussian({1e9 + 1, 1e9 + 2, 1e9 + 3, 1e9 + 4});
  CHECK(g.mean == 1e9 + 2.5);
  CHECK(g.stddev == doctest::Approx(std::sqrt(1.25)).epsilon(1e-9));
}

TEST_CASE("too few samples") {
  CHECK_THROWS_AS(fit_gaussian({}), UsageError);
  CHECK_THROWS_AS(fit_gaussian({1}, 1), UsageError);
}
