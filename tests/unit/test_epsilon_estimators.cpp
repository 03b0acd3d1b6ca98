#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/error.hpp"
#include "stats/epsilon_estimators.hpp"

using namespace dpaudit;

namespace {

// n_in in scores and n_out out scores of which `in_low` in scores sit at -1 and
// `out_high` out scores at +1, the rest at +1 (in) and -1 (out): with the rule
// "in when score >= 0", FNR = in_low/n_in and FPR = out_high/n_out.
ScoreSet two_level(std::size_t n_in, std::size_t in_low, std::size_t n_out, std::size_t out_high) {
  std::vector<double> in(n_in, 1.0), out(n_out, -1.0);
  std::fill(in.begin(), in.begin() + in_low, -1.0);
  std::fill(out.begin(), out.begin() + out_high, 1.0);
  return ScoreSet(in, out);
}

// 1000 in scores above 1000 out scores.
ScoreSet separated() {
  std::vector<double> in(1000), out(1000);
  for (int i = 0; i < 1000; ++i) {
    in[i] = 2 + i * 1e-3;
    out[i] = i * 1e-3;
  }
  return ScoreSet(in, out);
}

std::vector<double> normal_sample(std::mt19937_64& rng, std::size_t n, double mean, double stddev) {
  std::normal_distribution<double> d(mean, stddev);
  std::vector<double> x(n);
  for (double& v : x) v = d(rng);
  return x;
}

EstimatorOptions with(Method method, ThresholdChoice thresholds = ThresholdChoice::bonferroni) {
  EstimatorOptions o;
  o.method = method;
  o.strategy.choice = thresholds;
  return o;
}

}  // namespace

TEST_CASE(
    "perfectly separated: threshold gives inf, Clopper-Pearson the most 1000 trials allow (Nasr et "
    "al. 2021's "
    "5.60)") {
  CHECK(estimate_epsilon(separated(), with(Method::threshold)).epsilon == INFINITY);
  // Nasr et al. 2021, Sec. III-C, after Eq. 5: with 1000 trials, all won, the Clopper-Pearson bound
  // cannot exceed eps = 5.60.
  // Each rate bounded at alpha/2 = 0.025: u = 1 - 0.025^(1/1000), eps = log((1-u)/u).
  const double u = 1 - std::pow(0.025, 1e-3);
  const EpsilonEstimate max =
      estimate_epsilon(separated(), with(Method::clopper_pearson, ThresholdChoice::max));
  CHECK(max.epsilon == doctest::Approx(std::log((1 - u) / u)).epsilon(1e-12));
  CHECK(max.epsilon == doctest::Approx(5.60).epsilon(1e-3));
  CHECK(max.fpr == 0);
  CHECK(max.fnr == 0);
  CHECK(max.threshold.value() == 2.0);  // the lowest in score separates
  EstimatorOptions fixed = with(Method::clopper_pearson, ThresholdChoice::fixed);
  fixed.strategy.fixed_threshold = 1.5;
  CHECK(estimate_epsilon(separated(), fixed).epsilon ==
        doctest::Approx(std::log((1 - u) / u)).epsilon(1e-12));
  // Bonferroni over the 2000 thresholds: each rate at 0.05 / 4000.
  const double ub = 1 - std::pow(0.05 / 4000, 1e-3);
  const EpsilonEstimate bonf = estimate_epsilon(separated(), with(Method::clopper_pearson));
  CHECK(bonf.thresholds_tried == 2000);
  CHECK(bonf.alpha_per_rate == doctest::Approx(0.05 / 4000));
  CHECK(bonf.epsilon == doctest::Approx(std::log((1 - ub) / ub)).epsilon(1e-12));
}

