// The run accountant: a participation model and delta to the headline eps, the accountant
// that gave it, what it assumes, the PLD interval and RDP; and its calibration.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "accounting/analytic_gaussian.hpp"
#include "accounting/run_accountant.hpp"
#include "core/error.hpp"
#include "relative_close.hpp"

using namespace dpaudit;

namespace {

RunModel sampled(double z, double q, long long steps, Sampling sampling = Sampling::poisson) {
  RunModel m;
  m.sampling = sampling;
  m.noise_multiplier = z;
  m.q = q;
  m.steps = steps;
  return m;
}

RunModel shuffled(double z, long long participations) {
  RunModel m;
  m.sampling = Sampling::shuffle;
  m.noise_multiplier = z;
  m.participations = participations;
  return m;
}

AccountantOptions by(Accountant a) {
  AccountantOptions o;
  o.accountant = a;
  return o;
}

}  // namespace

TEST_CASE("the tightest sound accountant of each sampling") {
  CHECK(tightest_accountant(Sampling::poisson) == Accountant::pld);
  CHECK(tightest_accountant(Sampling::without_replacement) == Accountant::pld);
  CHECK(tightest_accountant(Sampling::shuffle) == Accountant::gaussian);
  CHECK(accountant_name(Accountant::gaussian) == "gaussian");
  CHECK(find_accountant("rdp") == Accountant::rdp);
  CHECK_FALSE(find_accountant("prv"));
}

TEST_CASE("Poisson: the PLD interval, RDP beside it, the PLD's upper end as the headline") {
  // [golden] tests/golden/pld_dp_accounting.csv row 2 (Google dp_accounting's PLD at 1e-4):
  // sigma 0.8, q 128/60000, 469 steps, delta 1e-5 lies in [0.5183216114489269,
  // 0.5417377482574032]; its RDP 1.374 (issue 13).
  const RunEpsilon r = run_epsilon(sampled(0.8, 128.0 / 60000, 469), 1e-5);
  REQUIRE(r.pld);
  REQUIRE(r.rdp);
  CHECK(r.pld->upper >= 0.5183216114489269);
  CHECK(r.pld->lower <= 0.5417377482574032);
  // Both ends within 1e-4 of dp_accounting's upper end (our lattice is finer than its 1e-4).
  CHECK(r.pld->lower >= 0.5417377482574032 * (1 - 1e-4));
  CHECK(r.pld->upper <= 0.5417377482574032 * (1 + 1e-4));
  CHECK(std::abs(r.rdp->epsilon - 1.374) < 1e-3);
  CHECK(r.epsilon == r.pld->upper);
  CHECK(r.accountant == Accountant::pld);
  CHECK(r.label == "pld-poisson");
  CHECK(r.assumes ==
        "Poisson lots at rate q, add/remove-one adjacency (the worse), every step's update "
        "released");
  CHECK_FALSE(r.gdp);
}

TEST_CASE("without replacement: the replace-one PLD, below RDP's Thm 27") {
  // [golden] issue 13: dp_accounting's RDP (orders up to 256) 0.0478 at its noise multiplier
  // 8.816 over the replace-one sensitivity, twice the clip norm: z = 17.632
  AccountantOptions o;
  o.orders = {128, 200, 256};
  const RunEpsilon r =
      run_epsilon(sampled(17.632, 0.01279, 8, Sampling::without_replacement), 8.04e-8, o);
  REQUIRE(r.rdp);
  CHECK(std::abs(r.rdp->epsilon - 0.0478) < 5e-5);
  REQUIRE(r.pld);
  CHECK(r.epsilon == r.pld->upper);
  CHECK(r.epsilon < r.rdp->epsilon);
  CHECK(r.label == "pld-without-replacement");
  CHECK(r.assumes.find("replace-one adjacency") != std::string::npos);
}

TEST_CASE("RDP alone: the Gaussian mechanism's closed form") {
  // q = 1, one step, order 2: RDP alpha/(2 sigma^2) = 1/4 at sigma 2, then Canonne, Kamath &
  // Steinke 2020, Prop. 12: eps = rdp + log(1/2) - (log delta + log 2)
  AccountantOptions o = by(Accountant::rdp);
  o.orders = {2};
  const RunEpsilon r = run_epsilon(sampled(2, 1, 1), 1e-5, o);
  CHECK(close(r.epsilon, 0.25 + std::log(0.5) - (std::log(1e-5) + std::log(2.0)), 1e-13));
  CHECK(r.accountant == Accountant::rdp);
  CHECK(r.label == "rdp-poisson");
  CHECK_FALSE(r.pld);
  REQUIRE(r.rdp);
  CHECK(r.rdp->order == 2);
}

