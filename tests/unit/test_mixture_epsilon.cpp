// The eps of a run of mixture events (lib/accounting/mixture_epsilon.hpp): the PLD's upper end,
// and its sound fallbacks where the PLD is out of double's reach.
#include <doctest/doctest.h>

#include <string>

#include "accounting/mixture_epsilon.hpp"
#include "accounting/rdp.hpp"
#include "core/error.hpp"
#include "core/infinity.hpp"

using namespace dpaudit;

TEST_CASE("mixture_epsilon: the PLD's upper end, its roundoff held to 1e-4 of delta") {
  const std::vector<AccountingEvent> run{{1.708, 0.03293, 49, Sampling::poisson, 4}};
  const MixtureEpsilon m = mixture_epsilon(run, 1e-5);
  REQUIRE(m.pld);
  CHECK(m.note.empty());
  CHECK(m.epsilon == m.pld->upper);
  PldOptions o;
  o.roundoff_delta = 1e-9;
  CHECK(m.epsilon == PldAccountant(run, o).epsilon(1e-5).upper);
  // [golden] tests/golden/mog_dp_accounting.csv, dp_accounting's interval for this run
  CHECK(m.pld->lower <= 2.927009214508527);
  CHECK(m.pld->upper >= 2.887698831963715);
  // the fallback's dominating Gaussian mechanism (sensitivity 4 every step) is above it
  CHECK(rdp_epsilon({{1.708 / 4, 1, 49}}, 1e-5).epsilon > m.epsilon);
}

TEST_CASE("mixture_epsilon: beyond double's reach, a sound bound and a note") {
  // noise 1e-300: no lattice; RDP of the Gaussian mechanism at sensitivity 3: inf
  const MixtureEpsilon tiny = mixture_epsilon({{1e-300, 0.5, 3, Sampling::poisson, 3}}, 1e-5);
  CHECK(!tiny.pld);
  CHECK(tiny.epsilon == kInf);
  CHECK(tiny.note.find("the bound is RDP's for the Gaussian mechanism at sensitivity micro") !=
        std::string::npos);
  // noise 1e300: the loss is 0 in double; RDP's bound is 0
  const MixtureEpsilon huge = mixture_epsilon({{1e300, 0.5, 3, Sampling::poisson, 3}}, 1e-5);
  CHECK(!huge.pld);
  CHECK(huge.epsilon == 0);
  // q 5e-324: the record is drawn with probability 9 q, below delta: 0
  const MixtureEpsilon rare = mixture_epsilon({{1, 5e-324, 3, Sampling::poisson, 3}}, 1e-5);
  CHECK(rare.epsilon == 0);
  CHECK(rare.note.find("eps 0: the record is drawn in some step with probability at most delta") !=
        std::string::npos);
  CHECK_THROWS_AS(mixture_epsilon({{1, 0.5, 3, Sampling::poisson, 3}}, 0), UsageError);
}
