// CANIFE's attack score (Maddock et al. 2023 Sec. 3.2), on vectors whose projections are known
// in closed form.
#include <vector>

#include <doctest/doctest.h>

#include "adversaries/canife_score.hpp"

using namespace dpaudit;

TEST_CASE("canife score: projection on the unit direction, in units of the clip norm") {
  // <(3,4), (3,4)/5> / 2 = 25/5/2 = 2.5
  CHECK(canary_score({3, 4}, {3, 4}, 5, 2) == doctest::Approx(2.5).epsilon(1e-15));
  // Orthogonal: 0; opposite: -||sum|| / C.
  CHECK(canary_score({4, -3}, {3, 4}, 5, 1) == 0.0);
  CHECK(canary_score({-6, -8}, {3, 4}, 5, 1) == doctest::Approx(-10).epsilon(1e-15));
}