TEST_CASE("GDP: exact at q = 1, and its CLT said to be an approximation") {
  // 100 full-batch steps at sigma 2: the Gaussian mechanism at 2 / sqrt(100) = 0.2 (Dong,
  // Roth & Su 2022, Cor. 3.3)
  const RunEpsilon exact = run_epsilon(sampled(2, 1, 100), 1e-6, by(Accountant::gdp));
  REQUIRE(exact.gdp);
  CHECK(exact.gdp->exact);
  CHECK(close(exact.epsilon, gaussian_mechanism_epsilon(0.2, 1e-6), 1e-9));
  CHECK(exact.label == "gdp-poisson");
  CHECK(exact.assumes.find("approximation") == std::string::npos);
  // [golden] test_gdp.cpp (mpmath): sigma 1.1, q 0.01, 1000 steps, delta 1e-5
  const RunEpsilon clt = run_epsilon(sampled(1.1, 0.01, 1000), 1e-5, by(Accountant::gdp));
  CHECK(close(clt.epsilon, 1.3774291008101913, 1e-9));
  CHECK(clt.assumes.find("an approximation, not a bound") != std::string::npos);
}

TEST_CASE("shuffled participation: the exact Gaussian composition") {
  // 4 known participations at z = 2 are the Gaussian mechanism at sigma 1. [golden]
  // test_analytic_gaussian.cpp (mpmath, Balle & Wang's closed form): at sigma 1 and eps 1,
  // delta = 0.12693673750664395
  const RunEpsilon r = run_epsilon(shuffled(2, 4), 0.12693673750664395);
  CHECK(close(r.epsilon, 1.0, 1e-9));
  CHECK(r.accountant == Accountant::gaussian);
  CHECK(r.label == "gaussian-epochs");
  CHECK(r.assumes ==
        "shuffled lots: one participation per epoch, 4 epochs composed exactly, no "
        "amplification by shuffling claimed");
  CHECK_FALSE(r.pld);
  CHECK_FALSE(r.rdp);
  CHECK(run_epsilon(shuffled(2, 0), 1e-5).epsilon == 0);  // nothing released
  // calibration: [golden] test_analytic_gaussian.cpp, sigma 4.224678889326838 for eps 1 at
  // delta 1e-6 (Andrew et al. 2024, Table 2's 4.22), times sqrt(9) for 9 participations
  CHECK(close(run_noise_multiplier(shuffled(0, 9), 1, 1e-6), 3 * 4.224678889326838, 1e-10));
  CHECK_THROWS_AS(run_noise_multiplier(shuffled(0, 0), 1, 1e-6), UsageError);
}

TEST_CASE("no noise: eps inf, for every sampling with a participation") {
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(run_epsilon(sampled(0, 0.01, 100), 1e-5).epsilon == inf);
  CHECK(run_epsilon(sampled(0, 0.01, 100), 1e-5, by(Accountant::rdp)).epsilon == inf);
  CHECK(run_epsilon(shuffled(0, 3), 1e-5).epsilon == inf);
}

TEST_CASE("calibration: the smallest noise multiplier each accountant allows") {
  // Poisson, q 0.01, 1000 steps, (1, 1e-5): the PLD's sigma meets eps 1 by its upper end,
  // and 1e-4 less does not (bisection to 1e-5 relative); RDP, looser, needs more noise
  const RunModel m = sampled(0, 0.01, 1000);
  const double pld = run_noise_multiplier(m, 1, 1e-5);
  CHECK(run_epsilon(sampled(pld, 0.01, 1000), 1e-5).pld->upper <= 1);
  CHECK(run_epsilon(sampled(pld * (1 - 1e-4), 0.01, 1000), 1e-5).pld->upper > 1);
  const double rdp = run_noise_multiplier(m, 1, 1e-5, by(Accountant::rdp));
  CHECK(run_epsilon(sampled(rdp, 0.01, 1000), 1e-5, by(Accountant::rdp)).epsilon <= 1);
  CHECK(run_epsilon(sampled(rdp * (1 - 1e-6), 0.01, 1000), 1e-5, by(Accountant::rdp)).epsilon > 1);
  CHECK(pld < rdp);
  // GDP, closed form (test_gdp.cpp): sigma = 1 / sqrt(log(1 + mu*^2 / (q^2 T))) with
  // mu* = 0.26805112321129422 for eps 1 at 1e-5
  CHECK(close(run_noise_multiplier(m, 1, 1e-5, by(Accountant::gdp)), 1.3589917308057999, 1e-8));
}