TEST_CASE("threshold: max over rules of Eq. 1 at the observed rates, by hand") {
  // in {0.1, 0.6, 0.8}, out {0.2, 0.5, 0.9}: the rule score >= 0.6 has FNR 1/3 and
  // FPR 1/3, eps = log((1 - 1/3) / (1/3)) = log 2; every other rule gives 0.
  const ScoreSet s({0.1, 0.6, 0.8}, {0.2, 0.5, 0.9});
  const EpsilonEstimate e = estimate_epsilon(s, with(Method::threshold));
  CHECK(e.epsilon == doctest::Approx(std::log(2.0)));
  CHECK(e.threshold.value() == 0.6);
  CHECK(e.thresholds_tried == 6);
  EstimatorOptions o = with(Method::threshold);
  o.delta = 0.1;  // log((1 - 0.1 - 1/3) / (1/3)) = log 1.7
  CHECK(estimate_epsilon(s, o).epsilon == doctest::Approx(std::log(1.7)));
}

TEST_CASE("clopper-pearson and jeffreys at the two-level rule, by hand") {
  // FNR = FPR = 10/100 at the rule score >= 1 (the other rule, >= -1, says nothing).
  const ScoreSet s = two_level(100, 10, 100, 10);
  // scipy.stats.beta.ppf(0.975, 11, 90) = 0.17622259774002266 (max: alpha/2 per rate)
  const double cp = 0.17622259774002266;
  CHECK(estimate_epsilon(s, with(Method::clopper_pearson, ThresholdChoice::max)).epsilon ==
        doctest::Approx(std::log((1 - cp) / cp)).epsilon(1e-10));
  // Bonferroni over 2 thresholds: alpha/4 per rate; beta.ppf(1 - 0.0125, 11, 90) =
  // 0.1877745405731404
  const double cp4 = 0.1877745405731404;
  const EpsilonEstimate b = estimate_epsilon(s, with(Method::clopper_pearson));
  CHECK(b.epsilon == doctest::Approx(std::log((1 - cp4) / cp4)).epsilon(1e-10));
  CHECK(b.fpr == doctest::Approx(0.1));
  CHECK(b.fnr_bound == doctest::Approx(cp4));
  // Jeffreys: beta.ppf(0.975, 10.5, 90.5) = 0.170123929652187
  const double j = 0.170123929652187;
  CHECK(estimate_epsilon(s, with(Method::jeffreys, ThresholdChoice::max)).epsilon ==
        doctest::Approx(std::log((1 - j) / j)).epsilon(1e-10));
  // The point estimate there: log(0.9 / 0.1).
  CHECK(estimate_epsilon(s, with(Method::threshold)).epsilon == doctest::Approx(std::log(9.0)));
}

TEST_CASE("one-sided keeps the TPR/FPR direction only") {
  // FNR 30/100, FPR 10/100: both sides max(log(0.9/0.3), log(0.7/0.1)) = log 7 either way;
  // FNR 10/100, FPR 30/100: both give log 7 via (1-FPR)/FNR, one-sided log(0.9/0.3) = log 3.
  EstimatorOptions o = with(Method::threshold);
  CHECK(estimate_epsilon(two_level(100, 10, 100, 30), o).epsilon == doctest::Approx(std::log(7.0)));
  o.sides = Sides::tpr_over_fpr;
  CHECK(estimate_epsilon(two_level(100, 10, 100, 30), o).epsilon == doctest::Approx(std::log(3.0)));
}

TEST_CASE("an analytic null: FPR is the exact tail, only FNR is bounded") {
  // Gaussian null N(0, 1/100): P(T >= 0.2) = norm.sf(2) = 0.022750131948179195 (scipy).
  // In scores {0.1, 0.21, 0.25, 0.3}: at the rule score >= 0.2, FNR = 1/4.
  const ScoreSet s({0.1, 0.21, 0.25, 0.3}, {0.9});  // the out score is ignored
  EstimatorOptions o = with(Method::threshold, ThresholdChoice::fixed);
  o.strategy.fixed_threshold = 0.2;
  o.null = CosineNull{100, NullKind::gaussian};
  const double fpr = 0.022750131948179195;
  const EpsilonEstimate e = estimate_epsilon(s, o);
  CHECK(e.fpr == doctest::Approx(fpr).epsilon(1e-10));
  CHECK(e.n_out == 0);
  CHECK(e.epsilon == doctest::Approx(std::log(0.75 / fpr)).epsilon(1e-10));
  // Jeffreys on FNR only, at the full alpha: beta.ppf(0.95, 1.5, 3.5) = 0.6507072165866749.
  o.method = Method::jeffreys;
  const double fnr = 0.6507072165866749;
  CHECK(estimate_epsilon(s, o).epsilon ==
        doctest::Approx(std::log((1 - fnr) / fpr)).epsilon(1e-10));
  // The best rule over the sweep at least matches the fixed one.
  o.strategy.choice = ThresholdChoice::max;
  CHECK(estimate_epsilon(s, o).epsilon >= std::log((1 - fnr) / fpr));
}

