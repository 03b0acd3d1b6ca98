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
  CHECK(r.label() == "pld-poisson");
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
  CHECK(r.label() == "pld-without-replacement");
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
  CHECK(r.label() == "rdp-poisson");
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
  CHECK(exact.label() == "gdp-poisson");
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
  CHECK(r.label() == "gaussian-epochs");
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
  CHECK(split.label() == "pld-poisson");
  const std::vector<AccountingEvent> mixed{{1, 0.1, 10},
                                           {2, 0.1, 10, Sampling::without_replacement}};
  const RunEpsilon m = run_epsilon(mixed, 1e-5, by(Accountant::rdp));
  CHECK(m.label() == "rdp-mixed");
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
  // at q = 100/3000 for 300 rounds, eps 50 at delta 1e-5. canife calibrated on RDP before it
  // took the run accountant's PLD default; the PLD, tighter and sound, allows less noise, at
  // which RDP's eps of the run, which canife's run.json reports as eps_rdp_run, is above the
  // target. [golden]
  // tests/golden/run_accountant.py, independent of this code: RDP's sigma for eps 50 is
  // 0.3846380259772383 (quadrature at the default orders); at the PLD's sigma here
  // (0.3687850432099635, 0.959 of RDP's) RDP's eps is 56.50003542616021 and the true eps lies
  // in [49.870, 50.176] (an FFT PLD on a 1e-3 lattice rounded both ways).
  const RunModel m = sampled(0, 100.0 / 3000, 300);
  const double rdp = run_noise_multiplier(m, 50, 1e-5, by(Accountant::rdp));
  const double pld = run_noise_multiplier(m, 50, 1e-5);
  CHECK(close(rdp, 0.3846380259772383, 1e-7));
  CHECK(pld < 0.97 * rdp);
  const RunEpsilon at_pld = run_epsilon(sampled(pld, 100.0 / 3000, 300), 1e-5);
  REQUIRE(at_pld.pld);
  CHECK(at_pld.epsilon <= 50);
  CHECK(at_pld.pld->upper >= 49.870);  // an upper bound of the true eps
  CHECK(at_pld.pld->lower <= 50.176);  // a lower bound of it
  const double rdp_at_pld =
      run_epsilon(sampled(pld, 100.0 / 3000, 300), 1e-5, by(Accountant::rdp)).epsilon;
  CHECK(rdp_at_pld > 55);
  CHECK(close(rdp_at_pld, 56.50003542616021, 1e-4));  // at the C++ PLD's sigma, 1e-5 of it
}

TEST_CASE("a federated run: every member's eps, the larger of the clients' and the canaries'") {
  // Shuffled: 4 known participations at z = 2, the Gaussian mechanism at sigma 1: eps 1 at
  // the delta of [golden] test_analytic_gaussian.cpp (above); one round is sigma 2.
  const double delta = 0.12693673750664395;
  FederatedModel shuffled_run;
  shuffled_run.clients = shuffled(2, 4);
  shuffled_run.max_participations = 4;
  const FederatedEpsilon s = federated_epsilon(shuffled_run, delta);
  CHECK(close(s.eps_run, 1.0, 1e-9));
  CHECK(close(s.eps_per_round, gaussian_mechanism_epsilon(2, delta), 1e-12));
  CHECK_FALSE(s.canaries);
  CHECK(s.assumes ==
        "every client and seen canary takes part in at most max_participations rounds, each "
        "known to the adversary: the Gaussian mechanism at noise multiplier / "
        "sqrt(max_participations); no amplification by shuffling");
  // Poisson: the clients of the dp_accounting golden above (eps in [0.518, 0.542] at 1e-5)
  FederatedModel poisson_run;
  poisson_run.clients = sampled(0.8, 128.0 / 60000, 469);
  const FederatedEpsilon p = federated_epsilon(poisson_run, 1e-5);
  REQUIRE(p.clients.pld);
  CHECK(p.eps_run == p.clients.pld->upper);
  CHECK(p.eps_run <= 0.5417377482574032 * (1 + 1e-4));
  CHECK(p.assumes.rfind("every client and seen canary Poisson-sampled at rate q", 0) == 0);
  // ... and seen canaries in 2 known rounds at 0.8: the Gaussian mechanism at 0.8 / sqrt(2),
  // far above the clients' eps, is the run's.
  poisson_run.canaries = shuffled(0.8, 2);
  const FederatedEpsilon c = federated_epsilon(poisson_run, 1e-5);
  REQUIRE(c.canaries);
  CHECK(close(c.canaries->epsilon, gaussian_mechanism_epsilon(0.8 / std::sqrt(2.0), 1e-5), 1e-9));
  CHECK(c.eps_run == c.canaries->epsilon);
  CHECK(c.eps_run > 10 * c.clients.epsilon);
  CHECK(c.assumes.find("eps_run is the larger") != std::string::npos);
  // Without replacement is no federated participation.
  poisson_run.clients.sampling = Sampling::without_replacement;
  CHECK_THROWS_AS(federated_epsilon(poisson_run, 1e-5), UsageError);
}

