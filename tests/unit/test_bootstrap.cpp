#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

#include <boost/math/distributions/students_t.hpp>

#include "accounting/two_gaussian.hpp"
#include "core/error.hpp"
#include "random/philox_stream.hpp"
#include "stats/bootstrap.hpp"
#include "stats/epsilon_estimators.hpp"

#include "philox_normals.hpp"

using namespace dpaudit;

namespace {

double mean_of(const std::vector<double>& x) {
  return std::accumulate(x.begin(), x.end(), 0.0) / x.size();
}

const ScoreStatistic kMeanIn = [](const ScoreSet& s) { return mean_of(s.in()); };
const ScoreStatistic kMeanDifference = [](const ScoreSet& s) {
  return mean_of(s.in()) - mean_of(s.out());
};

// sum_i (x_i - mean)^3 / n^3 and sum_i (x_i - mean)^2 / n^2: the jackknife influences
// of a sample mean are exactly x_i - mean, so these are a's sums for one sample (with
// sign -1 for a mean that enters with a minus).
void influence_sums(const std::vector<double>& x, double sign, double& squares, double& cubes) {
  const double m = mean_of(x), n = static_cast<double>(x.size());
  for (double v : x) {
    const double u = sign * (v - m) / n;
    squares += u * u;
    cubes += u * u * u;
  }
}

}  // namespace

TEST_CASE("BCa of a normal mean: close to the t-interval, a in closed form") {
  const std::vector<double> x = normals(200, 5, 2, 11, 0);
  BootstrapOptions o;
  o.replicates = 4000;
  o.seed = 3;
  const BootstrapDistribution d = bootstrap(ScoreSet(x, {}), kMeanIn, o);
  CHECK(d.estimate == doctest::Approx(mean_of(x)).epsilon(1e-15));
  // a = sum u^3 / (6 (sum u^2)^1.5) with u = x_i - mean: delete-1 (200 <= 1000 groups).
  double squares = 0, cubes = 0;
  influence_sums(x, 1, squares, cubes);
  CHECK(d.jackknife_groups_in == 200);
  CHECK(d.accelerated);
  CHECK(d.acceleration == doctest::Approx(cubes / (6 * std::pow(squares, 1.5))).epsilon(1e-9));

  // The t-interval mean +- t_{0.975,199} s / sqrt(n). BCa for a mean converges to it;
  // here they differ by (i) t vs normal quantile and the bootstrap's divisor n:
  // (1.972 - 1.960 sqrt(199/200)) se = 0.017 se, (ii) the skewness correction, of order
  // a z^2 se ~ 0.01 se for this sample, and (iii) Monte Carlo error of a 2.5% quantile
  // from B = 4000 replicates, sd sqrt(0.025 * 0.975 / 4000) / phi(1.96) se = 0.042 se.
  // Tolerance 0.25 se: over 5 Monte Carlo sds beyond the systematic part.
  double ss = 0;
  for (double v : x) ss += (v - mean_of(x)) * (v - mean_of(x));
  const double se = std::sqrt(ss / 199) / std::sqrt(200.0);
  const double t = boost::math::quantile(boost::math::students_t(199), 0.975);
  const BcaInterval ci = bca_interval(d, 0.05);
  CHECK(std::abs(ci.lower.value - (mean_of(x) - t * se)) < 0.25 * se);
  CHECK(std::abs(ci.upper.value - (mean_of(x) + t * se)) < 0.25 * se);
  CHECK(ci.lower.nominal == 0.025);
  CHECK(ci.upper.nominal == 0.975);
  // The bootstrap standard error is s sqrt((n-1)/n) / sqrt(n) up to Monte Carlo error
  // (relative sd 1/sqrt(2B) = 1.1%): 5%.
  CHECK(d.standard_error == doctest::Approx(se * std::sqrt(199.0 / 200)).epsilon(0.05));
}

