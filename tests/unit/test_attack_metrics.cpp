#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "stats/attack_metrics.hpp"

using namespace dpaudit;

TEST_CASE("attack metrics by hand: in {0.4, 0.8, 0.9}, out {0.1, 0.4, 0.7}") {
  // Rules from the top: all out (0,0); 0.9 (1 in, 0 out); 0.8 (2, 0); 0.7 (2, 1);
  // 0.4 (3, 2); 0.1 (3, 3): m = 6. ROC points (0,0) (0,1/3) (0,2/3) (1/3,2/3) (2/3,1) (1,1).
  const AttackMetrics m =
      attack_metrics(ScoreSet({0.4, 0.8, 0.9}, {0.1, 0.4, 0.7}), {0, 0.34, 0.7, 1}, 0.05);
  CHECK(m.rules == 6);
  CHECK(m.n_in == 3);
  CHECK(m.n_out == 3);
  CHECK(m.auroc == doctest::Approx(7.5 / 9));  // Mann-Whitney, the 0.4 tie counts half
  // Hull (0,0) (0,2/3) (2/3,1) (1,1): (1/3,2/3) lies under the chord (5/6 at 1/3).
  // Area 2/3 * (2/3 + 1)/2 + 1/3 = 8/9.
  CHECK(m.auroc_convex_hull == doctest::Approx(8.0 / 9));
  REQUIRE(m.tpr_at_fpr.size() == 4);
  CHECK(m.tpr_at_fpr[0].max_fpr == 0);
  CHECK(m.tpr_at_fpr[0].tpr == doctest::Approx(2.0 / 3));  // rule 0.8
  CHECK(m.tpr_at_fpr[1].tpr ==
        doctest::Approx(2.0 / 3));  // 1 false positive allowed: rule 0.7 adds no in
  CHECK(m.tpr_at_fpr[2].tpr == 1);  // rule 0.4, 2 false positives
  CHECK(m.tpr_at_fpr[3].tpr == 1);
  // Best rule 0.8: 2 in right, 3 out right, 1 error in 6.
  CHECK(m.accuracy.value == doctest::Approx(5.0 / 6));
  CHECK(m.accuracy.threshold == 0.8);
  CHECK(m.balanced_accuracy.value == doctest::Approx(5.0 / 6));
  CHECK(m.balanced_accuracy.threshold == 0.8);
  // 1 - the 1 - 0.05/6 quantile of Beta(2, 5); the balanced bound from Beta(2, 2) at
  // 1 - 0.05/12 for FN = 1 of 3 and 1 - (0.05/12)^(1/3) for FP = 0 of 3
  // (tests/golden/attack_metrics.py, scipy.stats.beta.ppf).
  CHECK(m.accuracy.lower_bound == doctest::Approx(0.2830760220048413).epsilon(1e-12));
  CHECK(m.balanced_accuracy.lower_bound == doctest::Approx(0.09933031825938082).epsilon(1e-12));
}

TEST_CASE("separable scores: AUROC 1, accuracy 1, bounds in closed form") {
  // No errors at rule 2: Clopper-Pearson's upper bound of 0 errors in n is
  // 1 - a^(1/n). m = 5 rules (4 distinct scores + all out), alpha 0.05:
  //   accuracy  >= (0.05/5)^(1/4) = 0.316228
  //   balanced  >= ((0.05/10)^(1/2) + (0.05/10)^(1/2)) / 2 = 0.0707107
  const AttackMetrics m = attack_metrics(ScoreSet({2, 3}, {0, 1}), {0}, 0.05);
  CHECK(m.auroc == 1);
  CHECK(m.auroc_convex_hull == 1);
  CHECK(m.tpr_at_fpr[0].tpr == 1);
  CHECK(m.accuracy.value == 1);
  CHECK(m.accuracy.threshold == 2);
  CHECK(m.accuracy.lower_bound == doctest::Approx(std::pow(0.01, 0.25)).epsilon(1e-12));
  CHECK(m.balanced_accuracy.lower_bound == doctest::Approx(std::sqrt(0.005)).epsilon(1e-12));
}

