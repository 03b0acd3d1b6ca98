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

double phi(double x) {
  return boost::math::cdf(boost::math::normal(), x);
}

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
  for (double mu : {0.5, 1.0, 2.0, 6.0})
    CHECK(gdp_mu_from_rates(phi(-mu / 2), phi(-mu / 2)) == doctest::Approx(mu).epsilon(1e-12));
  CHECK(gdp_mu_from_rates(1e-300, 0.5) ==
        doctest::Approx(37.0471).epsilon(1e-5));  // -Phi^-1(1e-300), no 1 - 1e-300 rounding
  CHECK(gdp_mu_from_rates(1.0, 0.1) == -INFINITY);
  CHECK_THROWS_AS(gdp_mu_from_rates(0, 0.1), UsageError);
  CHECK_THROWS_AS(gdp_mu_from_rates(NAN, 0.1), UsageError);
}

TEST_CASE("separated scores: mu = -2 Phi^-1(1 - a^(1/n)), eps on the Gaussian mechanism's curve") {
  // 1000 in above 1000 out, fixed rule between them: both counts 0, each Clopper-Pearson
  // bound u = 1 - (alpha/2)^(1/1000) (binomial_bounds' closed form at k = 0).
  const double u = 1 - std::pow(0.025, 1e-3);
  const double mu = -2 * boost::math::quantile(boost::math::normal(), u);
  const GdpAuditEstimate e = gdp_audit(separated(1000), 1e-5, 0.05, {ThresholdChoice::fixed, 5});
  CHECK(e.mu == doctest::Approx(mu).epsilon(1e-10));
  CHECK(e.fpr == 0);
  CHECK(e.fnr == 0);
  CHECK(e.thresholds_tried == 1);
  CHECK(e.epsilon == doctest::Approx(gdp_epsilon(mu, 1e-5)).epsilon(1e-12));
  // The eps printed is where DRS Cor. 2.13's delta(eps) equals the delta asked for.
  CHECK(gdp_delta(e.mu, e.epsilon) == doctest::Approx(1e-5).epsilon(1e-6));
  // Bonferroni over the 2000 distinct scores: each rate at alpha / 2 / 2000; the best
  // rule is the one between the classes, which gives the same closed form.
  const GdpAuditEstimate b = gdp_audit(separated(1000), 1e-5, 0.05, {ThresholdChoice::bonferroni});
  const double ub = 1 - std::pow(0.05 / 4000, 1e-3);
  CHECK(b.thresholds_tried == 2000);
  CHECK(b.alpha_per_rate == doctest::Approx(0.05 / 4000).epsilon(1e-15));
  CHECK(b.mu ==
        doctest::Approx(-2 * boost::math::quantile(boost::math::normal(), ub)).epsilon(1e-10));
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

TEST_CASE("no evidence: mu = 0 and eps = 0, never -inf") {
  // Identical classes: every rule has FPR_hi + FNR_hi >= 1, mu_at would be <= 0 or -inf.
  const ScoreSet same({1, 2, 3}, {1, 2, 3});
  for (ThresholdChoice c :
       {ThresholdChoice::bonferroni, ThresholdChoice::max, ThresholdChoice::uncorrected}) {
    const GdpAuditEstimate e = gdp_audit(same, 1e-5, 0.05, {c});
    CHECK(e.mu == 0);
    CHECK(e.epsilon == 0);
  }
  // A fixed rule above every score says in for none: FNR = 1, mu_at = -inf, reported as 0.
  const GdpAuditEstimate top = gdp_audit(same, 1e-5, 0.05, {ThresholdChoice::fixed, 10});
  CHECK(top.mu == 0);
  CHECK(top.fnr_bound == 1);
  CHECK(top.epsilon == 0);
}

TEST_CASE("strategies: uncorrected spends alpha on each rate; split and multi-split are seeded") {
  std::mt19937_64 rng(5);
  std::normal_distribution<double> z;
  std::vector<double> in, out;
  for (int i = 0; i < 400; ++i) in.push_back(z(rng) + 2);
  for (int i = 0; i < 400; ++i) out.push_back(z(rng));
  const ScoreSet s(in, out);
  const GdpAuditEstimate unc = gdp_audit(s, 1e-5, 0.05, {ThresholdChoice::uncorrected});
  CHECK(unc.alpha_per_rate == 0.05);
  CHECK(unc.mu == gdp_audit_sweep(s, 1e-5, 0.05).mu);
  const GdpAuditEstimate max = gdp_audit(s, 1e-5, 0.05, {ThresholdChoice::max});
  const GdpAuditEstimate bon = gdp_audit(s, 1e-5, 0.05, {ThresholdChoice::bonferroni});
  CHECK(bon.mu < max.mu);
  CHECK(max.mu < unc.mu);
  // split: the held-out half, at alpha/2 per rate, rule chosen on the other half.
  ThresholdStrategy split{ThresholdChoice::split};
  split.seed = 3;
  const GdpAuditEstimate a = gdp_audit(s, 1e-5, 0.05, split);
  CHECK(a.n_in == 200);
  CHECK(a.n_out == 200);
  CHECK(a.alpha_per_rate == 0.025);
  CHECK(a.mu == gdp_audit(s, 1e-5, 0.05, split).mu);
  // multi-split: the median of 11 splits at alpha/4 per rate, the same for any thread count.
  ThresholdStrategy multi{ThresholdChoice::multi_split};
  multi.seed = 3;
  multi.splits = 11;
  const GdpAuditEstimate m1 = gdp_audit(s, 1e-5, 0.05, multi);
  multi.threads = 3;
  const GdpAuditEstimate m3 = gdp_audit(s, 1e-5, 0.05, multi);
  CHECK(m1.mu == m3.mu);
  CHECK(m1.splits == 11);
  CHECK(m1.alpha_per_rate == 0.0125);
  // Odd count: the median is the lower middle split's own mu, whose rule is reported.
  CHECK(m1.mu == gdp_mu_from_rates(m1.fpr_bound, m1.fnr_bound));
  CHECK(m1.mu > 0);
  CHECK(m1.mu < max.mu);
}

TEST_CASE("bad arguments") {
  const ScoreSet same({1, 2, 3}, {1, 2, 3});
  CHECK_THROWS_AS(gdp_audit(same, 0, 0.05, {ThresholdChoice::max}), UsageError);
  CHECK_THROWS_AS(gdp_audit(same, 1e-5, 1, {ThresholdChoice::max}), UsageError);
  CHECK_THROWS_AS(gdp_audit(ScoreSet({1}, {}), 1e-5, 0.05, {ThresholdChoice::max}), DataError);
  CHECK_THROWS_AS(gdp_audit(ScoreSet({1}, {2}), 1e-5, 0.05, {ThresholdChoice::split}), DataError);
}
