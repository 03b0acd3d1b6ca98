// The mixture-of-Gaussians PLD (lib/accounting/pld_mixture.hpp) and the PLD accountant's
// mixture events (micro > 1). Exact references: tests/golden/mog.py (mpmath, 60 digits: the
// exact delta of one release and the exact eps of the last-iterate heuristic), the subsampled
// Gaussian (K ~ Binomial(1, q), pld_gaussian.hpp), the Gaussian mechanism's closed form; and
// Google dp_accounting's own estimates, tests/golden/mog_dp_accounting.csv.
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <string>

#include "accounting/pld.hpp"
#include "accounting/pld_gaussian.hpp"
#include "accounting/pld_mixture.hpp"
#include "accounting/rdp.hpp"
#include "core/error.hpp"
#include "relative_close.hpp"

using namespace dpaudit;

namespace {
// in long double, so that the sum's own rounding stays below 1e-15
double total(const PldPmf& p) {
  return static_cast<double>(
      std::accumulate(p.mass.begin(), p.mass.end(), static_cast<long double>(p.inf_mass)));
}

constexpr Adjacency kBoth[] = {Adjacency::remove, Adjacency::add};
}  // namespace

TEST_CASE("binomial_mixture: the Binomial(m, q) masses, its tails cut soundly") {
  const MixturePair all = binomial_mixture(1.5, 3, 0.3, Adjacency::remove, 0);
  const double want[] = {0.343, 0.441, 0.189, 0.027};
  REQUIRE(all.sensitivity.size() == 4);
  for (int k = 0; k < 4; ++k) {
    CHECK(all.sensitivity[k] == k);
    CHECK(close(std::exp(all.log_probability[k]), want[k], 1e-14));
  }
  CHECK(all.dropped == 0);
  // m 10^4, q 0.01: both tails cut at 1e-12 / 2 each, the rest a bound
  const MixturePair cut = binomial_mixture(110, 10000, 0.01, Adjacency::add, 1e-12);
  double kept = 0;
  for (double lp : cut.log_probability) kept += std::exp(lp);
  CHECK(cut.dropped > 0);
  CHECK(cut.dropped <= 1e-12);
  CHECK(kept + cut.dropped >= 1 - 1e-13);
  CHECK(cut.sensitivity.front() > 30);  // 6 to 7 standard deviations: P ~ 1e-12
  CHECK(cut.sensitivity.back() < 180);
  // q = 1: K = m
  const MixturePair full = binomial_mixture(2, 7, 1, Adjacency::remove, 1e-12);
  CHECK(full.sensitivity == std::vector<double>{7});
  CHECK_THROWS_AS(binomial_mixture(1, 0, 0.1, Adjacency::remove, 0), UsageError);
  // about 20 standard deviations of sqrt(10^9 / 4) each side: beyond the 65,536 values kept
  CHECK_THROWS_AS(binomial_mixture(1, 1000000000, 0.5, Adjacency::remove, 1e-20), UsageError);
  CHECK_THROWS_AS(binomial_mixture(1, 3, 0, Adjacency::remove, 0), UsageError);
  CHECK_THROWS_AS(mixture_pair_delta({1, {0, 1}, {std::log(0.5), std::log(0.4)}}, 1), UsageError);
  CHECK_THROWS_AS(mixture_pair_delta({1, {0}, {0}}, 1), UsageError);  // no sensitivity > 0
  CHECK_THROWS_AS(mixture_pair_delta({0, {1}, {0}}, 1), UsageError);
}

TEST_CASE("the exact delta of one release against mpmath") {
  // [golden] tests/golden/mog.py: m 3, q 0.3, s 1.5, eps 0, 0.25, 0.5, 1, 2
  const double remove[] = {0.222936736284912, 0.156178307683963, 0.107220087273409,
                           0.0482727088747093, 0.0085608795954939};
  const double add[] = {0.222936736284912, 0.11389178687303, 0.03615089746324, 2.82217158884332e-7,
                        0};
  const double eps[] = {0, 0.25, 0.5, 1, 2};
  for (int i = 0; i < 5; ++i) {
    CHECK(close(mixture_pair_delta(binomial_mixture(1.5, 3, 0.3, Adjacency::remove, 0), eps[i]),
                remove[i], 1e-12));
    CHECK(close(mixture_pair_delta(binomial_mixture(1.5, 3, 0.3, Adjacency::add, 0), eps[i]),
                add[i], 1e-9));  // 2.8e-7: a difference of two terms near 0.58
  }
}

