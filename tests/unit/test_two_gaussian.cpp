// Golden numbers marked [golden] come from tests/golden/accounting.py (mpmath 1.2.1
// quadrature of max(0, p - e^eps q) at 50 digits, scipy 1.10.1 brentq), an
// implementation independent of lib/accounting.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "accounting/analytic_gaussian.hpp"
#include "accounting/two_gaussian.hpp"
#include "core/error.hpp"
#include "relative_close.hpp"

using namespace dpaudit;

TEST_CASE("identical Gaussians: delta(0) = 0 and eps = 0") {
  const Gaussian g{0.3, 0.7};
  CHECK(two_gaussian_delta(g, g, 0) == 0);
  CHECK(two_gaussian_epsilon(g, g, 1e-6) == 0);
}

TEST_CASE("equal variances reduce to the analytic Gaussian mechanism (Balle & Wang 2018)") {
  // N(0, s^2) vs N(1, s^2) is the mechanism with sensitivity 1 and noise s.
  for (double s : {0.3, 1.0, 4.22}) {
    for (double eps : {0.0, 0.5, 2.0}) {
      CHECK(
          close(two_gaussian_delta({0, s}, {1, s}, eps), gaussian_mechanism_delta(s, eps), 1e-12));
    }
    CHECK(close(two_gaussian_epsilon({0, s}, {1, s}, 1e-5), gaussian_mechanism_epsilon(s, 1e-5),
                1e-9));
  }
  // Scaling both by c leaves eps unchanged (Andrew et al. 2024, Sec. 3.1): N(0, 1e-6) vs
  // N(1e-3/4.22, 1e-6).
  const double s = 1e-3, mu = 1e-3 / 4.224678889326838;
  CHECK(close(two_gaussian_epsilon({0, s}, {mu, s}, 1e-6), 1.0, 1e-9));
}

TEST_CASE("symmetry in the two distributions") {
  const Gaussian p{0, 1}, q{1, 2};
  for (double eps : {0.0, 0.5, 3.0, 10.0})
    CHECK(two_gaussian_delta(p, q, eps) ==
          doctest::Approx(two_gaussian_delta(q, p, eps)).epsilon(1e-15));
  CHECK(two_gaussian_epsilon(p, q, 1e-5) == two_gaussian_epsilon(q, p, 1e-5));
}

TEST_CASE("unequal variances match quadrature of the hockey-stick divergence") {
  // [golden] delta(eps) for (mu1, s1, mu2, s2, eps)
  CHECK(close(two_gaussian_delta({0, 1}, {1, 2}, 0.5), 0.32378654414300757, 1e-12));
  CHECK(close(two_gaussian_delta({0, 1}, {1, 2}, 3.0), 0.141260620815425, 1e-12));
  CHECK(close(two_gaussian_delta({0.2, 0.05}, {0.0, 0.1}, 1.0), 0.78047531024804695, 1e-12));
  CHECK(close(two_gaussian_delta({0, 1}, {0, 1.5}, 0.2), 0.15418767554751434, 1e-12));
  // [golden] eps(delta): the heavier tail of the wider Gaussian dominates
  CHECK(close(two_gaussian_epsilon({0, 1}, {1, 2}, 1e-5), 34.75037597641217, 1e-10));
  CHECK(close(two_gaussian_epsilon({0.2, 0.05}, {0.0, 0.1}, 1e-6), 78.32291381112083, 1e-10));
}

TEST_CASE("the returned eps meets delta and is the smallest such (1e-10 relative)") {
  const Gaussian p{0.02, 0.011}, q{0, 0.01};
  const double delta = 1e-6;
  const double eps = two_gaussian_epsilon(p, q, delta);
  CHECK(two_gaussian_delta(p, q, eps) <= delta);
  CHECK(two_gaussian_delta(p, q, eps * (1 - 1e-9)) > delta);
}

TEST_CASE("far tails stay finite in log space") {
  // delta far below the smallest double: separated Gaussians at large eps
  const double log_delta = two_gaussian_log_delta({0, 1}, {1, 1}, 800);
  CHECK(std::isfinite(log_delta));
  CHECK(log_delta < -700);
  // log delta(eps) of the mechanism with sigma 1 at eps 800 is log Phi(0.5 - 800) - ...;
  // the first term dominates: log Phi(-799.5) = -319604.19... checked against log_normal_cdf.
  CHECK(close(log_delta,
              log_normal_cdf(-799.5) +
                  std::log1p(-std::exp(800 + log_normal_cdf(-800.5) - log_normal_cdf(-799.5))),
              1e-12));
  // a huge eps is still finite: N(0, 1e-3) vs N(1, 1e-3) needs eps ~ 1/(2 s^2) scale
  const double eps = two_gaussian_epsilon({0, 1e-3}, {1, 1e-3}, 1e-6);
  CHECK(std::isfinite(eps));
  CHECK(close(eps, gaussian_mechanism_epsilon(1e-3, 1e-6), 1e-9));
}

TEST_CASE("extreme scales: affine invariance and separable pairs") {
  // eps is invariant under x -> (x - m)/s: the same pair at scale 1e-300 and 1e300
  const double want = two_gaussian_epsilon({0, 1}, {1, 2}, 1e-5);
  CHECK(close(two_gaussian_epsilon({0, 1e-300}, {1e-300, 2e-300}, 1e-5), want, 1e-10));
  CHECK(close(two_gaussian_epsilon({5e299, 1e299}, {6e299, 2e299}, 1e-5), want, 1e-10));
  // 1e300 standard deviations apart: separable
  CHECK(two_gaussian_epsilon({0, 1e-300}, {1, 1e-300}, 1e-6) ==
        std::numeric_limits<double>::infinity());
  CHECK(two_gaussian_delta({0, 1e-300}, {1, 1e-300}, 5) == 1);
  // N(0,1) against N(0, 1e-400): the wide one has its mass where the narrow one has
  // density ~0 up to |x| ~ 1e200, so eps ~ (1e200 z)^2 / 2: beyond doubles, inf
  CHECK(two_gaussian_epsilon({0, 1e-200}, {0, 1}, 1e-6) == std::numeric_limits<double>::infinity());
  // ratio 1000: eps is about (1000 z_delta)^2 / 2, large but finite, and meets delta
  const double eps = two_gaussian_epsilon({0, 1e-3}, {0, 1}, 1e-6);
  CHECK(eps > 1e7);
  CHECK(eps < 2e7);
  CHECK(two_gaussian_delta({0, 1e-3}, {0, 1}, eps) <= 1e-6 * (1 + 1e-12));
  CHECK(two_gaussian_delta({0, 1e-3}, {0, 1}, eps * (1 - 1e-9)) > 1e-6);
}

TEST_CASE("invalid arguments throw, never NaN") {
  CHECK_THROWS_AS(two_gaussian_delta({0, 0}, {1, 1}, 1), UsageError);
  CHECK_THROWS_AS(two_gaussian_delta({0, -1}, {1, 1}, 1), UsageError);
  CHECK_THROWS_AS(two_gaussian_delta({std::nan(""), 1}, {1, 1}, 1), UsageError);
  CHECK_THROWS_AS(two_gaussian_delta({0, 1}, {1, 1}, -1), UsageError);
  CHECK_THROWS_AS(two_gaussian_epsilon({0, 1}, {1, 1}, 0), UsageError);
  CHECK_THROWS_AS(two_gaussian_epsilon({0, 1}, {1, 1}, 1), UsageError);
  CHECK_THROWS_AS(two_gaussian_epsilon({0, 1}, {1, std::numeric_limits<double>::infinity()}, 0.1),
                  UsageError);
}
