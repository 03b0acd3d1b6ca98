#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <boost/math/distributions/normal.hpp>
#include <boost/math/special_functions/beta.hpp>

#include "accounting/tradeoff_curve.hpp"
#include "core/error.hpp"
#include "stats/curve_test.hpp"

using namespace dpaudit;

namespace {

// Clopper-Pearson upper bound from Boost's inverse incomplete beta, independent of
// binomial_bounds: the 1 - a quantile of Beta(k + 1, n - k).
double cp_upper(std::size_t k, std::size_t n, double a) {
  if (k == n) return 1;
  return boost::math::ibeta_inv(double(k) + 1, double(n - k), 1 - a);
}

// The Gaussian mechanism's trade-off curve G_mu(x) = Phi(Phi^-1(1 - x) - mu).
double gaussian_tradeoff(double mu, double x) {
  const boost::math::normal n;
  return boost::math::cdf(boost::math::complement(n, boost::math::quantile(n, x) + mu));
}

// n standard normal quantiles (i + 1/2) / n: a sample whose rates are the true ones up
// to 1/n, with no randomness.
std::vector<double> normal_quantiles(std::size_t n, double shift) {
  const boost::math::normal normal;
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = shift + boost::math::quantile(normal, (i + 0.5) / double(n));
  return v;
}

ThresholdStrategy strategy_of(ThresholdChoice choice, double threshold = 0,
                              std::uint64_t seed = 0) {
  ThresholdStrategy s;
  s.choice = choice;
  s.fixed_threshold = threshold;
  s.seed = seed;
  s.splits = 21;
  return s;
}

}  // namespace

TEST_CASE("a game's decisions against pure DP: the margin in closed form") {
  // 1,000 in and 1,000 out, no error: both Clopper-Pearson bounds are u = 1 - 0.025^(1/1000).
  const DecisionCounts perfect{1000, 1000, 0, 0};
  const double u = 1 - std::pow(0.025, 1e-3);
  // eps = 1: u < 1/(1+e), f(u) = 1 - e u: refuted with margin 1 - e u - u (curve lowered 1e-15).
  CurveTestResult r = test_against_curve(perfect, tradeoff_envelope({{1, 0}}), 0.05);
  CHECK(r.refuted);
  CHECK(r.margin == doctest::Approx(1 - std::exp(1.0) * u - u).epsilon(1e-12));
  CHECK(r.fpr_bound == doctest::Approx(u).epsilon(1e-13));
  CHECK(r.fnr_bound == doctest::Approx(u).epsilon(1e-13));
  CHECK(r.alpha_per_rate == 0.025);
  CHECK(!r.threshold);
  // eps = 6: u = 0.00368 > 1/(1+e^6) = 0.00247, f(u) = e^-6 (1 - u) < u: consistent.
  r = test_against_curve(perfect, tradeoff_envelope({{6, 0}}), 0.05);
  CHECK(!r.refuted);
  CHECK(r.margin == doctest::Approx(std::exp(-6.0) * (1 - u) - u).epsilon(1e-10));
  // 100 errors of each kind against (1, 1e-3): f(x) = 0.999 - e x at the bound.
  const DecisionCounts some{1000, 1000, 100, 100};
  r = test_against_curve(some, tradeoff_envelope({{1, 1e-3}}), 0.05);
  const double b = cp_upper(100, 1000, 0.025);
  CHECK(r.fpr == 0.1);
  CHECK(r.fpr_bound == doctest::Approx(b).epsilon(1e-12));
  CHECK(r.curve_at_bound == doctest::Approx(0.999 - std::exp(1.0) * b).epsilon(1e-12));
  CHECK(r.margin == doctest::Approx(0.999 - std::exp(1.0) * b - b).epsilon(1e-12));
  CHECK(r.refuted);
}

