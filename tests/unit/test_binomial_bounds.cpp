#include <doctest/doctest.h>

#include <cmath>

#include "core/error.hpp"
#include "stats/binomial_bounds.hpp"

using namespace dpaudit;

// Golden quantiles: scipy.stats.beta.ppf(1 - alpha, a, b), computed with
// /usr/bin/python3, scipy 1.10.1.

TEST_CASE("Clopper-Pearson upper bound: Beta(k+1, n-k) quantile, closed forms at k = 0 and k = n") {
  CHECK(clopper_pearson_upper(5, 20, 0.05) ==
        doctest::Approx(0.4555824040017489).epsilon(1e-12));  // ppf(.95, 6, 15)
  CHECK(clopper_pearson_upper(3, 10, 0.05) ==
        doctest::Approx(0.6066242161054123).epsilon(1e-12));  // ppf(.95, 4, 7)
  CHECK(clopper_pearson_upper(10, 100, 0.025) ==
        doctest::Approx(0.17622259774002266).epsilon(1e-12));  // ppf(.975, 11, 90)
  // k = 0: P(0 errors | p) = (1-p)^n = alpha, so p = 1 - alpha^(1/n).
  CHECK(clopper_pearson_upper(0, 1000, 0.025) ==
        doctest::Approx(1 - std::pow(0.025, 1e-3)).epsilon(1e-14));
  CHECK(clopper_pearson_upper(0, 1, 0.05) == doctest::Approx(0.95).epsilon(1e-15));
  CHECK(clopper_pearson_upper(7, 7, 0.05) == 1.0);
}

TEST_CASE(
    "Jeffreys upper bound: Beta(k+1/2, n-k+1/2) quantile, 1 at k = n, tighter than "
    "Clopper-Pearson") {
  CHECK(jeffreys_upper(0, 10, 0.05) ==
        doctest::Approx(0.1707731082448478).epsilon(1e-12));  // ppf(.95, .5, 10.5)
  CHECK(jeffreys_upper(5, 20, 0.05) ==
        doctest::Approx(0.4286198580969039).epsilon(1e-12));  // ppf(.95, 5.5, 15.5)
  CHECK(jeffreys_upper(10, 100, 0.025) ==
        doctest::Approx(0.170123929652187).epsilon(1e-12));  // ppf(.975, 10.5, 90.5)
  CHECK(jeffreys_upper(4, 4, 0.05) == 1.0);
  for (std::size_t k = 0; k < 20; ++k)
    CHECK(jeffreys_upper(k, 20, 0.05) < clopper_pearson_upper(k, 20, 0.05));
}

TEST_CASE("log_rate_upper: the log of the point rate or of the bound") {
  CHECK(log_rate_upper(RateBound::point, 3, 12, 0.05) == doctest::Approx(std::log(0.25)));
  CHECK(log_rate_upper(RateBound::point, 0, 12, 0.05) == -INFINITY);
  CHECK(log_rate_upper(RateBound::clopper_pearson, 5, 20, 0.05) ==
        doctest::Approx(std::log(0.4555824040017489)));
  CHECK(log_rate_upper(RateBound::jeffreys, 5, 20, 0.05) ==
        doctest::Approx(std::log(0.4286198580969039)));
  // A tiny bound keeps its digits: 1 - (1e-3)^(1/1e9) = 6.907755e-9 (log 1e-3 = -6.907755...).
  CHECK(log_rate_upper(RateBound::clopper_pearson, 0, 1000000000, 1e-3) ==
        doctest::Approx(std::log(6.907755278982137e-9 * (1 - 6.907755278982137e-9 / 2)))
            .epsilon(1e-12));
}

TEST_CASE("binomial bounds reject alpha outside (0,1), n = 0 and k > n") {
  CHECK_THROWS_AS(clopper_pearson_upper(1, 10, 0.0), UsageError);
  CHECK_THROWS_AS(clopper_pearson_upper(1, 10, 1.0), UsageError);
  CHECK_THROWS_AS(jeffreys_upper(1, 10, NAN), UsageError);
  CHECK_THROWS_AS(clopper_pearson_upper(0, 0, 0.05), UsageError);
  CHECK_THROWS_AS(jeffreys_upper(11, 10, 0.05), UsageError);
  CHECK_THROWS_AS(log_rate_upper(RateBound::point, 0, 0, 0.05), UsageError);
}
