#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "accounting/two_gaussian.hpp"
#include "core/error.hpp"
#include "random/philox_stream.hpp"
#include "stats/bootstrap.hpp"
#include "stats/epsilon_estimators.hpp"
#include "stats/gauss_fit_interval.hpp"

#include "philox_normals.hpp"

using namespace dpaudit;

namespace {

EstimatorOptions gauss_fit(double delta) {
  EstimatorOptions e;
  e.method = Method::gauss_fit;
  e.delta = delta;
  return e;
}

const std::array<double, 3> kIdentity{1, 0, 1};

}  // namespace

TEST_CASE("the region's radius solves 1 - Phi(r) + exp(-r^2/2)/2 = alpha") {
  // Reference roots from scipy 1.10 (brentq on norm.sf(r) + 0.5*exp(-r*r/2) - alpha,
  // xtol 1e-15).
  CHECK(fit_region_radius(0.05) == doctest::Approx(2.2667996791338774).epsilon(1e-12));
  CHECK(fit_region_radius(0.1) == doctest::Approx(1.9513605812737895).epsilon(1e-12));
  CHECK(fit_region_radius(0.01) == doctest::Approx(2.876326193112652).epsilon(1e-12));
  // Wider than the 1.96 of a smooth function (each end missing 2.5%), narrower than
  // the chi^2_2 region's sqrt(5.991) = 2.448.
  CHECK(fit_region_radius(0.05) > 1.96);
  CHECK(fit_region_radius(0.05) < 2.448);
  CHECK_THROWS_AS(fit_region_radius(0), UsageError);
  CHECK_THROWS_AS(fit_region_radius(1), UsageError);
}

TEST_CASE("range over an ellipse: closed forms for a linear function and a kink") {
  // Linear f = g'x on {(x - c)' S^-1 (x - c) <= r^2}: f(c) -+ r sqrt(g' S g); here
  // g'Sg = 9*2 + 2*3*4*0.5 + 16*1 = 46.
  const auto linear = [](const std::array<double, 2>& x) { return 3 * x[0] + 4 * x[1]; };
  EllipseRange e = range_over_ellipse({1, 2}, {2, 0.5, 1}, 1.5, linear, {}, {});
  CHECK(e.lower == doctest::Approx(11 - 1.5 * std::sqrt(46.0)).epsilon(1e-9));
  CHECK(e.upper == doctest::Approx(11 + 1.5 * std::sqrt(46.0)).epsilon(1e-9));
  // f = x + 10|y| on the unit disk about (0.5, 0.2): the minimum sits on the kink y = 0,
  // at x = 0.5 - sqrt(1 - 0.2^2); the maximum is 0.5 + 2 + max_t (cos t + 10 sin t) =
  // 2.5 + sqrt(101).
  const auto kink = [](const std::array<double, 2>& x) { return x[0] + 10 * std::abs(x[1]); };
  e = range_over_ellipse({0.5, 0.2}, kIdentity, 1, kink, {{1, 0.0}}, {});
  CHECK(e.lower == doctest::Approx(0.5 - std::sqrt(0.96)).epsilon(1e-12));
  CHECK(e.argmin[1] == doctest::Approx(0).epsilon(1e-12));
  CHECK(e.upper == doctest::Approx(2.5 + std::sqrt(101.0)).epsilon(1e-9));
  // An interior minimum is found only where it is declared (and at the centre): |x| + |y|
  // is 0 at the origin; undeclared, the least value seen is the centre's 0.2 (the
  // boundary's least is 0.895 at its crossings of the axes).
  const auto cone = [](const std::array<double, 2>& x) { return std::abs(x[0]) + std::abs(x[1]); };
  CHECK(range_over_ellipse({0.1, 0.1}, kIdentity, 1, cone, {{0, 0.0}, {1, 0.0}}, {{0, 0}}).lower ==
        0);
  CHECK(range_over_ellipse({0.1, 0.1}, kIdentity, 1, cone, {{0, 0.0}, {1, 0.0}}, {{5, 5}}).lower ==
        doctest::Approx(0.2).epsilon(1e-15));
  // Degenerate: a zero covariance (or radius) is the centre; a singular one a segment.
  e = range_over_ellipse({1, 2}, {0, 0, 0}, 2, linear, {}, {});
  CHECK(e.lower == 11);
  CHECK(e.upper == 11);
  e = range_over_ellipse({1, 2}, {1, 1, 1}, 1, linear, {}, {});  // x - 1 = y - 2 = u, |u| <= 1
  CHECK(e.lower == doctest::Approx(4).epsilon(1e-9));
  CHECK(e.upper == doctest::Approx(18).epsilon(1e-9));
  CHECK_THROWS_AS(range_over_ellipse({0, 0}, {1, 2, 1}, 1, linear, {}, {}), UsageError);
  CHECK_THROWS_AS(range_over_ellipse({0, 0}, kIdentity, -1, linear, {}, {}), UsageError);
  CHECK_THROWS_AS(range_over_ellipse({0, 0}, kIdentity, 1,
                                     [](const std::array<double, 2>&) { return NAN; }, {}, {}),
                  DataError);
}