TEST_CASE("two classes resampled separately: a of a difference of means in closed form") {
  const std::vector<double> in = normals(150, 1, 1, 5, 1);
  std::vector<double> out = normals(90, 0, 3, 5, 2);
  for (double& v : out) v = std::exp(v / 2);  // skewed, so a is far from 0
  BootstrapOptions o;
  o.replicates = 200;
  const BootstrapDistribution d = bootstrap(ScoreSet(in, out), kMeanDifference, o);
  double squares = 0, cubes = 0;
  influence_sums(in, 1, squares, cubes);
  influence_sums(out, -1, squares, cubes);
  CHECK(d.acceleration == doctest::Approx(cubes / (6 * std::pow(squares, 1.5))).epsilon(1e-9));
  CHECK(d.acceleration < -0.01);  // the out mean is right-skewed and enters with a minus
  // Each replicate keeps the class sizes: the mean of in resamples only ever draws in
  // scores, so replicates lie in [min in - max out, max in - min out].
  const auto [lo, hi] = std::minmax_element(d.replicates.begin(), d.replicates.end());
  CHECK(*lo >= *std::min_element(in.begin(), in.end()) - *std::max_element(out.begin(), out.end()));
  CHECK(*hi <= *std::max_element(in.begin(), in.end()) - *std::min_element(out.begin(), out.end()));
}

TEST_CASE("a symmetric statistic: z0 = 0 up to Monte Carlo error, a = 0") {
  // A sample symmetric about 0 and its mean: every jackknife influence has its mirror
  // image, so the sum of cubes is 0; the bootstrap distribution of the mean is
  // symmetric about the estimate 0, so p = 1/2 in expectation, with sd 1/(2 sqrt B),
  // and z0 = Phi^-1(p) has sd 1.2533/sqrt(B) = 0.0198 at B = 4000: tolerance 4 sds.
  std::vector<double> x = normals(100, 0, 1, 8, 0);
  for (std::size_t i = 0; i < 100; ++i) x.push_back(-x[i]);
  BootstrapOptions o;
  o.replicates = 4000;
  const BootstrapDistribution d = bootstrap(ScoreSet(x, {}), kMeanIn, o);
  CHECK(std::abs(d.estimate) < 1e-15);
  CHECK(std::abs(d.acceleration) < 1e-12);
  CHECK(std::abs(d.z0) < 4 * 1.2533 / std::sqrt(4000.0));
  // And the interval is symmetric about 0 to within the quantiles' Monte Carlo error
  // (0.042 se each, as above, se = 1/sqrt(200)): 0.25 se.
  const BcaInterval ci = bca_interval(d, 0.05);
  CHECK(std::abs(ci.lower.value + ci.upper.value) < 0.25 / std::sqrt(200.0));
}

TEST_CASE("coverage of the 95% BCa interval over 500 seeded samples is within the binomial band") {
  // Samples of 50 from N(0,1), the mean, B = 1000. The BCa interval of a normal mean
  // behaves like mean +- 1.96 s sqrt(49/50)/sqrt(50), whose exact coverage is
  // P(|t_49| < 1.96 sqrt(49/50)) = 0.9443; over 500 samples the count covering 0 has
  // sd sqrt(500 * 0.944 * 0.056) = 5.1: accept 472 +- 4 sds, [452, 492].
  std::size_t covered = 0;
  for (std::uint64_t rep = 0; rep < 500; ++rep) {
    BootstrapOptions o;
    o.replicates = 1000;
    o.seed = rep;
    const BootstrapDistribution d =
        bootstrap(ScoreSet(normals(50, 0, 1, 1000 + rep, 0), {}), kMeanIn, o);
    const BcaInterval ci = bca_interval(d, 0.05);
    covered += ci.lower.value <= 0 && 0 <= ci.upper.value;
  }
  CHECK(covered >= 452);
  CHECK(covered <= 492);
}