TEST_CASE("gauss-fit: fitted Gaussians, then the exact two-Gaussian epsilon") {
  // in {1, 3}: N(2, 1); out {-1, 1}: N(0, 1) (ddof 0). Two unit Gaussians 2 apart at
  // delta 1e-5: Balle-Wang delta(eps) = Phi(-eps/2 + 1) - e^eps Phi(-eps/2 - 1), solved by
  // scipy.optimize.brentq: eps = 9.997256146434298.
  EstimatorOptions o = with(Method::gauss_fit);
  o.delta = 1e-5;
  const EpsilonEstimate e = estimate_epsilon(ScoreSet({1, 3}, {-1, 1}), o);
  CHECK(e.epsilon == doctest::Approx(9.997256146434298).epsilon(1e-8));
  CHECK(e.fit_in->mean == 2.0);
  CHECK(e.fit_out->stddev == 1.0);
  // Against the null N(0, 1/100) with in {0.1, 0.3}: N(0.2, 0.01), the same pair scaled by 1/10.
  o.null = CosineNull{100, NullKind::gaussian};
  CHECK(estimate_epsilon(ScoreSet({0.1, 0.3}, {}), o).epsilon ==
        doctest::Approx(9.997256146434298).epsilon(1e-8));
}

TEST_CASE("gauss-fit on large Gaussian samples recovers the two-Gaussian epsilon") {
  // N(1,1) vs N(0,1) at delta 1e-5: eps = 4.377178095681225 (Balle-Wang, scipy brentq).
  std::mt19937_64 rng(2024);
  const ScoreSet s(normal_sample(rng, 200000, 1, 1), normal_sample(rng, 200000, 0, 1));
  EstimatorOptions o = with(Method::gauss_fit);
  o.delta = 1e-5;
  CHECK(estimate_epsilon(s, o).epsilon == doctest::Approx(4.377178095681225).epsilon(0.02));
}

TEST_CASE(
    "coverage: the Clopper-Pearson Bonferroni bound stays below the true eps in >= 95% of 200 "
    "runs") {
  // Gaussian mechanism with sensitivity/sigma 1: in ~ N(1,1), out ~ N(0,1). Its true eps
  // at delta 0.05 is 1.5688777812338248 (Balle-Wang, scipy brentq).
  const double true_eps = 1.5688777812338248;
  EstimatorOptions o = with(Method::clopper_pearson);
  o.delta = 0.05;
  std::mt19937_64 rng(7);
  int below = 0;
  double largest = 0;
  for (int run = 0; run < 200; ++run) {
    const ScoreSet s(normal_sample(rng, 2000, 1, 1), normal_sample(rng, 2000, 0, 1));
    const double eps = estimate_epsilon(s, o).epsilon;
    below += eps <= true_eps;
    largest = std::max(largest, eps);
  }
  CHECK(below >= 190);
  CHECK(largest > 0.5 * true_eps);  // the bound is not trivially 0
}