TEST_CASE(
    "the radius gives the nominal miss rate in the least favourable case, 2 Q(r) where smooth") {
  // phi-hat ~ N(0, I) about the truth 0; f = u + 1000 |v| is the kink whose g-term
  // dominates (a wedge of half-angle 0.001), where the lower end misses with probability
  // Q(r) + exp(-r^2/2)/2 - 0.001/pi exp(-r^2/2) = 0.04998 and the upper end never; a
  // linear f misses with 2 Q(r) = 0.0234 (scipy). 20,000 draws: sds 0.0015 and 0.0011;
  // tolerances 4 sds.
  const double r = fit_region_radius(0.05);
  const auto kink = [](const std::array<double, 2>& x) { return x[0] + 1000 * std::abs(x[1]); };
  const auto linear = [](const std::array<double, 2>& x) { return x[0]; };
  PhiloxStream rng(5, 0);
  std::size_t lower_miss = 0, upper_miss = 0, linear_miss = 0;
  const std::size_t draws = 20000;
  for (std::size_t i = 0; i < draws; ++i) {
    const std::array<double, 2> z{rng.normal(), rng.normal()};
    const EllipseRange k = range_over_ellipse(z, kIdentity, r, kink, {{1, 0.0}}, {{0, 0}});
    lower_miss += k.lower > 0;
    upper_miss += k.upper < 0;
    const EllipseRange l = range_over_ellipse(z, kIdentity, r, linear, {}, {});
    linear_miss += l.lower > 0 || l.upper < 0;
  }
  CHECK(std::abs(static_cast<double>(lower_miss) / draws - 0.04998) < 4 * 0.0015);
  CHECK(upper_miss == 0);
  CHECK(std::abs(static_cast<double>(linear_miss) / draws - 0.0234) < 4 * 0.0011);
}

TEST_CASE("gauss-fit's interval: its parts, against the delta method and a brute-force search") {
  // 1000 in ~ N(2,1), 1000 out ~ N(0,1): the Gaussian mechanism, eps 9.997 at delta 1e-5.
  const ScoreSet s(normals(1000, 2, 1, 41, 0), normals(1000, 0, 1, 41, 1));
  const EstimatorOptions e = gauss_fit(1e-5);
  BootstrapOptions o;
  o.replicates = 1000;
  o.seed = 3;
  const GaussFitInterval g = gauss_fit_interval(s, e, o);
  const EpsilonEstimate est = estimate_epsilon(s, e);
  CHECK(g.estimate == est.epsilon);
  CHECK(g.radius == fit_region_radius(0.05));
  CHECK(g.replicates == 1000);
  const double d = (est.fit_in->mean - est.fit_out->mean) / est.fit_out->stddev;
  CHECK(g.center[0] == d);
  CHECK(g.center[1] == std::log(est.fit_in->stddev / est.fit_out->stddev));
  // The bootstrap covariance of (d, g) against the delta method for Gaussian scores:
  // var d = rho^2/n + 1/n + d^2/(2n), var g = 1/n, cov = d/(2n) (rho = s_in/s_out); the
  // bootstrap's own error at B = 1000 and the sample's are a few percent: 15% allowed.
  const double rho2 = std::exp(2 * g.center[1]), n = 1000;
  CHECK(g.covariance[0] == doctest::Approx((rho2 + 1 + d * d / 2) / n).epsilon(0.15));
  CHECK(g.covariance[1] == doctest::Approx(d / (2 * n)).epsilon(0.15));
  CHECK(g.covariance[2] == doctest::Approx(1 / n).epsilon(0.15));
  // The ends are the range of eps over the ellipse's boundary: none of 3,600 boundary
  // points lies outside them, and the closest come within 0.1% of each.
  double lowest = INFINITY, highest = 0;
  const double l11 = std::sqrt(g.covariance[0]), l21 = g.covariance[1] / l11;
  const double l22 = std::sqrt(g.covariance[2] - l21 * l21);
  for (int i = 0; i < 3600; ++i) {
    const double t = 2 * M_PI * i / 3600;
    const double x = g.center[0] + g.radius * l11 * std::cos(t);
    const double y = g.center[1] + g.radius * (l21 * std::cos(t) + l22 * std::sin(t));
    const double v = two_gaussian_epsilon({0, 1}, {x, std::exp(y)}, 1e-5);
    lowest = std::min(lowest, v);
    highest = std::max(highest, v);
  }
  CHECK(g.lower <= lowest);
  CHECK(g.upper >= highest);
  CHECK(g.lower == doctest::Approx(lowest).epsilon(1e-3));
  CHECK(g.upper == doctest::Approx(highest).epsilon(1e-3));
  // It covers the truth here (as 95% of samples do), below the estimate's upward bias.
  const double truth = two_gaussian_epsilon({0, 1}, {2, 1}, 1e-5);
  CHECK(g.lower < truth);
  CHECK(truth < g.upper);
  CHECK(g.lower < g.estimate);
  CHECK(g.estimate < g.upper);
  // The replicates are those bootstrap_epsilon evaluates: the same mean and sd.
  const BootstrapDistribution b = bootstrap_epsilon(s, e, o);
  double mean = 0;
  for (double x : b.replicates) mean += x;
  CHECK(g.replicate_mean == doctest::Approx(mean / 1000).epsilon(1e-12));
  CHECK(g.standard_error == doctest::Approx(b.standard_error).epsilon(1e-9));
  CHECK(g.replicate_mean > g.estimate);  // eps grows as the resamples' spreads part
}

