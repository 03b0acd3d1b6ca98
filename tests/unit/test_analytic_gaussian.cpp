// Golden numbers marked [golden] come from tests/golden/accounting.py (scipy 1.10.1
// brentq on Balle & Wang's delta; mpmath 1.2.1 at 50 digits).
#include <doctest/doctest.h>

#include <cmath>

#include "accounting/analytic_gaussian.hpp"
#include "core/error.hpp"
#include "relative_close.hpp"

using namespace dpaudit;

TEST_CASE("Andrew et al. 2024, Table 2: sigma 4.22, 1.54, 0.541 for eps 1, 3, 10 at delta 1e-6") {
  // published to three significant digits
  CHECK(std::round(gaussian_mechanism_sigma(1, 1e-6) * 100) / 100 == 4.22);
  CHECK(std::round(gaussian_mechanism_sigma(3, 1e-6) * 100) / 100 == 1.54);
  CHECK(std::round(gaussian_mechanism_sigma(10, 1e-6) * 1000) / 1000 == 0.541);
  // [golden] to 1e-10 relative
  CHECK(close(gaussian_mechanism_sigma(1, 1e-6), 4.224678889326838, 1e-10));
  CHECK(close(gaussian_mechanism_sigma(3, 1e-6), 1.5438614177756411, 1e-10));
  CHECK(close(gaussian_mechanism_sigma(10, 1e-6), 0.5410868318183661, 1e-10));
}

TEST_CASE("delta(eps): Balle & Wang closed form") {
  // [golden] mpmath: ncdf(1/(2s) - eps s) - e^eps ncdf(-1/(2s) - eps s)
  CHECK(close(gaussian_mechanism_delta(1, 1), 0.12693673750664395, 1e-13));
  CHECK(close(gaussian_mechanism_delta(0.1, 40), 0.81477943776008163, 1e-13));
  CHECK(close(gaussian_mechanism_delta(4.224678889326836, 1), 9.9999999999999599e-7, 1e-9));
  // eps = 0: delta is the total variation 2 Phi(1/(2 sigma)) - 1; Phi(0.5) = 0.6914624612740131
  CHECK(close(gaussian_mechanism_delta(1, 0), 2 * 0.6914624612740131 - 1, 1e-13));
}

TEST_CASE("eps and sigma invert delta") {
  for (double sigma : {0.2, 0.541, 1.0, 4.22, 30.0}) {
    const double eps = gaussian_mechanism_epsilon(sigma, 1e-6);
    CHECK(close(gaussian_mechanism_delta(sigma, eps), 1e-6, 1e-8));
    CHECK(close(gaussian_mechanism_sigma(eps, 1e-6), sigma, 1e-9));
  }
  // Table 2 round trip: sigma 4.224678889326838 gives eps 1
  CHECK(close(gaussian_mechanism_epsilon(4.224678889326838, 1e-6), 1.0, 1e-9));
  // large sigma: delta(0) is already below the target
  CHECK(gaussian_mechanism_epsilon(1e7, 1e-6) == 0);
}

TEST_CASE("invalid arguments") {
  CHECK_THROWS_AS(gaussian_mechanism_delta(0, 1), UsageError);
  CHECK_THROWS_AS(gaussian_mechanism_delta(1, -0.5), UsageError);
  CHECK_THROWS_AS(gaussian_mechanism_epsilon(-1, 1e-5), UsageError);
  CHECK_THROWS_AS(gaussian_mechanism_epsilon(1, 1.5), UsageError);
  CHECK_THROWS_AS(gaussian_mechanism_sigma(1, 0), UsageError);
  // eps 0 at delta 1e-17 needs sigma ~4e16, where Phi(1/(2 sigma)) - Phi(-1/(2 sigma)) rounds to 0:
  // refused as beyond double precision (it was a NaN inside the solver).
  CHECK_THROWS_AS(gaussian_mechanism_sigma(0, 1e-17), DataError);
  CHECK_THROWS_AS(gaussian_mechanism_sigma(std::nan(""), 1e-5), UsageError);
}

TEST_CASE(
    "k Gaussian releases compose to one at sigma / sqrt(k) (Dong, Roth & Su 2019, Cor. 3.3)") {
  // Four releases at 2 x 0.541 are one at 0.541: eps 10 at delta 1e-6 (Andrew et al. 2024, Table 2,
  // 2% as 0.541 is rounded there); nothing released, nothing spent.
  CHECK(gaussian_composition_epsilon(1.082, 4, 1e-6) == gaussian_mechanism_epsilon(0.541, 1e-6));
  CHECK(gaussian_composition_epsilon(1.082, 4, 1e-6) == doctest::Approx(10).epsilon(0.02));
  CHECK(gaussian_composition_epsilon(1.082, 0, 1e-6) == 0);
}
