#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "accounting/two_gaussian.hpp"
#include "core/error.hpp"
#include "stats/auroc.hpp"

using namespace dpaudit;

TEST_CASE("AUROC counts ties as half (Mann-Whitney)") {
  // in {0.4, 0.8, 0.9} vs out {0.1, 0.4, 0.7}: 0.9 and 0.8 beat all 3 outs, 0.4 beats
  // 0.1 and ties 0.4: (3 + 3 + 1 + 1/2) / 9.
  const RocSweep s = roc_sweep({0.4, 0.8, 0.9}, {0.1, 0.4, 0.7});
  CHECK(auroc(s) == doctest::Approx(7.5 / 9));
  CHECK(auroc(roc_sweep({2, 3}, {0, 1})) == 1.0);
  CHECK(auroc(roc_sweep({0, 1}, {2, 3})) == 0.0);
  CHECK(auroc(roc_sweep({1, 1}, {1, 1})) == 0.5);
}

TEST_CASE("TPR at FPR: the best rule whose FPR stays within the target") {
  const RocSweep s = roc_sweep({0.4, 0.8, 0.9}, {0.1, 0.4, 0.7});
  CHECK(tpr_at_fpr(s, 0.0) == doctest::Approx(2.0 / 3));        // t = 0.8: 2 in, 0 out
  CHECK(tpr_at_fpr(s, 0.34) == doctest::Approx(2.0 / 3));       // t = 0.7: 1 out of 3 allowed
  CHECK(tpr_at_fpr(s, 0.7) == 1.0);                             // t = 0.4: 2 out of 3
  CHECK(tpr_at_fpr(roc_sweep({0.5}, {0.1, 0.9}), 0.1) == 0.0);  // the top score is out
  CHECK_THROWS_AS(tpr_at_fpr(roc_sweep({0.5}, {}), 0.1), UsageError);
}

TEST_CASE("against a continuous out-distribution N(0,1)") {
  const auto log_cdf = [](double t) { return log_normal_cdf(t); };
  const auto log_sf = [](double t) { return log_normal_sf(t); };
  const auto log_pdf = [](double t) { return -t * t / 2 - 0.5 * std::log(2 * M_PI); };
  CHECK(auroc_against({0.0}, log_cdf, log_pdf) == doctest::Approx(0.5));
  // In scores ~ N(1,1): AUROC = P(X > Y) = Phi(1/sqrt 2) = 0.760249 (closed form).
  std::mt19937_64 rng(5);
  std::normal_distribution<double> in_dist(1, 1);
  std::vector<double> in(200000);
  for (double& x : in) x = in_dist(rng);
  std::sort(in.begin(), in.end());
  const double fast = auroc_against(in, log_cdf, log_pdf);
  CHECK(fast == doctest::Approx(0.7602499389065233).epsilon(3e-3));
  // The carried CDF agrees with the exact CDF at every score to 1e-12.
  double exact = 0;
  for (double s : in) exact += std::exp(log_cdf(s));
  CHECK(std::abs(fast - exact / in.size()) < 1e-12);
  // Sparse scores (wide gaps) fall back to exact CDFs: (Phi(-3) + Phi(0) + Phi(3)) / 3 = 1/2.
  CHECK(auroc_against({-3, 0, 3}, log_cdf, log_pdf) == doctest::Approx(0.5).epsilon(1e-14));
  // norm.isf(0.1) = 1.2816, norm.isf(0.01) = 2.3263.
  const std::vector<double> sorted{1.5, 2.0, 3.0};
  CHECK(tpr_at_fpr_against(sorted, log_sf, 0.1, -10, 10) == 1.0);
  CHECK(tpr_at_fpr_against(sorted, log_sf, 0.01, -10, 10) == doctest::Approx(1.0 / 3));
  // With scores confined to [-1, 1], N(0,1) leaves 0.16 > 0.001 above 1: no rule qualifies.
  CHECK(tpr_at_fpr_against({0.5, 0.9}, log_sf, 0.001, -1, 1) == 0.0);
}