TEST_CASE("byte-identical for 1, 2 and 3 threads, the grouped jackknife included") {
  const ScoreSet s(normals(301, 1, 1, 4, 1), normals(207, 0, 1, 4, 2));
  BootstrapOptions o;
  o.replicates = 257;
  o.seed = 99;
  o.jackknife_groups = 17;  // both classes grouped
  const auto stat = [](const ScoreSet& x) {
    return std::log(mean_of(x.in()) * mean_of(x.in()) + 1) - mean_of(x.out());
  };
  o.threads = 1;
  const BootstrapDistribution one = bootstrap(s, stat, o);
  CHECK(one.jackknife_groups_in == 17);
  CHECK(one.jackknife_groups_out == 17);
  for (int threads : {2, 3}) {
    o.threads = threads;
    const BootstrapDistribution many = bootstrap(s, stat, o);
    REQUIRE(many.replicates.size() == one.replicates.size());
    CHECK(std::memcmp(many.replicates.data(), one.replicates.data(),
                      one.replicates.size() * sizeof(double)) == 0);
    CHECK(std::memcmp(&many.acceleration, &one.acceleration, sizeof(double)) == 0);
    CHECK(std::memcmp(&many.z0, &one.z0, sizeof(double)) == 0);
    const double a = bca_interval(many, 0.1).lower.value, b = bca_interval(one, 0.1).lower.value;
    CHECK(std::memcmp(&a, &b, sizeof(double)) == 0);
  }
  // Another seed gives other replicates (and other jackknife groups).
  o.seed = 100;
  CHECK(bootstrap(s, stat, o).replicates != one.replicates);
}

TEST_CASE("degenerate cases") {
  BootstrapOptions o;
  o.replicates = 100;
  SUBCASE(
      "all scores equal: every replicate equals the estimate, z0 = 0, a = 0, interval a point") {
    const BootstrapDistribution d = bootstrap(ScoreSet({3, 3, 3, 3}, {1, 1}), kMeanDifference, o);
    CHECK(d.estimate == 2);
    CHECK(d.below_fraction == 0.5);
    CHECK(d.z0 == 0);
    CHECK(d.acceleration == 0);
    CHECK(d.accelerated);
    CHECK(d.standard_error == 0);
    const BcaInterval ci = bca_interval(d, 0.05);
    CHECK(ci.lower.value == 2);
    CHECK(ci.upper.value == 2);
  }
  // inf when the resampled classes separate (as eps at delta 0 is), else the mean gap.
  const auto eps_like = [](const ScoreSet& s) {
    return s.out().back() < s.in().front() ? INFINITY : mean_of(s.in()) - mean_of(s.out());
  };
  SUBCASE("every replicate inf: the interval is [inf, inf], ties count half") {
    const BootstrapDistribution d =
        bootstrap(ScoreSet({10, 11, 12, 13}, {0, 1, 2, 3}), eps_like, o);
    CHECK(d.estimate == INFINITY);
    CHECK(d.below_fraction == 0.5);
    CHECK(d.standard_error == INFINITY);
    CHECK_FALSE(d.accelerated);  // every deletion is inf too: a undefined, BC interval
    const BcaInterval ci = bca_interval(d, 0.05);
    CHECK(ci.lower.value == INFINITY);
    CHECK(ci.upper.value == INFINITY);
  }
  SUBCASE("some replicates inf: a finite lower end, an infinite upper end, no NaN") {
    // One out score (25.5) lies among the in scores 10..29; a resample of the 20 out
    // scores misses it with probability (19/20)^20 = 0.358, and is then separable (with
    // it, only an in resample drawing none of 10..25 separates: (4/20)^20 = 1e-14).
    std::vector<double> in, out;
    for (int i = 0; i < 20; ++i) in.push_back(10 + i);
    for (int i = 0; i < 19; ++i) out.push_back(i * 0.1);
    out.push_back(25.5);
    o.replicates = 1000;
    const BootstrapDistribution d = bootstrap(ScoreSet(in, out), eps_like, o);
    CHECK(std::isfinite(d.estimate));
    const auto infinite = std::count(d.replicates.begin(), d.replicates.end(), INFINITY);
    CHECK(infinite > 300);  // binomial(1000, 0.358): mean 358, sd 15
    CHECK(infinite < 420);
    CHECK_FALSE(d.accelerated);  // deleting 25.5 separates the classes
    const BcaInterval ci = bca_interval(d, 0.05);
    CHECK(std::isfinite(ci.lower.value));
    CHECK(ci.lower.value <= d.estimate);
    CHECK(ci.upper.value == INFINITY);
  }
  SUBCASE("every replicate on one side of the estimate: BCa undefined, an error") {
    // The number of distinct in scores: a resample of 20 distinct scores repeats one
    // unless it draws a permutation (probability 20!/20^20 = 2e-8).
    std::vector<double> in(20);
    std::iota(in.begin(), in.end(), 0.0);
    const auto count_distinct = [](const ScoreSet& s) {
      std::vector<double> v = s.in();
      return static_cast<double>(std::unique(v.begin(), v.end()) - v.begin());
    };
    const BootstrapDistribution d = bootstrap(ScoreSet(in, {}), count_distinct, o);
    CHECK(d.estimate == 20);
    CHECK(d.z0 == INFINITY);
    CHECK_THROWS_AS(bca_interval(d, 0.05), DataError);
    CHECK(d.standard_error > 0);  // the replicates themselves stay usable
  }
  SUBCASE("NaN and errors of the statistic are errors naming where") {
    const ScoreSet s({1, 2, 3}, {0, 1});
    CHECK_THROWS_AS(bootstrap(
                        s, [](const ScoreSet&) { return NAN; }, o),
                    DataError);
    const auto nan_on_resample = [](const ScoreSet& x) {
      return x.in() == std::vector<double>{1, 2, 3} ? 1.0 : NAN;
    };
    CHECK_THROWS_WITH_AS(bootstrap(s, nan_on_resample, o), doctest::Contains("bootstrap replicate"),
                         DataError);
    const auto throws_on_deletion = [](const ScoreSet& x) {
      if (x.out().size() < 2) throw UsageError("needs 2 out scores");
      return 1.0;
    };
    CHECK_THROWS_WITH_AS(bootstrap(s, throws_on_deletion, o),
                         doctest::Contains("jackknife deletion"), DataError);
    // On the scores themselves, the statistic's own error passes unchanged.
    CHECK_THROWS_AS(bootstrap(
                        s, [](const ScoreSet&) -> double { throw UsageError("bad option"); }, o),
                    UsageError);
  }
  SUBCASE("bad options and inputs") {
    const ScoreSet s({1, 2, 3}, {0, 1});
    o.replicates = 1;
    CHECK_THROWS_AS(bootstrap(s, kMeanDifference, o), UsageError);
    o.replicates = 10;
    o.jackknife_groups = 1;
    CHECK_THROWS_AS(bootstrap(s, kMeanDifference, o), UsageError);
    o.jackknife_groups = 10;
    CHECK_THROWS_AS(bootstrap(ScoreSet({1}, {0, 1}), kMeanDifference, o), DataError);
    CHECK_THROWS_AS(bootstrap(ScoreSet({}, {0, 1}), kMeanDifference, o), UsageError);
    const BootstrapDistribution d = bootstrap(s, kMeanDifference, o);
    CHECK_THROWS_AS(bca_interval(d, 0), UsageError);
    CHECK_THROWS_AS(bca_endpoint(d, 1), UsageError);
  }
}

