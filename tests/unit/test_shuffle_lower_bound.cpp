// The certified lower bound for shuffled batches (Chua et al. 2024's pair, composed over
// epochs): exact at one batch an epoch, never above the bound without amplification, golden
// values and a Monte Carlo of the same pair from tests/golden/shuffle_lower_bound.py.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "accounting/analytic_gaussian.hpp"
#include "accounting/shuffle_lower_bound.hpp"
#include "core/error.hpp"

using namespace dpaudit;

TEST_CASE("one batch an epoch: E Gaussian mechanisms, approached from below") {
  // B = 1: the pair is N(2, s^2) against N(1, s^2), composed E times, whose exact eps is the
  // Gaussian mechanism's at s / sqrt(E) (Balle & Wang 2018; Dong, Roth & Su 2019).
  struct Case {
    double s;
    long long epochs;
    double delta;
  };
  for (const Case c :
       {Case{1.0, 10, 1e-5}, Case{0.5, 1, 1e-6}, Case{2.0, 100, 1e-5}, Case{0.8, 3, 1e-3}}) {
    const double exact = gaussian_composition_epsilon(c.s, static_cast<double>(c.epochs), c.delta);
    const double lower = ShuffleLowerBound({c.s, 1, c.epochs}).epsilon(c.delta);
    INFO("s " << c.s << " E " << c.epochs << ": lower " << lower << " exact " << exact);
    CHECK(lower <= exact);
    CHECK(lower >= exact * (1 - 2e-4));
  }
  const ShuffleLowerBound one({1.5, 1, 30});
  const double exact = gaussian_mechanism_delta(1.5 / std::sqrt(30.0), 3.0);
  CHECK(one.delta(3.0) <= exact);
  CHECK(one.delta(3.0) >= exact * (1 - 1e-3));
}

TEST_CASE("against the same pair computed independently, and its Monte Carlo") {
  // [golden] tests/golden/shuffle_lower_bound.py: the pair's eps bracketed by slicing the law
  // of the epoch's largest sum, each slice's loss rounded down (lower) or up (upper) on a
  // lattice of 1e-4, composed by numpy FFT. Ours is a lower bound of the same pair: at most
  // the bracket's upper end, and within 1e-4 of its lower end.
  struct Row {
    double s;
    long long batches, epochs;
    double delta, lower, upper;
  };
  for (const Row r : {Row{1.0, 10, 10, 1e-5, 15.150782128765922, 15.15192431867122},
                      Row{0.5, 100, 5, 1e-5, 28.271053102477335, 28.271616723255377},
                      Row{2.0, 1000, 20, 1e-5, 0.2159130867565308, 0.21793252057539567},
                      Row{0.8, 10, 1, 1e-3, 4.122900384246635, 4.123013160318621}}) {
    const double eps = ShuffleLowerBound({r.s, r.batches, r.epochs}).epsilon(r.delta);
    INFO("s " << r.s << " B " << r.batches << " E " << r.epochs << ": " << eps);
    CHECK(eps <= r.upper);
    CHECK(eps >= r.lower * (1 - 1e-4));
  }
  // [golden] the same script, one epoch as Chua et al. 2024 compute it: the best threshold on the
  // epoch's largest sum (their "cube" sets), the pair's exact eps for one epoch since the loss
  // rises with it. Ours within 1e-4 below.
  struct Epoch {
    double s;
    long long batches;
    double eps;
  };
  for (const Epoch e :
       {Epoch{1.0, 10, 4.343411071175553}, Epoch{0.5, 100, 9.997191056388516},
        Epoch{1.0, 1000, 2.8820957365255055}, Epoch{2.0, 1000, 0.06556684025978811}}) {
    const double eps = ShuffleLowerBound({e.s, e.batches, 1}).epsilon(1e-5);
    INFO("s " << e.s << " B " << e.batches << ": " << eps);
    CHECK(eps <= e.eps * (1 + 1e-9));
    CHECK(eps >= e.eps * (1 - 1e-4));
  }
  // [golden] the same script's Monte Carlo of the pair (numpy default_rng(20261126), 2e6
  // draws of E epochs under P): delta(eps) = 0.6195930681517356 +- 0.000287947 (s 1, B 10,
  // E 10, eps 1) and 0.8472882807299408 +- 0.000226117 (s 0.5, B 100, E 5, eps 3). Ours
  // within 3 standard errors, and below the bracket's upper end (0.61955965, 0.84729715).
  const double d1 = ShuffleLowerBound({1.0, 10, 10}).delta(1.0);
  CHECK(std::abs(d1 - 0.6195930681517356) <= 3 * 0.000287947);
  CHECK(d1 <= 0.6195596473313082);
  const double d2 = ShuffleLowerBound({0.5, 100, 5}).delta(3.0);
  CHECK(std::abs(d2 - 0.8472882807299408) <= 3 * 0.000226117);
  CHECK(d2 <= 0.8472971495232693);
}

TEST_CASE("monotone, and never above the bound without amplification") {
  // More epochs leak more, more noise and more batches (a smaller share of the epoch for the
  // record) less; every lower bound is below E Gaussian mechanisms at s (each epoch a Gaussian
  // mechanism with sensitivity 1, no amplification claimed: an upper bound for shuffling).
  double previous = 0;
  for (long long epochs : {1, 2, 5, 20}) {
    const double eps = ShuffleLowerBound({1.0, 10, epochs}).epsilon(1e-5);
    CHECK(eps > previous);
    CHECK(eps <= gaussian_composition_epsilon(1.0, static_cast<double>(epochs), 1e-5));
    previous = eps;
  }
  previous = 1e300;
  for (double s : {0.5, 0.8, 1.2, 2.0}) {
    const double eps = ShuffleLowerBound({s, 100, 10}).epsilon(1e-5);
    CHECK(eps < previous);
    previous = eps;
  }
  previous = 1e300;
  for (long long batches : {1, 10, 100, 1000}) {
    const double eps = ShuffleLowerBound({1.5, batches, 10}).epsilon(1e-5);
    CHECK(eps < previous);
    previous = eps;
  }
  // delta(eps) falls with eps, and inverts epsilon(delta)
  const ShuffleLowerBound lb({1.0, 10, 10});
  CHECK(lb.delta(2.0) < lb.delta(1.0));
  CHECK(lb.delta(lb.epsilon(1e-3)) == doctest::Approx(1e-3).epsilon(1e-6));
  CHECK(lb.delta(1000.0) == 0.0);
}

TEST_CASE("inputs out of range") {
  CHECK_THROWS_AS(ShuffleLowerBound({0.0, 10, 1}), UsageError);
  CHECK_THROWS_AS(ShuffleLowerBound({std::nan(""), 10, 1}), UsageError);
  CHECK_THROWS_AS(ShuffleLowerBound({1.0, 0, 1}), UsageError);
  CHECK_THROWS_AS(ShuffleLowerBound({1.0, 10, 0}), UsageError);
  ShuffleLowerBoundOptions bad;
  bad.lattice = -1;
  CHECK_THROWS_AS(ShuffleLowerBound({1.0, 10, 1}, bad), UsageError);
  // at noise 0.01 the pair's masses underflow double: an error, not a bound of about 0
  CHECK_THROWS_AS(ShuffleLowerBound({0.01, 100, 3}), DataError);
  const ShuffleLowerBound lb({1.0, 10, 1});
  CHECK_THROWS_AS(lb.epsilon(0.0), UsageError);
  CHECK_THROWS_AS(lb.epsilon(1.0), UsageError);
  CHECK_THROWS_AS(lb.delta(-1.0), UsageError);
}