TEST_CASE("calibration checks its target first") {
  const RunModel m = sampled(0, 0.01, 1000);
  for (double eps : {0.0, -1.0, std::nan("")}) {
    CAPTURE(eps);
    CHECK_THROWS_WITH_AS(run_noise_multiplier(m, eps, 1e-5),
                         doctest::Contains("the target epsilon must be > 0"), UsageError);
  }
  for (double delta : {0.0, 1.0, -1.0, std::nan("")}) {
    CAPTURE(delta);
    CHECK_THROWS_WITH_AS(run_noise_multiplier(m, 1, delta), doctest::Contains("delta must be in"),
                         UsageError);
  }
  // eps inf: no noise needed (a run at noise 0 has eps inf)
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(run_noise_multiplier(m, inf, 1e-5) == 0);
  CHECK(run_noise_multiplier(shuffled(0, 3), inf, 1e-5) == 0);
  CHECK(run_epsilon(sampled(0, 0.01, 1000), 1e-5).epsilon == inf);
}

TEST_CASE("the last-iterate heuristic of a run") {
  // Poisson: the dp_accounting value (MixtureOfGaussians, delta 1e-5): q 0.01, z 1.1,
  // T 10,000 gives 4.001 (all iterates 5.19); tests/golden/mog* hold the others.
  RunModel p;
  p.noise_multiplier = 1.1;
  p.q = 0.01;
  p.steps = 10000;
  const LastIterate poisson = last_iterate_heuristic(p, 1e-5);
  CHECK(poisson.epsilon == doctest::Approx(4.001).epsilon(3e-4));
  CHECK(poisson.assumes.find("not a bound") != std::string::npos);
  // By epochs: k participations of T steps, the Gaussian mechanism at mu = k / (z sqrt(T));
  // [golden] scipy brentq on Balle & Wang's delta(eps) (Phi(-eps/mu + mu/2) - e^eps
  // Phi(-eps/mu - mu/2)): z 0.5, T 40, k 1 at delta 3000^-1.1 (the demo): 0.9718441055509599;
  // z 0.8, T 100, k 2 at 1e-5: 0.9263415039982273.
  RunModel s;
  s.sampling = Sampling::shuffle;
  s.noise_multiplier = 0.5;
  s.steps = 40;
  s.participations = 1;
  CHECK(last_iterate_heuristic(s, std::pow(3000.0, -1.1)).epsilon ==
        doctest::Approx(0.9718441055509599).epsilon(1e-9));
  s.sampling = Sampling::balls_in_bins;
  s.noise_multiplier = 0.8;
  s.steps = 100;
  s.participations = 2;
  CHECK(last_iterate_heuristic(s, 1e-5).epsilon ==
        doctest::Approx(0.9263415039982273).epsilon(1e-9));
  s.participations = 0;
  CHECK(last_iterate_heuristic(s, 1e-5).epsilon == 0);
  s.participations = 1;
  s.noise_multiplier = 0;
  CHECK(std::isinf(last_iterate_heuristic(s, 1e-5).epsilon));
  p.sampling = Sampling::without_replacement;
  CHECK_THROWS_AS(last_iterate_heuristic(p, 1e-5), UsageError);
}
