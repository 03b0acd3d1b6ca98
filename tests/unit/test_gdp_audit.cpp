#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include <boost/math/distributions/normal.hpp>

#include "accounting/gdp.hpp"
#include "core/error.hpp"
#include "stats/binomial_bounds.hpp"
#include "stats/gdp_audit.hpp"
#include "stats/roc.hpp"

using namespace dpaudit;

namespace {

double phi(double x) { return boost::math::cdf(boost::math::normal(), x); }

// n in scores above n out scores.
ScoreSet separated(int n) {
  std::vector<double> in, out;
  for (int i = 0; i < n; ++i) {
    in.push_back(10 + i);
    out.push_back(i - n);
  }
  return ScoreSet(in, out);
}

}  // namespace

TEST_CASE("mu from rates: the N(0,1) vs N(mu,1) trade-off (Dong, Roth & Su Eq. 6)") {
  CHECK(gdp_mu_from_rates(0.5, 0.5) == doctest::Approx(0).epsilon(1e-15));
  // The test "x >= mu/2" between N(0,1) and N(mu,1) has FPR = FNR = Phi(-mu/2).
  for (double mu : {0.5, 1.0, 2.0, 6.0}) CHECK(gdp_mu_from_rates(phi(-mu / 2), phi(-mu / 2)) == doctest::Approx(mu).epsilon(1e-12));
  CHECK(gdp_mu_from_rates(1e-300, 0.5) == doctest::Approx(37.0471).epsilon(1e-5));  // -Phi^-1(1e-300), no 1 - 1e-300 rounding
  CHECK(gdp_mu_from_rates(1.0, 0.1) == -INFINITY);
  CHECK_THROWS_AS(gdp_mu_from_rates(0, 0.1), UsageError);
  CHECK_THROWS_AS(gdp_mu_from_rates(NAN, 0.1), UsageError);
}

TEST_CASE("separated scores: mu = -2 Phi^-1(1 - a^(1/n)), eps on the Gaussian mechanism's curve") {
  // 1000 in above 1000 out, fixed rule between them: both counts 0, each Clopper-Pearson
  // bound u = 1 - (alpha/2)^(1/1000) (binomial_bounds' closed form at k = 0).
  const double u = 1 - std::pow(0.025, 1e-3);
  const double mu = -2 * boost::math::quantile(boost::math::normal(), u);
  const GdpAuditEstimate e = gdp_audit(separated(1000), 1e-5, 0.05, ThresholdChoice::fixed, 5);
  CHECK(e.mu == doctest::Approx(mu).epsilon(1e-10));
  CHECK(e.fpr == 0);
  CHECK(e.fnr == 0);
  CHECK(e.thresholds_tried == 1);
  CHECK(e.epsilon == doctest::Approx(gdp_epsilon(mu, 1e-5)).epsilon(1e-12));
  // The eps printed is where DRS Cor. 2.13's delta(eps) equals the delta asked for.
  CHECK(gdp_delta(e.mu, e.epsilon) == doctest::Approx(1e-5).epsilon(1e-6));
  // Bonferroni over the 2000 distinct scores: each rate at alpha / 2 / 2000; the best
  // rule is the one between the classes, which gives the same closed form.
  const GdpAuditEstimate b = gdp_audit(separated(1000), 1e-5, 0.05, ThresholdChoice::bonferroni);
  const double ub = 1 - std::pow(0.05 / 4000, 1e-3);
  CHECK(b.thresholds_tried == 2000);
  CHECK(b.alpha_per_rate == doctest::Approx(0.05 / 4000).epsilon(1e-15));
  CHECK(b.mu == doctest::Approx(-2 * boost::math::quantile(boost::math::normal(), ub)).epsilon(1e-10));
  CHECK(*b.threshold == 10);
  CHECK(b.epsilon < e.epsilon);
}

TEST_CASE("the branch and bound finds the best of all thresholds") {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> z;
  for (int trial = 0; trial < 5; ++trial) {
    std::vector<double> in, out;
    for (int i = 0; i < 700; ++i) in.push_back(z(rng) + 1.5);
    for (int i = 0; i < 500; ++i) out.push_back(std::round(4 * z(rng)) / 4);  // ties
    const ScoreSet s(in, out);
    const double a = 1e-3;
    const RocSweep sweep = roc_sweep(s.in(), s.out());
    double best = -INFINITY;
    for (const OperatingPoint& p : sweep.points) {
      const double f = clopper_pearson_upper(p.false_positives, sweep.n_out, a);
      const double n = clopper_pearson_upper(sweep.false_negatives(p), sweep.n_in, a);
      if (f < 1 && n < 1) best = std::max(best, gdp_mu_from_rates(f, n));
    }
    const GdpAuditEstimate e = gdp_audit_sweep(s, 1e-5, a);
    CHECK(e.mu == best);
    CHECK(e.mu == gdp_mu_from_rates(e.fpr_bound, e.fnr_bound));
  }
}

TEST_CASE("no evidence gives 0; bad arguments") {
  const ScoreSet same({1, 2, 3}, {1, 2, 3});
  const GdpAuditEstimate e = gdp_audit(same, 1e-5, 0.05, ThresholdChoice::bonferroni);
  CHECK(e.mu <= 0);
  CHECK(e.epsilon == 0);
  CHECK_THROWS_AS(gdp_audit(same, 0, 0.05, ThresholdChoice::max), UsageError);
  CHECK_THROWS_AS(gdp_audit(same, 1e-5, 1, ThresholdChoice::max), UsageError);
  CHECK_THROWS_AS(gdp_audit(same, 1e-5, 0.05, ThresholdChoice::split), UsageError);
  CHECK_THROWS_AS(gdp_audit(ScoreSet({1}, {}), 1e-5, 0.05, ThresholdChoice::max), DataError);
}