TEST_CASE("bonferroni: the best of every distinct score, each rate at alpha / 2 / m") {
  // 60 in and 80 out scores on a grid of 25 values (ties), against the curves of (eps, 0.01):
  // the exhaustive maximum of f(FPR_hi) - FNR_hi, with Boost's Beta quantiles.
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<int> in_grid(5, 24), out_grid(0, 18);
  std::vector<double> in(60), out(80);
  for (double& x : in) x = in_grid(rng) / 4.0;
  for (double& x : out) x = out_grid(rng) / 4.0;
  const ScoreSet scores(in, out);
  std::vector<double> thresholds(in);
  thresholds.insert(thresholds.end(), out.begin(), out.end());
  std::sort(thresholds.begin(), thresholds.end());
  thresholds.erase(std::unique(thresholds.begin(), thresholds.end()), thresholds.end());
  const double level = 0.05 / 2 / double(thresholds.size());
  for (double eps : {0.05, 0.3, 2.0}) {
    CAPTURE(eps);
    const TradeoffCurve f = tradeoff_envelope({{eps, 0.01}});
    double best = -2, best_t = 0;
    for (double t : thresholds) {
      const auto fp = std::count_if(out.begin(), out.end(), [&](double x) { return x >= t; });
      const auto fn = std::count_if(in.begin(), in.end(), [&](double x) { return x < t; });
      const double margin = f(cp_upper(fp, 80, level)) - cp_upper(fn, 60, level);
      if (margin > best) best = margin, best_t = t;
    }
    const CurveTestResult r =
        test_against_curve(scores, f, 0.05, strategy_of(ThresholdChoice::bonferroni));
    CHECK(r.thresholds_tried == thresholds.size());
    CHECK(r.alpha_per_rate == doctest::Approx(level).epsilon(1e-15));
    CHECK(r.margin == doctest::Approx(best).epsilon(1e-10));
    CHECK(*r.threshold == best_t);
    CHECK(r.refuted == (best > 0));
    CHECK(r.refuted == (eps < 0.1));  // margins 0.0224, -0.0066, -0.090 (all at threshold 1.25)
  }
}

TEST_CASE("Gaussian mechanism: its own curve is consistent, twice the signal is refuted") {
  // out ~ N(0,1), in ~ N(mu,1) as exact quantiles, 2,000 each. The claim: the PLD's curve of
  // the Gaussian mechanism with mu = 1 (rdp-compose --accountant pld --sigma 1 --q 1 --steps 1).
  const TradeoffCurve f = pld_tradeoff_curve({{1, 1, 1}});
  const std::vector<double> out = normal_quantiles(2000, 0);
  for (ThresholdChoice c :
       {ThresholdChoice::bonferroni, ThresholdChoice::split, ThresholdChoice::multi_split}) {
    CAPTURE(int(c));
    CHECK(
        !test_against_curve(ScoreSet(normal_quantiles(2000, 1), out), f, 0.05, strategy_of(c, 0, 7))
             .refuted);
    CHECK(
        test_against_curve(ScoreSet(normal_quantiles(2000, 2), out), f, 0.05, strategy_of(c, 0, 7))
            .refuted);
  }
  // One fixed threshold 1 with mu = 2: FPR = #(z >= 1) / 2000, FNR = #(z < -1) / 2000 (the
  // same count by symmetry: 317), and the margin is G_1(FPR_hi) - FNR_hi to the curve's 4e-5.
  const CurveTestResult r = test_against_curve(ScoreSet(normal_quantiles(2000, 2), out), f, 0.05,
                                               strategy_of(ThresholdChoice::fixed, 1));
  const auto fp = std::count_if(out.begin(), out.end(), [](double z) { return z >= 1; });
  CHECK(fp == 317);
  CHECK(r.fpr == 317 / 2000.0);
  CHECK(r.fnr == 317 / 2000.0);
  const double b = cp_upper(317, 2000, 0.025);
  CHECK(r.fpr_bound == doctest::Approx(b).epsilon(1e-12));
  CHECK(r.margin == doctest::Approx(gaussian_tradeoff(1, b) - b).epsilon(4e-5 / 0.2));
  CHECK(r.margin <= gaussian_tradeoff(1, b) - b);
  CHECK(r.refuted);  // G_1(0.174) = 0.456 against 0.174
}