TEST_CASE("K ~ Binomial(1, q) is the subsampled Gaussian, exactly and discretised") {
  for (Adjacency a : kBoth)
    for (double q : {0.01, 0.3}) {
      const MixturePair m = binomial_mixture(1.1, 1, q, a, 0);
      const GaussianPair g{1.1, q, a};
      for (double eps : {0.0, 0.05, 0.5, 2.0})
        CHECK(std::abs(mixture_pair_delta(m, eps) - gaussian_pair_delta(g, eps)) <=
              1e-13 * gaussian_pair_delta(g, 0));
      const double h = 1e-3, tail = 1e-15;
      const PldPmf pm = pessimistic_pld(m, h, tail), pg = pessimistic_pld(g, h, tail);
      const PldPmf om = optimistic_pld(m, h, tail), og = optimistic_pld(g, h, tail);
      CHECK(pm.first == pg.first);
      CHECK(pm.mass.size() == pg.mass.size());
      for (double eps : {0.0, 0.02, 0.5})
        for (const auto& [mine, theirs] : {std::pair{&pm, &pg}, std::pair{&om, &og}})
          CHECK(std::abs(pld_delta(*mine, eps) - pld_delta(*theirs, eps)) <=
                1e-8 * pld_delta(*theirs, 0));
    }
}

TEST_CASE("the two discretisations bracket the exact delta, truncated or not") {
  // m 3 whole; m 200 at q 0.05 with its tails cut at 1e-6 (far coarser than the accountant's
  // 1e-17 / steps), against the exact delta of the whole binomial
  struct Case {
    double sigma;
    long long m;
    double q, tail;
  };
  for (const Case& c : {Case{1.5, 3, 0.3, 0}, Case{20, 200, 0.05, 1e-6}})
    for (Adjacency a : kBoth) {
      const MixturePair whole = binomial_mixture(c.sigma, c.m, c.q, a, 0);
      const MixturePair cut = binomial_mixture(c.sigma, c.m, c.q, a, c.tail);
      const PldPmf up = pessimistic_pld(cut, 2e-3, 1e-15), low = optimistic_pld(cut, 2e-3, 1e-15);
      CHECK(total(up) >= 1 - 1e-15);
      CHECK(total(low) <= 1 + 1e-15);
      for (double eps : {0.0, 0.1, 0.3, 0.6, 1.0}) {
        const double exact = mixture_pair_delta(whole, eps);
        CHECK(pld_delta(up, eps) >= exact * (1 - 1e-12));
        CHECK(pld_delta(low, eps) <= exact * (1 + 1e-12) + 1e-300);
        CHECK(pld_delta(up, eps) - pld_delta(low, eps) <= 3e-3 * mixture_pair_delta(whole, 0));
      }
    }
}

TEST_CASE("the loss's moments: q = 1 is the Gaussian mechanism at sensitivity m") {
  // L = (2 m x - m^2) / (2 s^2), x ~ N(m, s^2): mean m^2 / (2 s^2), variance m^2 / s^2
  const LossMoments m = mixture_loss_moments(binomial_mixture(3, 4, 1, Adjacency::remove, 0));
  CHECK(close(m.mean, 16.0 / 18, 1e-10));
  CHECK(close(m.variance, 16.0 / 9, 1e-10));
}

TEST_CASE("the accountant: micro-batches are PLD's alone, Poisson only") {
  const AccountingEvent e{1.1, 0.01, 100, Sampling::poisson, 4};
  CHECK_THROWS_WITH_AS(
      rdp_epsilon({e}, 1e-5),
      "micro-batches (a mixture of Gaussians) are accounted by the PLD accountant only",
      UsageError);
  CHECK_THROWS_WITH_AS(PldAccountant({{1.1, 0.01, 100, Sampling::without_replacement, 4}}),
                       "micro-batches are accounted for Poisson sampling only", UsageError);
  CHECK_THROWS_AS(PldAccountant({{1.1, 0.01, 100, Sampling::poisson, 0}}), UsageError);
  // micro 1 is the subsampled Gaussian; q = 1 with m micro-batches the Gaussian at sigma / m
  CHECK(PldAccountant({{1.1, 0.01, 100, Sampling::poisson, 1}}).epsilon(1e-5).upper ==
        PldAccountant({{1.1, 0.01, 100}}).epsilon(1e-5).upper);
  CHECK(PldAccountant({{8, 1, 10, Sampling::poisson, 4}}).epsilon(1e-5).upper ==
        PldAccountant({{2, 1, 10}}).epsilon(1e-5).upper);
  // accumulation is never more private than one micro-batch per step at the same rate
  CHECK(PldAccountant({e}).epsilon(1e-5).lower >
        PldAccountant({{1.1, 0.01, 100}}).epsilon(1e-5).upper);
}