TEST_CASE(
    "an attack no better than chance: the trivial rules, ties broken to the highest threshold") {
  // Reversed scores: every threshold rule is worse than "all out" (raw) and no better
  // than all in/all out for balanced accuracy (1/2).
  const AttackMetrics m = attack_metrics(ScoreSet({0, 1}, {2, 3, 4}), {0.5}, 0.05);
  CHECK(m.auroc == 0);
  CHECK(m.auroc_convex_hull == doctest::Approx(0.5));   // the chord from (0,0) to (1,1)
  CHECK(m.tpr_at_fpr[0].tpr == 0);                      // FPR <= 1/2 admits 1 out: rule 4, no in
  CHECK(m.accuracy.value == doctest::Approx(3.0 / 5));  // all out
  CHECK(m.accuracy.threshold == INFINITY);
  CHECK(m.balanced_accuracy.value == 0.5);
  CHECK(m.balanced_accuracy.threshold == INFINITY);  // all out reaches 1/2 first
  // All equal: one rule besides all out, no information.
  const AttackMetrics eq = attack_metrics(ScoreSet({1, 1}, {1, 1, 1}), {0}, 0.05);
  CHECK(eq.rules == 2);
  CHECK(eq.auroc == 0.5);
  CHECK(eq.auroc_convex_hull == 0.5);
  CHECK(eq.tpr_at_fpr[0].tpr == 0);
}

TEST_CASE(
    "golden: 200 in and 150 out scores on a 0.1 grid with ties (tests/golden/attack_metrics.py)") {
  std::vector<double> in, out;
  for (int i = 0; i < 200; ++i) in.push_back(((i * 7919) % 211 + 40) / 10.0);
  for (int j = 0; j < 150; ++j) out.push_back(((j * 104729) % 197) / 10.0);
  const AttackMetrics m =
      attack_metrics(ScoreSet(in, out), {0.0, 0.001, 0.01, 0.1, 0.5, 1.0}, 0.05);
  // Brute force over all pairs and rules in numpy/scipy; counts are exact, so the
  // AUROCs and rates agree to rounding (1e-14), the Beta quantiles to 1e-10.
  CHECK(m.rules == 236);
  CHECK(m.auroc == doctest::Approx(0.7064833333333334).epsilon(1e-14));
  CHECK(m.auroc_convex_hull == doctest::Approx(0.7128666666666664).epsilon(1e-14));
  const double tpr[] = {0.26, 0.26, 0.265, 0.355, 0.725, 1.0};
  for (int i = 0; i < 6; ++i) CHECK(m.tpr_at_fpr[i].tpr == doctest::Approx(tpr[i]).epsilon(1e-14));
  CHECK(m.accuracy.value == doctest::Approx(0.66).epsilon(1e-14));
  CHECK(m.accuracy.threshold == 4.5);
  CHECK(m.accuracy.lower_bound == doctest::Approx(0.5661769985175368).epsilon(1e-10));
  CHECK(m.balanced_accuracy.value == doctest::Approx(0.63).epsilon(1e-14));
  CHECK(m.balanced_accuracy.threshold == 19.5);
  CHECK(m.balanced_accuracy.lower_bound == doctest::Approx(0.5483808442421793).epsilon(1e-10));
}

TEST_CASE("bad input") {
  CHECK_THROWS_AS(attack_metrics(ScoreSet({1}, {}), {0.1}, 0.05), DataError);
  CHECK_THROWS_AS(attack_metrics(ScoreSet({}, {1}), {0.1}, 0.05), DataError);
  CHECK_THROWS_AS(attack_metrics(ScoreSet({1}, {0}), {1.5}, 0.05), UsageError);
  CHECK_THROWS_AS(attack_metrics(ScoreSet({1}, {0}), {NAN}, 0.05), UsageError);
  CHECK_THROWS_AS(attack_metrics(ScoreSet({1}, {0}), {0.1}, 0), UsageError);
}