TEST_CASE("gauss-fit's interval: byte-identical for any thread count; a null; errors") {
  const ScoreSet s(normals(300, 1, 1.1, 43, 0), normals(200, 0, 1, 43, 1));
  const EstimatorOptions e = gauss_fit(1e-6);
  BootstrapOptions o;
  o.replicates = 200;
  o.seed = 9;
  const GaussFitInterval one = gauss_fit_interval(s, e, o);
  for (int threads : {2, 3}) {
    o.threads = threads;
    const GaussFitInterval many = gauss_fit_interval(s, e, o);
    CHECK(many.lower == one.lower);
    CHECK(many.upper == one.upper);
    CHECK(many.covariance == one.covariance);
    CHECK(many.replicate_mean == one.replicate_mean);
  }
  // Against the Gaussian cosine null N(0, 1/100) only the in scores are resampled:
  // phi = (mu_in, log s_in), and out scores change nothing.
  EstimatorOptions n = e;
  n.null = CosineNull{100, NullKind::gaussian};
  const ScoreSet cos(normals(300, 0.3, 0.1, 47, 0), normals(200, 0, 0.1, 47, 1));
  const GaussFitInterval null = gauss_fit_interval(cos, n, o);
  const GaussFitInterval in_only = gauss_fit_interval(ScoreSet(cos.in(), {}), n, o);
  CHECK(null.lower == in_only.lower);
  CHECK(null.upper == in_only.upper);
  CHECK(null.estimate == estimate_epsilon(cos, n).epsilon);
  CHECK(null.center[0] == estimate_epsilon(cos, n).fit_in->mean);
  CHECK(null.covariance[2] == doctest::Approx(1 / (2 * 300.0)).epsilon(0.3));  // var log s = 1/(2n)
  CHECK(null.lower < null.estimate);
  CHECK(null.estimate < null.upper);

  EstimatorOptions t = e;
  t.method = Method::threshold;
  CHECK_THROWS_AS(gauss_fit_interval(s, t, o), UsageError);
  o.replicates = 1;
  CHECK_THROWS_AS(gauss_fit_interval(s, e, o), UsageError);
  // A resample of {1, 1, 1, 2} is all ones with probability (3/4)^4: gauss-fit refuses
  // it, named by its replicate.
  o.replicates = 50;
  try {
    gauss_fit_interval(ScoreSet({1, 1, 1, 2}, {0, 0.5, 1}), e, o);
    FAIL("no error");
  } catch (const DataError& error) {
    CHECK(std::string(error.what()).find("all in scores are equal") != std::string::npos);
    CHECK(std::string(error.what()).find("bootstrap replicate") != std::string::npos);
  }
  CHECK_THROWS_AS(gauss_fit_interval(ScoreSet({1, 1}, {0, 1}), e, o), DataError);  // on the scores
}

TEST_CASE(
    "coverage over 400 seeded audits of the Gaussian mechanism (mu 2, 1000 scores per class)") {
  // Each audit draws 1000 in ~ N(2,1) and 1000 out ~ N(0,1); truth eps 9.997 at delta
  // 1e-5; B = 200 (the full figures, B = 1000: bench/bootstrap_coverage.md). A 95%
  // interval covers in k of 400 with k ~ Binomial(400, 0.95): P(k < 356) = 4.6e-7
  // (scipy binom.cdf(355, 400, 0.95)). This interval covers 380 of them; the BCa
  // interval it replaced (bootstrap_epsilon + bca_interval, same scores and seeds) 306,
  // and fails here.
  const EstimatorOptions e = gauss_fit(1e-5);
  const double truth = two_gaussian_epsilon({0, 1}, {2, 1}, 1e-5);
  std::size_t covered = 0;
  for (std::uint64_t run = 0; run < 400; ++run) {
    const ScoreSet s(normals(1000, 2, 1, 7000 + run, 0), normals(1000, 0, 1, 7000 + run, 1));
    BootstrapOptions o;
    o.replicates = 200;
    o.seed = run;
    o.threads = 0;
    const GaussFitInterval g = gauss_fit_interval(s, e, o);
    covered += g.lower <= truth && truth <= g.upper;
  }
  CHECK(covered >= 356);
}
