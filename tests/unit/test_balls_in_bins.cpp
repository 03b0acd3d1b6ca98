// Balls-in-bins batches: the Monte Carlo accountant's bound and estimate against the exact
// eps of one batch an epoch (the Gaussian mechanism) and of two (mpmath, golden), the
// analytic tails against sampled frequencies, thread-independence, and the bound above the
// estimate and below the bound without amplification.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "accounting/analytic_gaussian.hpp"
#include "accounting/balls_in_bins.hpp"
#include "core/error.hpp"
#include "stats/balls_in_bins_bound.hpp"

using namespace dpaudit;

TEST_CASE("one batch an epoch: E Gaussian mechanisms") {
  // B = 1: the pair is N(1, s^2) against N(0, s^2), composed E times, whose exact eps is the
  // Gaussian mechanism's at s / sqrt(E) (Dong, Roth & Su 2019).
  struct Case {
    double s;
    long long epochs;
    double delta;
  };
  for (const Case c : {Case{1.0, 10, 1e-3}, Case{2.0, 1, 1e-3}, Case{0.8, 4, 1e-2}}) {
    BallsInBinsOptions o;
    o.samples = 100000;
    const BallsInBinsBound bound({c.s, 1, c.epochs}, o);
    const double exact = gaussian_composition_epsilon(c.s, static_cast<double>(c.epochs), c.delta);
    INFO("s " << c.s << " E " << c.epochs << ": upper " << bound.upper(c.delta) << " estimate "
              << bound.estimate(c.delta) << " exact " << exact);
    CHECK(bound.upper(c.delta) >= exact);
    CHECK(bound.upper(c.delta) <= exact * 1.1);
    CHECK(bound.estimate(c.delta) == doctest::Approx(exact).epsilon(0.03));
  }
}

TEST_CASE("two batches an epoch: the exact eps, by mpmath") {
  // [golden] tests/golden/balls_in_bins.py: eps(delta) of one epoch, B = 2, each direction, to
  // 1e-9; the accountant reports the larger (remove's here).
  struct Case {
    double s, delta, exact;
  };
  for (const Case c :
       {Case{1.0, 1e-2, 1.73727771}, Case{1.0, 1e-3, 2.495795046}, Case{0.7, 1e-3, 4.222731038}}) {
    BallsInBinsOptions o;
    o.samples = 200000;
    o.seed = 7;
    const BallsInBinsBound bound({c.s, 2, 1}, o);
    INFO("s " << c.s << " delta " << c.delta << ": upper " << bound.upper(c.delta) << " estimate "
              << bound.estimate(c.delta));
    CHECK(bound.upper(c.delta) >= c.exact);
    CHECK(bound.upper(c.delta) <= c.exact * 1.1);
    CHECK(bound.estimate(c.delta) == doctest::Approx(c.exact).epsilon(0.03));
  }
}

TEST_CASE("the Chernoff moments in closed form") {
  // E_P[e^L] = E_Q[(S/B)^2] = (B e^(1/s^2) + B (B - 1)) / B^2, and
  // E_P[e^(2L)] = E_Q[(S/B)^3] = (B e^(3/s^2) + 3 B (B - 1) e^(1/s^2) + B (B - 1) (B - 2)) / B^3
  // (S = sum_t w_t, E[w^k] = e^(k (k - 1) / (2 s^2)), the partitions of 2 and 3 over B sums).
  for (const double s : {0.7, 1.0, 2.0})
    for (const long long b : {1LL, 2LL, 10LL, 1000LL}) {
      const std::vector<double> m = epoch_log_moments({s, b, 1});
      const double bd = static_cast<double>(b), v = 1 / (s * s);
      REQUIRE(m.size() == 64);
      CHECK(m[0] == doctest::Approx(std::log((bd * std::exp(v) + bd * (bd - 1)) / (bd * bd))));
      CHECK(m[1] ==
            doctest::Approx(std::log((bd * std::exp(3 * v) + 3 * bd * (bd - 1) * std::exp(v) +
                                      bd * (bd - 1) * (bd - 2)) /
                                     (bd * bd * bd))));
      if (b == 1)  // the Gaussian mechanism: E[e^(lambda L)] = e^(lambda (lambda + 1) / (2 s^2))
        CHECK(m[9] == doctest::Approx(10.0 * 11 / 2 * v));
    }
}

TEST_CASE("strata: exact probabilities summing to one; counts the same for any threads") {
  const BallsInBinsRun run{0.9, 50, 3};
  const std::vector<EpochStratum> strata = epoch_strata(run, Adjacency::remove);
  double total = 0;
  for (const EpochStratum& st : strata) total += st.probability;
  CHECK(total == doctest::Approx(1).epsilon(1e-12));
  CHECK(strata.size() == 10);
  CHECK(strata[1].probability == doctest::Approx(0.09));
  CHECK(epoch_strata(run, Adjacency::add).size() == 1);
  const EpochLossLattice lattice = epoch_loss_lattice(run, Adjacency::remove, 5, 4096, 1 << 22);
  for (const std::size_t j : {std::size_t{0}, std::size_t{4}}) {
    const auto one =
        count_epoch_losses(run, Adjacency::remove, strata[j], j, lattice, 5, 0, 3000, 1);
    const auto three =
        count_epoch_losses(run, Adjacency::remove, strata[j], j, lattice, 5, 0, 3000, 3);
    CHECK(one == three);
    std::uint64_t n = 0;
    for (const std::uint64_t c : one) n += c;
    CHECK(n == 3000);
  }
}

TEST_CASE("the estimate below the Poisson bound; the bound above the estimate") {
  // Balls-in-bins is at least as private as Poisson at q = 1/B (Chua et al. 2025; Feldman &
  // Shenfeld 2025): the Poisson PLD upper bounds here are rdp-compose --accountant pld's.
  BallsInBinsOptions o;
  o.samples = 100000;
  const BallsInBinsBound b({1.0, 10, 5}, o);
  CHECK(b.estimate(1e-5) < 5.148412247630848);  // Poisson q 0.1, 50 steps, sigma 1
  CHECK(b.upper(1e-5) >= b.estimate(1e-5));
  CHECK_THROWS_AS(BallsInBinsBound({1.0, 10, 5}, BallsInBinsOptions{999}), UsageError);
  CHECK_THROWS_AS(BallsInBinsBound({0.0, 10, 5}), UsageError);
  CHECK_THROWS_AS(check_balls_in_bins({1.0, (1LL << 20) + 1, 1}),
                  UsageError);  // B normals a sample
  CHECK_NOTHROW(check_balls_in_bins({1.0, 1LL << 20, 1}));
}
