#include <doctest/doctest.h>

#include <cmath>

#include "core/error.hpp"
#include "mechanisms/adaptive_clip.hpp"

using namespace dpaudit;

TEST_CASE("geometric clip update without count noise (Andrew et al. 2021)") {
  PhiloxStream noise(1, 0);
  AdaptiveClip c(1.0, 0.5, 0.2, 0.0);
  c.update({0.1, 0.2, 0.3, 0.4}, noise);  // all below: b_bar = 1, C = exp(-0.2 * 0.5)
  CHECK(c.clip() == doctest::Approx(std::exp(-0.1)));
  c.update({5, 6, 7, 8}, noise);  // none below: b_bar = 0, C *= exp(0.2 * 0.5)
  CHECK(c.clip() == doctest::Approx(1.0));
  c.update({0.5, 2, 0.5, 2}, noise);  // half below at the target: unchanged
  CHECK(c.clip() == doctest::Approx(1.0));
  c.update({}, noise);  // no participants: unchanged
  CHECK(c.clip() == 1.0);
}

TEST_CASE("count noise enters as N(0, sigma_b^2) / m") {
  PhiloxStream noise(3, 7), same(3, 7);
  AdaptiveClip c(2.0, 0.5, 0.2, 4.0);
  c.update({1, 1, 3, 3}, noise);  // 2 below
  const double b_bar = (2 + 4.0 * same.normal()) / 4;
  CHECK(c.clip() == doctest::Approx(2.0 * std::exp(-0.2 * (b_bar - 0.5))));
}

TEST_CASE("noise multiplier of the updates (Andrew et al. 2021, Thm 1)") {
  // z = 1, sigma_b = 1: (1 - 1/4)^(-1/2) = 2/sqrt(3)
  CHECK(adaptive_update_noise_multiplier(1.0, 1.0) == doctest::Approx(2.0 / std::sqrt(3.0)));
  // sigma_b -> inf: the count costs nothing
  CHECK(adaptive_update_noise_multiplier(0.5, 1e9) == doctest::Approx(0.5));
  CHECK(adaptive_update_noise_multiplier(0.0, 1.0) == 0.0);
  CHECK_THROWS_AS(adaptive_update_noise_multiplier(2.0, 1.0), UsageError);
  CHECK_THROWS_AS(AdaptiveClip(0.0, 0.5, 0.2, 1), UsageError);
  CHECK_THROWS_AS(AdaptiveClip(1.0, 1.5, 0.2, 1), UsageError);
}
