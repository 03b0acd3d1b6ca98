#include "stats/empirical_curve.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "random/philox_stream.hpp"
#include "stats/binomial_bounds.hpp"
#include "stats/epsilon_estimators.hpp"

using namespace dpaudit;

namespace {

// Gaussian scores: out ~ N(0, 1), in ~ N(mu, 1), n each (Philox stream 7 of seed 11).
ScoreSet gaussian_scores(double mu, std::size_t n) {
  PhiloxStream rng(11, 7);
  std::vector<double> in(n), out(n);
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = rng.normal();
    in[i] = mu + rng.normal();
  }
  return ScoreSet(in, out);
}

}  // namespace

TEST_CASE("roc band: each rate's Clopper-Pearson bound at alpha / (2K), the frontier only") {
  // Three in scores above three out scores, all distinct: K = 6 thresholds.
  const ScoreSet s({4, 5, 6}, {1, 2, 3});
  const std::vector<BandPoint> band = roc_band(s, 0.05);
  const double level = 0.05 / 12;
  // Rules t = 6, 5, 4 have no false positive (the same FPR_hi) and 1, 2, 3 true ones: t = 4
  // dominates them; t = 3, 2, 1 add false positives and no true one: dominated by t = 4.
  REQUIRE(band.size() == 1);
  CHECK(band.front().threshold == 4);
  CHECK(band.front().fpr == 0);
  CHECK(band.front().tpr == 1);
  CHECK(band.front().fpr_hi == doctest::Approx(clopper_pearson_upper(0, 3, level)));
  CHECK(band.front().tpr_lo == doctest::Approx(1 - clopper_pearson_upper(0, 3, level)));
  // Overlapping classes: a frontier of several rules.
  const std::vector<BandPoint> wide = roc_band(ScoreSet({2, 4, 5, 7}, {1, 3, 6}), 0.05);
  REQUIRE(wide.size() >= 2);
  // Frontier: fpr_hi and tpr_lo strictly increase along it.
  for (std::size_t i = 1; i < wide.size(); ++i) {
    CHECK(wide[i].fpr_hi > wide[i - 1].fpr_hi);
    CHECK(wide[i].tpr_lo > wide[i - 1].tpr_lo);
  }
  CHECK_THROWS_AS(roc_band(ScoreSet({1, 2}, {}), 0.05), DataError);
  CHECK_THROWS_AS(roc_band(s, 1.0), UsageError);
}

TEST_CASE("band_epsilon is eps-from-scores' default (Clopper-Pearson, Bonferroni) at every delta") {
  for (double mu : {1.0, 3.0}) {
    const ScoreSet s = gaussian_scores(mu, 2000);
    const std::vector<BandPoint> band = roc_band(s, 0.05);
    for (double delta : {0.0, 1e-5, 1e-3, 0.1}) {
      EstimatorOptions o;
      o.delta = delta;
      CHECK(band_epsilon(band, delta) ==
            doctest::Approx(estimate_epsilon(s, o).epsilon).epsilon(1e-12));
    }
    // eps_lo falls as delta grows.
    const std::vector<double> grid = delta_grid();
    for (std::size_t i = 1; i < grid.size(); ++i)
      CHECK(band_epsilon(band, grid[i]) >= band_epsilon(band, grid[i - 1]));
  }
}

TEST_CASE("the delta grid: 0.1 down to 1e-10, four points a decade") {
  const std::vector<double> grid = delta_grid();
  REQUIRE(grid.size() == 37);
  CHECK(grid.front() == doctest::Approx(0.1));
  CHECK(grid[4] == doctest::Approx(0.01));
  CHECK(grid.back() == doctest::Approx(1e-10));
}