TEST_CASE("the BCa level formula, and its pole") {
  BootstrapDistribution d;
  d.sorted.resize(1001);
  std::iota(d.sorted.begin(), d.sorted.end(), 0.0);  // the level-q quantile is 1000 q
  d.replicates = d.sorted;
  d.z0 = 0.1;
  d.acceleration = 0.05;
  // q' = Phi(0.1 + (0.1 + 1.959964) / (1 - 0.05 * 2.059964)) = Phi(2.396499) = 0.9917237
  // (scipy.stats.norm: cdf(0.1 + w / (1 - 0.05 w)), w = 0.1 + ppf(0.975)).
  const BcaEndpoint e = bca_endpoint(d, 0.975);
  CHECK(e.level == doctest::Approx(0.9917237).epsilon(1e-6));
  CHECK(e.value == doctest::Approx(991.7237).epsilon(1e-6));
  // z0 + z_q = 0.1 + 3.090232 and a (z0 + z_q) = 1.6 > 1: past the pole, q' = 1.
  d.acceleration = 0.5;
  CHECK(bca_endpoint(d, 0.999).level == 1);
  CHECK(bca_endpoint(d, 0.999).value == 1000);
  CHECK(bca_endpoint(d, 0.999).at_extreme);
  CHECK_FALSE(e.at_extreme);
}

