// The one-step PLDs of the (subsampled) Gaussian mechanism and their discretisations.
// Exact references: Balle & Wang 2018's delta(eps) of the Gaussian mechanism
// (lib/accounting/analytic_gaussian), and for the subsampled pairs the closed form
// delta(eps) = P(L > eps) - e^eps Q(L > eps), checked against quadrature below.
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>

#include "accounting/analytic_gaussian.hpp"
#include "accounting/pld_gaussian.hpp"
#include "core/error.hpp"
#include "relative_close.hpp"

using namespace dpaudit;

namespace {
// in long double, so that the sum's own rounding (1e5 terms) stays below 1e-15
double total(const PldPmf& p) {
  return static_cast<double>(
      std::accumulate(p.mass.begin(), p.mass.end(), static_cast<long double>(p.inf_mass)));
}
}  // namespace

TEST_CASE("q = 1: the exact delta is Balle & Wang's, in both directions") {
  for (double sigma : {0.5, 1.0, 4.22})
    for (double eps : {0.0, 0.3, 2.0, 9.0})
      for (Adjacency a : {Adjacency::remove, Adjacency::add})
        CHECK(close(gaussian_pair_delta({sigma, 1.0, a}, eps), gaussian_mechanism_delta(sigma, eps),
                    1e-12));
}

TEST_CASE("subsampled pairs: the exact delta against quadrature") {
  // [golden] mpmath 1.3.0, 40 digits: quad of max(0, p(x) - e^eps q(x)) over
  // [-40 sigma, 1 + 40 sigma], split at the crossings (findroot), with the pairs unmirrored
  // (remove: p = (1-q) N(0) + q N(1), q = N(0); add: p = N(0), q = (1-q) N(0) + q N(1)).
  CHECK(close(gaussian_pair_delta({1.1, 0.01, Adjacency::remove}, 0.5), 2.7492415688464683e-8,
              1e-12));
  CHECK(
      close(gaussian_pair_delta({0.8, 0.3, Adjacency::remove}, 1.0), 0.023374379339978027, 1e-13));
  CHECK(close(gaussian_pair_delta({0.8, 0.3, Adjacency::add}, 0.1), 0.083189960373838141, 1e-13));
  CHECK(close(gaussian_pair_delta({5.0, 1e-3, Adjacency::remove}, 0.0), 7.9655674554057965e-5,
              1e-13));
  CHECK(
      close(gaussian_pair_delta({2.0, 0.05, Adjacency::add}, 0.02), 0.0015930636867642756, 1e-13));
  // add: no loss above -log(1 - q)
  CHECK(gaussian_pair_delta({1.1, 0.01, Adjacency::add}, 0.5) == 0);
}

TEST_CASE("the loss's moments: q = 1 in closed form") {
  // L = u(x) = (2x - 1) / (2 sigma^2) with x ~ N(1, sigma^2) (remove; add mirrors it):
  // mean 1 / (2 sigma^2) (= KL(N1 || N0)), variance 1 / sigma^2
  for (double sigma : {0.5, 1.0, 4.22})
    for (Adjacency a : {Adjacency::remove, Adjacency::add}) {
      const LossMoments m = privacy_loss_moments({sigma, 1.0, a});
      CHECK(close(m.mean, 1 / (2 * sigma * sigma), 1e-10));
      CHECK(close(m.variance, 1 / (sigma * sigma), 1e-10));
    }
}

TEST_CASE("pessimistic >= exact >= optimistic, one step; the gap is second order in h") {
  for (double q : {1.0, 0.3, 0.01, 1e-4})
    for (double sigma : {0.6, 1.1, 8.0})
      for (Adjacency a : {Adjacency::remove, Adjacency::add}) {
        const GaussianPair pair{sigma, q, a};
        const double h = 0.03 * std::sqrt(privacy_loss_moments(pair).variance);
        const PldPmf up = pessimistic_pld(pair, h, 1e-20), down = optimistic_pld(pair, h, 1e-20);
        INFO("q " << q << " sigma " << sigma << " add " << (a == Adjacency::add));
        CHECK(total(up) >= 1 - 1e-15);  // mass lost to rounding goes to +inf
        CHECK(total(up) <= 1 + 1e-12);
        CHECK(total(down) <= 1 + 1e-12);
        CHECK(total(down) > 1 - 1e-11);
        const double largest = a == Adjacency::add ? -std::log1p(-q) : INFINITY;
        for (double eps : {0.0, 0.5 * h, 3.3 * h, 0.01, 0.1, 0.5, 1.0}) {
          const double exact = gaussian_pair_delta(pair, eps);
          INFO("eps " << eps << " exact " << exact);
          CHECK(pld_delta(up, eps) >= exact * (1 - 1e-12));
          CHECK(pld_delta(down, eps) <= exact * (1 + 1e-12));
          // Away from the largest loss (within a step of it "connect the dots" draws a
          // chord to 0) the gap is a few (h/sd)^2 = 9e-4 of delta(0).
          if (eps < largest - 2 * h)
            CHECK(pld_delta(up, eps) - pld_delta(down, eps) <= 5e-3 * gaussian_pair_delta(pair, 0));
        }
      }
}

TEST_CASE("connect the dots is exact at the lattice points") {
  // Doroshenko et al. 2022: the pessimistic PLD's delta equals the true delta at every
  // lattice point, and is linear in e^eps between them.
  const GaussianPair pair{1.1, 0.01, Adjacency::remove};
  const double h = 1e-4;
  const PldPmf up = pessimistic_pld(pair, h, 1e-20);
  for (long long k : {0LL, 5LL, 100LL, 2000LL, 10000LL}) {
    const double eps = static_cast<double>(k) * h;
    CHECK(close(pld_delta(up, eps), gaussian_pair_delta(pair, eps), 1e-9));
  }
  const double mid = 100.5 * h;
  const double chord = gaussian_pair_delta(pair, 100 * h) +
                       (gaussian_pair_delta(pair, 101 * h) - gaussian_pair_delta(pair, 100 * h)) *
                           (std::exp(mid) - std::exp(100 * h)) /
                           (std::exp(101 * h) - std::exp(100 * h));
  CHECK(close(pld_delta(up, mid), chord, 1e-9));
}

TEST_CASE("invalid arguments") {
  CHECK_THROWS_AS(gaussian_pair_delta({0, 0.1, Adjacency::remove}, 1), UsageError);
  CHECK_THROWS_AS(gaussian_pair_delta({1, 0, Adjacency::remove}, 1), UsageError);
  CHECK_THROWS_AS(gaussian_pair_delta({1, 1.5, Adjacency::add}, 1), UsageError);
  CHECK_THROWS_AS(gaussian_pair_delta({1, 0.1, Adjacency::add}, NAN), UsageError);
  CHECK_THROWS_AS(pessimistic_pld({1, 0.1, Adjacency::add}, 0, 1e-20), UsageError);
  CHECK_THROWS_AS(optimistic_pld({1, 0.1, Adjacency::add}, 1e-3, 0), UsageError);
  // a lattice so fine that one step would need more than 2^26 points
  CHECK_THROWS_AS(pessimistic_pld({1, 0.1, Adjacency::remove}, 1e-9, 1e-20), DataError);
}
