#include <doctest/doctest.h>

#include <cmath>

#include "core/error.hpp"
#include "stats/epsilon_from_rates.hpp"

using namespace dpaudit;

TEST_CASE(
    "Matsumoto et al. 2022, Sec. 3's example: FP 0.1, FN 0.2 gives eps = log 8 (Matsumoto et al. "
    "write ~2.0)") {
  // max(log(0.9/0.2), log(0.8/0.1)) = log 8 = 2.0794...
  CHECK(epsilon_from_rates(0.1, 0.2, 0) == doctest::Approx(std::log(8.0)));
}

TEST_CASE("delta is subtracted in both numerators (Andrew et al. 2024, Eq. 1)") {
  // max(log((1-0.05-0.1)/0.2), log((1-0.05-0.2)/0.1)) = log 7.5
  CHECK(epsilon_from_rates(0.1, 0.2, 0.05) == doctest::Approx(std::log(7.5)));
}

TEST_CASE("one-sided keeps only log((1 - delta - FNR) / FPR)") {
  // Both: max(log(0.8/0.1), log(0.9/0.2)) = log 8; one-sided: log(0.9/0.2) = log 4.5.
  CHECK(epsilon_from_rates(0.2, 0.1, 0) == doctest::Approx(std::log(8.0)));
  CHECK(epsilon_from_rates(0.2, 0.1, 0, Sides::tpr_over_fpr) == doctest::Approx(std::log(4.5)));
}

TEST_CASE("a zero rate with a positive numerator is inf; no information is 0, never NaN or -0") {
  CHECK(epsilon_from_rates(0, 0, 0) == INFINITY);
  CHECK(epsilon_from_rates(0, 0.5, 1e-5) == INFINITY);
  CHECK(epsilon_from_rates(0.5, 0, 0, Sides::tpr_over_fpr) == doctest::Approx(std::log(2.0)));
  // Random guessing, FPR + FNR = 1: both terms are <= 0.
  const double guess = epsilon_from_rates(0.25, 0.75, 0);
  CHECK(guess == 0.0);
  CHECK(!std::signbit(guess));
  // Numerators 1 - delta - rate <= 0: the rule says nothing.
  CHECK(epsilon_from_rates(1, 0, 0) == 0.0);
  CHECK(epsilon_from_rates(0.5, 0.5, 0.6) == 0.0);
}

TEST_CASE("log rates keep the meaning of a rate that underflows") {
  // FPR = e^-800 (0 as a double), FNR = 1/2: log((1 - 1/2) / e^-800) = 800 - log 2.
  CHECK(epsilon_from_log_rates(-800, std::log(0.5), 0) == doctest::Approx(800 - std::log(2.0)));
}

TEST_CASE("bad delta or rates are usage errors") {
  CHECK_THROWS_AS(epsilon_from_rates(0.1, 0.1, 1.0), UsageError);
  CHECK_THROWS_AS(epsilon_from_rates(0.1, 0.1, -0.1), UsageError);
  CHECK_THROWS_AS(epsilon_from_rates(1.5, 0.1, 0), UsageError);
  CHECK_THROWS_AS(epsilon_from_rates(NAN, 0.1, 0), UsageError);
  CHECK_THROWS_AS(epsilon_from_log_rates(0.1, -1, 0), UsageError);
}