TEST_CASE("split: the same seed gives the same estimate; bounds rest on the held-out half") {
  std::mt19937_64 rng(3);
  const ScoreSet s(normal_sample(rng, 1001, 2, 1), normal_sample(rng, 1000, 0, 1));
  EstimatorOptions o = with(Method::clopper_pearson, ThresholdChoice::split);
  o.strategy.seed = 9;
  const EpsilonEstimate a = estimate_epsilon(s, o), b = estimate_epsilon(s, o);
  CHECK(a.epsilon == b.epsilon);
  CHECK(a.threshold == b.threshold);
  CHECK(a.n_in == 501);  // 1001 - floor(1001/2)
  CHECK(a.n_out == 500);
  CHECK(a.thresholds_tried == 1000);  // the chosen half's distinct scores
  // The held-out bound at that threshold is the fixed-threshold bound on that half;
  // it never beats the uncorrected best over all thresholds of the whole set by much.
  CHECK(a.epsilon > 0);
  CHECK(a.epsilon <
        estimate_epsilon(s, with(Method::clopper_pearson, ThresholdChoice::max)).epsilon);
}

TEST_CASE("decisions of a game: Matsumoto et al. 2022's example and its bounds") {
  // Matsumoto et al. 2022, Sec. 3: FP 0.1, FN 0.2 gives eps_empirical = log 8 (~2.0 there).
  const DecisionCounts d{100, 100, 20, 10};
  const EpsilonEstimate e = estimate_epsilon(d, with(Method::threshold));
  CHECK(e.epsilon == doctest::Approx(std::log(8.0)));
  CHECK(!e.threshold);
  // Clopper-Pearson: FPR <= beta.ppf(0.975, 11, 90) = 0.17622259774002266, FNR <=
  // beta.ppf(0.975, 21, 80) (the larger one's term wins: log((1 - FNR_hi)/FPR_hi)).
  const EpsilonEstimate cp = estimate_epsilon(d, with(Method::clopper_pearson));
  CHECK(cp.fpr_bound == doctest::Approx(0.17622259774002266).epsilon(1e-10));
  CHECK(cp.epsilon == doctest::Approx(std::log((1 - cp.fnr_bound) / cp.fpr_bound)));
  CHECK_THROWS_AS(estimate_epsilon(d, with(Method::gauss_fit)), UsageError);
}

TEST_CASE("per round: one estimate each, delta = 1/n as in CANIFE") {
  std::map<double, ScoreSet> rounds;
  rounds.emplace(1, ScoreSet({0.1, 0.6, 0.8}, {0.2, 0.5, 0.9}));
  rounds.emplace(2, two_level(100, 10, 100, 10));
  const auto e = estimate_epsilon_per_round(rounds, with(Method::threshold), true);
  REQUIRE(e.size() == 2);
  CHECK(e.at(1).delta == doctest::Approx(1.0 / 6));
  // log((1 - 1/6 - 1/3) / (1/3)) = log 1.5
  CHECK(e.at(1).epsilon == doctest::Approx(std::log(1.5)));
  // log((1 - 1/200 - 0.1) / 0.1) = log 8.95
  CHECK(e.at(2).epsilon == doctest::Approx(std::log(8.95)));
  // One score in a round would mean delta = 1: bad data, not a usage error.
  EstimatorOptions o = with(Method::threshold);
  o.null = CosineNull{10, NullKind::exact};
  CHECK_THROWS_AS(estimate_epsilon_per_round({{1.0, ScoreSet({0.1}, {})}}, o, true), DataError);
}

TEST_CASE("bad options and data") {
  const ScoreSet s({0.1, 0.6, 0.8}, {0.2, 0.5, 0.9});
  EstimatorOptions o;
  o.alpha = 1;
  CHECK_THROWS_AS(estimate_epsilon(s, o), UsageError);
  o = EstimatorOptions{};
  o.delta = 1;
  CHECK_THROWS_AS(estimate_epsilon(s, o), UsageError);
  o = with(Method::gauss_fit);  // delta 0: epsilon would be inf between Gaussians
  CHECK_THROWS_AS(estimate_epsilon(s, o), UsageError);
  o.delta = 1e-5;
  CHECK_THROWS_AS(estimate_epsilon(ScoreSet({1, 1}, {0, 2}), o), DataError);
  CHECK_THROWS_AS(estimate_epsilon(ScoreSet({1}, {}), EstimatorOptions{}), DataError);
  CHECK_THROWS_AS(
      estimate_epsilon(ScoreSet({1}, {0}), with(Method::clopper_pearson, ThresholdChoice::split)),
      DataError);
}