TEST_CASE("the accountant against dp_accounting's mixture PLD and the exact eps, all 15 rows") {
  // [golden] tests/golden/mog_dp_accounting.csv: Google dp_accounting 0.6.0,
  // from_mixture_gaussian_mechanism, its pessimistic and optimistic eps at discretisation 1e-3
  // (release final: one release N(0, T s^2) vs N(K, T s^2), K ~ Binomial(T, q); release all:
  // T steps of K ~ Binomial(micro, q) at noise s, composed). `exact`: tests/golden/mog.py
  // (mpmath) for the last-iterate rows, and for q = 1 the Gaussian mechanism at mu = 1
  // (4.37717809568122); 0 where there is none (composed rows).
  struct Row {
    bool final;
    long long micro;
    double s, q;
    long long steps;
    double delta, pessimistic, optimistic, exact;
  };
  const Row rows[] = {
      {true, 1, 1.1, 0.01, 10000, 1e-05, 4.00052860849936, 4.000027757151675, 4.00052794845},
      {true, 1, 1.1, 0.004266666666666667, 14062, 1e-05, 1.8449572423083735, 1.844457777185377,
       1.84495705116},
      {true, 1, 0.8, 0.0021333333333333334, 469, 1e-05, 0.20762067871430442, 0.2071149778320919,
       0.207614576879},
      {true, 1, 1.0, 0.03333333333333333, 1500, 1e-05, 6.251844786552455, 6.251344758246141,
       6.25184453371},
      {true, 1, 10.0, 1.0, 100, 1e-05, 4.377178466842787, 4.376678395974541, 4.37717809568122},
      {true, 1, 1.452, 0.000409, 151, 1e-06, 0.01180819156648331, 0.011271440049878881,
       0.0117340656209},
      {true, 1, 1.152, 0.000343, 398, 1e-07, 0.024773514462531905, 0.024241480550815042,
       0.024717562155},
      {true, 1, 2.485, 0.069362, 75, 1e-06, 1.1270598343368814, 1.1265606505573007, 1.1270593854},
      {true, 1, 2.501, 0.071361, 47, 1e-05, 0.7871031783899791, 0.786603680159085, 0.787102394419},
      {false, 4, 1.708, 0.03293, 49, 1e-05, 2.927009214508527, 2.887698831963715, 0},
      {false, 16, 0.784, 0.093753, 912, 1e-05, 2727.417999874712, 1555.848000008369, 0},
      {false, 8, 1.3, 0.006077, 449, 1e-06, 5.086849706990826, 4.612515900898647, 0},
      {false, 8, 1.364, 0.003683, 1017, 1e-07, 4.496998136836161, 3.8258623561503904, 0},
      {false, 4, 1.559, 0.02194, 95, 1e-05, 2.9489717257682906, 2.8847840585732847, 0},
      {false, 16, 1.281, 0.01465, 1671, 1e-06, 83.18798861199431, 65.59545034183432, 0},
  };
  for (const Row& r : rows) {
    CAPTURE(r.s);
    CAPTURE(r.q);
    CAPTURE(r.steps);
    const AccountingEvent e = r.final
                                  ? AccountingEvent{r.s * std::sqrt(static_cast<double>(r.steps)),
                                                    r.q, 1, Sampling::poisson, r.steps}
                                  : AccountingEvent{r.s, r.q, r.steps, Sampling::poisson, r.micro};
    const PldAccountant accountant({e});
    const PldInterval ours = accountant.epsilon(r.delta);
    // both contain the truth: they meet, and ours is no wider than theirs
    CHECK(ours.lower <= r.pessimistic);
    CHECK(ours.upper >= r.optimistic);
    CHECK(ours.upper - ours.lower <= r.pessimistic - r.optimistic);
    if (r.exact > 0) {
      CHECK(ours.lower <= r.exact * (1 + 1e-10));
      CHECK(ours.upper >= r.exact * (1 - 1e-10));
      // and delta at the exact eps is the row's delta, inside the delta interval
      const PldInterval d = accountant.delta(r.exact);
      CHECK(d.lower <= r.delta * (1 + 1e-6));
      CHECK(d.upper >= r.delta * (1 - 1e-6));
    }
  }
}