TEST_CASE("gauss-fit's eps_est bootstrapped (Andrew et al. 2024, Alg. 3)") {
  // 1000 in scores ~ N(1,1), 1000 out ~ N(0,1): the Gaussian mechanism with
  // sensitivity/sigma 1, whose eps at delta 1e-5 is two_gaussian_epsilon = 4.377.
  const ScoreSet s(normals(1000, 1, 1, 21, 1), normals(1000, 0, 1, 21, 2));
  EstimatorOptions e;
  e.method = Method::gauss_fit;
  e.delta = 1e-5;
  const ScoreStatistic eps_est = [&](const ScoreSet& x) { return estimate_epsilon(x, e).epsilon; };
  BootstrapOptions o;
  o.replicates = 1000;
  o.threads = 2;
  const BootstrapDistribution d = bootstrap(s, eps_est, o);
  CHECK(d.estimate == estimate_epsilon(s, e).epsilon);
  const double truth = two_gaussian_epsilon({0, 1}, {1, 1}, 1e-5);
  CHECK(truth == doctest::Approx(4.377).epsilon(1e-3));
  const BcaInterval ci = bca_interval(d, 0.05);
  CHECK(ci.lower.value < d.estimate);
  CHECK(d.estimate < ci.upper.value);
  CHECK(ci.lower.value < truth);  // this seed's interval covers the truth (as 95% of them do)
  CHECK(truth < ci.upper.value);
  // The replicates lie above the estimate more often than not (z0 < 0, here p = 0.28):
  // for equal true variances the two-Gaussian eps grows as the variance ratio leaves 1
  // in either direction, and a resample's ratio scatters about the sample's. BCa
  // corrects for that bias by moving both endpoints' levels down.
  CHECK(d.z0 < -0.3);
  CHECK(ci.lower.level < 0.01);
  CHECK(ci.upper.level < 0.9);
  CHECK(ci.lower.at_extreme);  // q' = 0.0008: between the two lowest of 1000 replicates
  CHECK_FALSE(ci.upper.at_extreme);
  // The grouped jackknife (100 groups per class) estimates the same a as delete-1
  // (1000 per class) up to its Monte Carlo noise: sd 0.65 / 200 groups = 0.0033 for
  // Gaussian influences, ~25% more for gauss-fit's (bench/eps_from_scores.md).
  // Tolerance 0.0132: over 3 of the larger sds.
  o.jackknife_groups = 100;
  const BootstrapDistribution grouped = bootstrap(s, eps_est, o);
  CHECK(grouped.jackknife_groups_in == 100);
  CHECK(d.jackknife_groups_in == 1000);
  CHECK(std::abs(grouped.acceleration - d.acceleration) < 4 * 0.0033);
  CHECK(grouped.replicates == d.replicates);  // the groups do not touch the replicates
}

TEST_CASE(
    "bootstrap_epsilon: the estimator's bootstrap; against a null only the in scores are "
    "resampled") {
  const ScoreSet s(normals(60, 0.3, 0.1, 31, 1), normals(40, 0, 0.1, 31, 2));
  EstimatorOptions e;
  e.method = Method::gauss_fit;
  e.delta = 1e-5;
  BootstrapOptions o;
  o.replicates = 50;
  const BootstrapDistribution plain = bootstrap_epsilon(s, e, o);
  CHECK(plain.replicates ==
        bootstrap(
            s, [&](const ScoreSet& x) { return estimate_epsilon(x, e).epsilon; }, o)
            .replicates);
  CHECK(plain.jackknife_groups_out == 40);
  // With a null the out scores are no sample: the same result as with none at all, and
  // the jackknife deletes in scores only.
  e.null = CosineNull{100, NullKind::gaussian};
  const BootstrapDistribution null = bootstrap_epsilon(s, e, o);
  const BootstrapDistribution in_only = bootstrap_epsilon(ScoreSet(s.in(), {}), e, o);
  CHECK(null.replicates == in_only.replicates);
  CHECK(null.acceleration == in_only.acceleration);
  CHECK(null.jackknife_groups_in == 60);
  CHECK(null.jackknife_groups_out == 0);
  CHECK(null.estimate == estimate_epsilon(s, e).epsilon);
}
