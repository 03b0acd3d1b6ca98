#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "core/error.hpp"
#include "stats/anderson_darling.hpp"

using namespace dpaudit;

TEST_CASE("A^2 matches scipy.stats.anderson(x, 'norm')") {
  // scipy.stats.anderson(x, 'norm').statistic with /usr/bin/python3, scipy 1.10.1.
  std::vector<double> x{0.3, -1.2, 2.5, 0.7, 0.1, -0.4, 1.9, -2.2, 0.05, 0.8, 3.1, -0.9};
  std::sort(x.begin(), x.end());
  CHECK(anderson_darling_normal(x) == doctest::Approx(0.1883842249985257).epsilon(1e-10));
  // 0, 1, ..., 999 (uniform, far from normal): 11.08500391222708.
  std::vector<double> uniform(1000);
  for (int i = 0; i < 1000; ++i) uniform[i] = i;
  CHECK(anderson_darling_normal(uniform) == doctest::Approx(11.08500391222708).epsilon(1e-10));
}

TEST_CASE("A^2 is invariant under shift and scale") {
  std::vector<double> x{-2.2, -1.2, -0.9, -0.4, 0.05, 0.1, 0.3, 0.7, 0.8, 1.9, 2.5, 3.1};
  std::vector<double> y(x.size());
  std::transform(x.begin(), x.end(), y.begin(), [](double v) { return 1e3 + 1e-4 * v; });
  CHECK(anderson_darling_normal(y) == doctest::Approx(anderson_darling_normal(x)).epsilon(1e-8));
}

TEST_CASE("critical values: Stephens' table scaled for n (scipy rounds to 3 digits)") {
  // scipy.stats.anderson(np.arange(1000.), 'norm').critical_values = [0.574 0.653 0.784
  // 0.914 1.088]; unscaled, the table is 0.656 at 10% and 1.092 at 1%, as quoted under Andrew et
  // al. 2024, Table 6.
  CHECK(anderson_darling_critical_value(1000, 10) == doctest::Approx(0.653).epsilon(1e-3));
  CHECK(anderson_darling_critical_value(1000, 1) == doctest::Approx(1.088).epsilon(1e-3));
  CHECK(anderson_darling_critical_value(12, 5) ==
        doctest::Approx(0.679).epsilon(1e-3));  // scipy: the 12 samples above, critical_values[2]
  CHECK_THROWS_AS(anderson_darling_critical_value(1000, 3), UsageError);
}

TEST_CASE("degenerate samples are refused") {
  CHECK_THROWS_AS(anderson_darling_normal({1.0}), UsageError);
  CHECK_THROWS_AS(anderson_darling_normal({2.0, 2.0, 2.0}), UsageError);
  CHECK_THROWS_AS(anderson_darling_normal({3.0, 1.0}), UsageError);
}