TEST_CASE("split: the rule chosen on one half, tested on the other") {
  const TradeoffCurve f = pld_tradeoff_curve({{1, 1, 1}});
  const ScoreSet scores(normal_quantiles(400, 1.8), normal_quantiles(600, 0));
  const CurveTestResult r =
      test_against_curve(scores, f, 0.05, strategy_of(ThresholdChoice::split, 0, 11));
  std::mt19937_64 rng(11);
  const auto [choose, hold] = split_in_half(scores, rng);
  CHECK(r.n_in == hold.in().size());
  CHECK(r.n_out == hold.out().size());
  const CurveTestResult again =
      test_against_curve(hold, f, 0.05, strategy_of(ThresholdChoice::fixed, *r.threshold));
  CHECK(r.margin == again.margin);
  CHECK(r.fnr_bound == again.fnr_bound);
  // multi-split: the median of 21 margins, each at alpha / 4 per rate.
  const CurveTestResult m =
      test_against_curve(scores, f, 0.05, strategy_of(ThresholdChoice::multi_split, 0, 11));
  CHECK(m.splits == 21);
  CHECK(m.alpha_per_rate == 0.0125);
  CHECK(m.refuted == (m.margin > 0));
}

TEST_CASE(
    "valid at level alpha: a true claim at its tightest is refuted at most alpha of the time") {
  // 400 seeded games of 500 + 500 Gaussian scores, mu = 1, against the curve of mu = 1, one
  // fixed threshold (the Neyman-Pearson rule: the claim is tight there) at alpha 0.2; a sound
  // test refutes at most 80 of them. Measured: 9.
  const TradeoffCurve f = pld_tradeoff_curve({{1, 1, 1}});
  std::mt19937_64 rng(2024);
  std::normal_distribution<double> z;
  int refuted = 0;
  for (int game = 0; game < 400; ++game) {
    std::vector<double> in(500), out(500);
    for (double& x : in) x = 1 + z(rng);
    for (double& x : out) x = z(rng);
    refuted +=
        test_against_curve(ScoreSet(in, out), f, 0.2, strategy_of(ThresholdChoice::fixed, 0.5))
            .refuted;
  }
  CHECK(refuted <= 80);
}

TEST_CASE("invalid arguments") {
  const TradeoffCurve f = tradeoff_envelope({{1, 0}});
  const ScoreSet scores({1, 2, 3}, {0, 1});
  CHECK_THROWS_AS(test_against_curve(scores, f, 0.05, strategy_of(ThresholdChoice::max)),
                  UsageError);
  CHECK_THROWS_AS(test_against_curve(scores, f, 0.05, strategy_of(ThresholdChoice::uncorrected)),
                  UsageError);
  CHECK_THROWS_AS(test_against_curve(scores, f, 0, strategy_of(ThresholdChoice::bonferroni)),
                  UsageError);
  CHECK_THROWS_AS(test_against_curve(scores, f, 1, strategy_of(ThresholdChoice::bonferroni)),
                  UsageError);
  CHECK_THROWS_AS(
      test_against_curve(ScoreSet({1, 2}, {}), f, 0.05, strategy_of(ThresholdChoice::bonferroni)),
      DataError);
  CHECK_THROWS_AS(test_against_curve(DecisionCounts{0, 10, 0, 1}, f, 0.05), DataError);
  CHECK_THROWS_AS(test_against_curve(scores, TradeoffCurve{{{0, 1}, {0.5, 0.6}, {1, 0}}}, 0.05,
                                     strategy_of(ThresholdChoice::bonferroni)),
                  DataError);
}
