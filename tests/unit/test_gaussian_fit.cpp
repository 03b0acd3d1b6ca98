#include <doctest/doctest.h>

#include <cmath>

#include "core/error.hpp"
#include "stats/gaussian_fit.hpp"

using namespace dpaudit;

TEST_CASE("mean and std with ddof 0 (Andrew et al. 2024, Alg. 1) and ddof 1") {
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

TEST_CASE("scores near 1e308 or subnormal: the fit of the same scores in other units") {
  // {1,2,3,4} times 2^1021 (their sum overflows double) and times the smallest subnormal
  // (their squared deviations underflow to 0): mean 2.5 and std sqrt(1.25) in those units
  const double big = std::ldexp(1.0, 1021), tiny = std::ldexp(1.0, -1074);
  const Gaussian g = fit_gaussian({big, 2 * big, 3 * big, 4 * big});
  CHECK(g.mean == 2.5 * big);
  CHECK(g.stddev == doctest::Approx(std::sqrt(1.25) * big).epsilon(1e-15));
  const Gaussian s = fit_gaussian({tiny, 2 * tiny, 3 * tiny, 4 * tiny});
  CHECK(s.mean == 2 * tiny);  // 2.5 ulps of the smallest subnormal round to 2 (to even)
  CHECK(s.stddev == tiny);    // sqrt(1.25) = 1.118 rounds to 1
  CHECK(s.stddev > 0);
  // a spread beyond the double range is inf, not NaN
  CHECK(std::isinf(fit_gaussian({-1.7e308, 1.7e308}, 1).stddev));
  CHECK(fit_gaussian({0, 0}).stddev == 0);
}