TEST_CASE("heterogeneous segments: equal segments compose as one longer segment") {
  const std::vector<AccountingEvent> two{{0.8, 128.0 / 60000, 200}, {0.8, 128.0 / 60000, 269}};
  const RunEpsilon split = run_epsilon(two, 1e-5);
  const RunEpsilon whole = run_epsilon(sampled(0.8, 128.0 / 60000, 469), 1e-5);
  CHECK(split.epsilon == whole.epsilon);
  CHECK(split.label == "pld-poisson");
  const std::vector<AccountingEvent> mixed{{1, 0.1, 10},
                                           {2, 0.1, 10, Sampling::without_replacement}};
  const RunEpsilon m = run_epsilon(mixed, 1e-5, by(Accountant::rdp));
  CHECK(m.label == "rdp-mixed");
  CHECK(m.assumes.find("; fixed-size lots") != std::string::npos);
  // the f-DP curve: RDP's and PLD's, none from GDP
  CHECK(run_tradeoff_curve(two, by(Accountant::rdp)).vertices.size() > 2);
  CHECK_THROWS_AS(run_tradeoff_curve(two, by(Accountant::gdp)), UsageError);
}

TEST_CASE("a model out of range, or an accountant its sampling has not, is a usage error") {
  CHECK_THROWS_AS(run_epsilon(sampled(-1, 0.1, 10), 1e-5), UsageError);
  CHECK_THROWS_AS(run_epsilon(sampled(NAN, 0.1, 10), 1e-5), UsageError);
  CHECK_THROWS_AS(run_epsilon(sampled(1, 0, 10), 1e-5), UsageError);
  CHECK_THROWS_AS(run_epsilon(sampled(1, 0.1, 0), 1e-5), UsageError);
  CHECK_THROWS_AS(run_epsilon(sampled(1, 0.1, 10), 1), UsageError);
  CHECK_THROWS_AS(run_epsilon(shuffled(1, -1), 1e-5), UsageError);
  CHECK_THROWS_AS(run_epsilon(shuffled(1, 3), 1e-5, by(Accountant::rdp)), UsageError);
  CHECK_THROWS_AS(run_epsilon(sampled(1, 0.1, 10), 1e-5, by(Accountant::gaussian)), UsageError);
  CHECK_THROWS_AS(run_epsilon(std::vector<AccountingEvent>{}, 1e-5), UsageError);
  CHECK_THROWS_AS(run_epsilon({{1, 0.1, 10, Sampling::shuffle}}, 1e-5), UsageError);
}

TEST_CASE("CANIFE's user-level example calibrated by PLD instead of RDP: less noise") {
  // dp-train canife --help (Maddock et al. 2023, Fig. 4's setting): clients Poisson-sampled
  // at q = 100/3000 for 300 rounds, eps 50 at delta 1e-5. canife calibrates on RDP today;
  // the PLD, tighter and sound, allows less noise (about 4% here), at which RDP's eps of
  // the run, which canife's run.json reports as eps_rdp_run, is above the target.
  const RunModel m = sampled(0, 100.0 / 3000, 300);
  const double rdp = run_noise_multiplier(m, 50, 1e-5, by(Accountant::rdp));
  const double pld = run_noise_multiplier(m, 50, 1e-5);
  CHECK(pld < 0.97 * rdp);
  CHECK(run_epsilon(sampled(pld, 100.0 / 3000, 300), 1e-5).epsilon <= 50);
  CHECK(run_epsilon(sampled(pld, 100.0 / 3000, 300), 1e-5, by(Accountant::rdp)).epsilon > 55);
}
