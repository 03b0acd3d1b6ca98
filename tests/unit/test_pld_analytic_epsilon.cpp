// The accountants side by side, and the headline: the smallest sound upper bound.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "accounting/analytic_epsilon.hpp"
#include "core/error.hpp"
#include "relative_close.hpp"

using namespace dpaudit;

TEST_CASE("a Poisson-subsampled Gaussian run: PLD interval, RDP, and the PLD as the headline") {
  // issue 13: q = 128/60000, sigma 0.8, 469 steps, delta 1e-5. [golden] dp_accounting's PLD
  // (tests/golden/pld_dp_accounting.csv): [0.5183216114489269, 0.5417377482574032];
  // its RDP 1.374 (issue 13).
  const AnalyticEpsilon a = analytic_epsilon({{0.8, 128.0 / 60000, 469}}, 1e-5);
  REQUIRE(a.pld);
  CHECK(a.pld->upper >= 0.5183216114489269);
  CHECK(a.pld->lower <= 0.5417377482574032);
  CHECK(a.pld->upper - a.pld->lower < 1e-4 * a.pld->upper);
  CHECK(std::abs(a.rdp.epsilon - 1.374) < 1e-3);
  CHECK(a.headline == a.pld->upper);
  CHECK(a.headline_accountant == Accountant::pld);
}

TEST_CASE("without replacement: the PLD of replace-one neighbours, below RDP's Thm 27") {
  // issue 13's run, dp_accounting's RDP 0.0478 at its noise multiplier 8.816 over the
  // replace-one sensitivity: the event at 2 x 8.816 over the clip norm
  const AnalyticEpsilon wor =
      analytic_epsilon({{2 * 8.816, 0.01279, 8, Sampling::without_replacement}}, 8.04e-8);
  REQUIRE(wor.pld);
  CHECK(wor.pld->upper < wor.rdp.epsilon);
  CHECK(wor.rdp.epsilon < 0.0478);  // all default orders, up to 1024
  CHECK(wor.headline == wor.pld->upper);
  CHECK(wor.headline_accountant == Accountant::pld);
}

TEST_CASE("no PLD: RDP is the headline, and the note says why") {
  // losses of 1e200 have no lattice: RDP's bound 10 (1e200 + 2 log 0.5) + ... at order 1.1
  const AnalyticEpsilon tiny = analytic_epsilon({{1e-100, 0.5, 10}}, 1e-5);
  CHECK_FALSE(tiny.pld);
  CHECK(tiny.pld_note.find("no PLD") != std::string::npos);
  CHECK(close(tiny.headline, 5.5e200, 1e-12));
}

TEST_CASE("invalid runs are usage errors, as for RDP") {
  CHECK_THROWS_AS(analytic_epsilon({{0, 0.1, 10}}, 1e-5), UsageError);
  CHECK_THROWS_AS(analytic_epsilon({{1, 0.1, 10}}, 0), UsageError);
  CHECK_THROWS_AS(analytic_epsilon({}, 1e-5), UsageError);
}
