#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/error.hpp"
#include "stats/score_summary.hpp"

using namespace dpaudit;

TEST_CASE("summary of sampled scores: counts, fits, AUROC, TPR at FPR, Anderson-Darling") {
  const ScoreSet s({0.4, 0.8, 0.9}, {0.1, 0.4, 0.7});
  const ScoreSummary m = summarize_scores(s, std::nullopt, kSummaryFprs, 0.05);
  CHECK(m.in.count == 3);
  CHECK(m.in.fit.mean == doctest::Approx(0.7));
  CHECK(m.out->fit.mean == doctest::Approx(0.4));
  CHECK(m.out->fit.stddev == doctest::Approx(std::sqrt(0.06)));  // deviations -0.3, 0, 0.3
  CHECK(m.auroc == doctest::Approx(7.5 / 9));
  // FPR <= 0.1%, 1%, 10% with 3 out scores allows none: the rule score >= 0.8.
  REQUIRE(m.tpr_at_fpr.size() == 3);
  for (const TprAtFpr& t : m.tpr_at_fpr) CHECK(t.tpr == doctest::Approx(2.0 / 3));
  // The attack metrics of the same scores (test_attack_metrics' hand example): hull
  // AUROC 8/9, best accuracy 5/6 at the rule score >= 0.8.
  REQUIRE(m.attack);
  CHECK(m.attack->auroc_convex_hull == doctest::Approx(8.0 / 9));
  CHECK(m.attack->accuracy.value == doctest::Approx(5.0 / 6));
  CHECK(m.attack->accuracy.threshold == 0.8);
  REQUIRE(m.in.anderson_darling);
  // scipy.stats.anderson([0.4, 0.8, 0.9], 'norm').statistic (scipy 1.10.1)
  CHECK(*m.in.anderson_darling == doctest::Approx(0.3122111459927579).epsilon(1e-10));
}

TEST_CASE("with a null, AUROC and TPR are against the null; a constant side has no A-D") {
  // Gaussian null N(0, 1/100): the in score 0 sits at its median; 0.5 is 5 sd out.
  const CosineNull null{100, NullKind::gaussian};
  const ScoreSummary m = summarize_scores(ScoreSet({0.0, 0.5}, {0.3}), null, kSummaryFprs, 0.05);
  CHECK(!m.out);
  CHECK(!m.attack);
  // (Phi(0) + Phi(5)) / 2 = (0.5 + 0.9999997133484281) / 2 (scipy.stats.norm.cdf(5)).
  CHECK(m.auroc == doctest::Approx((0.5 + 0.9999997133484281) / 2).epsilon(1e-10));
  // Thresholds norm.isf(f)/10 = 0.309, 0.233, 0.128 all keep 0.5 only.
  for (const TprAtFpr& t : m.tpr_at_fpr) CHECK(t.tpr == 0.5);
  // A target of its own: FPR <= 0.9 puts the threshold at norm.isf(0.9)/10 = -0.128, both in.
  CHECK(summarize_scores(ScoreSet({0.0, 0.5}, {}), null, {0.9}, 0.05).tpr_at_fpr[0].tpr == 1);
  CHECK_THROWS_AS(summarize_scores(ScoreSet({0.0, 0.5}, {}), null, {1.5}, 0.05), UsageError);
  CHECK(summarize_scores(ScoreSet({0.2, 0.2}, {}), null, kSummaryFprs, 0.05).in.anderson_darling ==
        std::nullopt);
  CHECK_THROWS_AS(summarize_scores(ScoreSet({0.2}, {}), std::nullopt, kSummaryFprs, 0.05),
                  UsageError);
}

TEST_CASE("AUROC against the exact null matches the mean of its exact CDF") {
  // 5000 in cosines ~ N(0.05, 0.03^2) against the exact null in 1000 dimensions; the
  // summary carries the CDF by integrating the density, the reference calls the exact
  // CDF (incomplete beta) at every score.
  std::mt19937_64 rng(13);
  std::normal_distribution<double> d(0.05, 0.03);
  std::vector<double> in(5000);
  for (double& x : in) x = d(rng);
  const CosineNull null{1000, NullKind::exact};
  const ScoreSummary m = summarize_scores(ScoreSet(in, {}), null, kSummaryFprs, 0.05);
  double exact = 0;
  for (double x : in) exact += std::exp(cosine_null_log_cdf(1000, x, NullKind::exact));
  CHECK(std::abs(m.auroc - exact / 5000) < 1e-12);
  CHECK(m.auroc > 0.8);  // the in cosines sit about 1.6 null sds above 0
}
