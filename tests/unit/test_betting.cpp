#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "random/philox_stream.hpp"
#include "stats/betting.hpp"

using namespace dpaudit;

TEST_CASE("betting: a sure win stakes the largest fraction from the second trial on") {
  // lambda_1 = 0; after g = 1: z = 1, A = 2, lambda_2 = min(1/2, (2 / (2 - ln 3)) / 2) = 1/2
  // (the gain 2.2188 / 2 > 1/2), and it stays there: W_t = 1.5^(t - 1) exactly.
  BettingLanes lanes(1);
  const double one = 1.0;
  lanes.bet(0, 1, &one);
  CHECK(lanes.wealth(0) == 1.0);
  CHECK(lanes.fraction(0) == 0.5);
  for (int t = 2; t <= 10; ++t) lanes.bet(0, 1, &one);
  CHECK(lanes.wealth(0) == 38.443359375);  // 1.5^9
  CHECK(lanes.log_wealth(0) == doctest::Approx(9 * std::log(1.5)).epsilon(1e-15));
}

TEST_CASE("betting: losses never move a one-sided bet off zero") {
  BettingLanes lanes(2);
  const double g[2] = {-1.0, -0.25};
  for (int t = 0; t < 100; ++t) lanes.bet(0, 2, g);
  CHECK(lanes.wealth(0) == 1.0);
  CHECK(lanes.wealth(1) == 1.0);
  CHECK(lanes.fraction(0) == 0.0);
}

TEST_CASE("betting: the wealth is exact past the double range, in its log") {
  // 2,000 sure wins: W = 1.5^1999, about 10^352, beyond a double; its log is exact.
  BettingLanes lanes(1);
  const double one = 1.0;
  for (int t = 0; t < 2000; ++t) lanes.bet(0, 1, &one);
  CHECK(lanes.log_wealth(0) == doctest::Approx(1999 * std::log(1.5)).epsilon(1e-13));
  CHECK(std::isinf(lanes.wealth(0)));  // above the level of any test: a crossing, not a NaN
}

TEST_CASE("betting: the wealth and fraction of tests/golden/betting_ons.py") {
  // Outcomes a sin(t) + b, t = 1..n; the golden values come from an independent Python
  // recomputation (it sums the logs of the factors, so its log W agrees to rounding only; the
  // fractions take the same operations in the same order and agree exactly).
  struct Case {
    double a, b;
    int n;
    double log_w, fraction;
  };
  const Case cases[] = {{0.9, 0.1, 1000, 8.17924866146428, 0.24915474413134994},
                        {1.0, 0.0, 5000, -6.230683237202222, 0.00035350330876089307},
                        {0.5, 0.02, 20000, 24.940890711574134, 0.16005024443425717}};
  for (const Case& c : cases) {
    BettingLanes lanes(1);
    for (int t = 1; t <= c.n; ++t) {
      const double g = c.a * std::sin(t) + c.b;
      lanes.bet(0, 1, &g);
    }
    CHECK(lanes.log_wealth(0) == doctest::Approx(c.log_w).epsilon(1e-11));
    CHECK(lanes.fraction(0) == c.fraction);
  }
}

TEST_CASE("betting: lanes run side by side exactly as alone") {
  BettingLanes both(2), first(1), second(1);
  PhiloxStream rng(5, 0);
  for (int t = 0; t < 500; ++t) {
    const double g[2] = {2 * rng.uniform() - 1, 2 * rng.uniform() - 0.9};
    both.bet(0, 2, g);
    first.bet(0, 1, &g[0]);
    second.bet(0, 1, &g[1]);
  }
  CHECK(both.log_wealth(0) == first.log_wealth(0));
  CHECK(both.log_wealth(1) == second.log_wealth(0));
}

TEST_CASE("betting: Ville's inequality holds under the null (level 0.05)") {
  // 4,000 gamblers on fair +-1 coins (mean 0, the null), 400 trials each: by Ville's
  // inequality at most 5% ever reach wealth 20. Binomial(4000, 0.05) exceeds 0.058 (232 of
  // 4000) with probability below 0.01, so a larger share means the bet is not a supermartingale.
  const std::size_t runs = 4000;
  BettingLanes lanes(runs);
  std::vector<char> crossed(runs, 0);
  std::vector<double> g(runs);
  PhiloxStream rng(11, 0);
  for (int t = 0; t < 400; ++t) {
    for (double& x : g) x = rng.uniform() < 0.5 ? 1.0 : -1.0;
    lanes.bet(0, runs, g.data());
    for (std::size_t j = 0; j < runs; ++j)
      if (lanes.wealth(j) >= 20) crossed[j] = 1;
  }
  std::size_t count = 0;
  for (char c : crossed) count += c;
  CHECK(count <= 232);
  CHECK(count > 0);  // the test has some power at all: a fraction-zero bet would never cross
}
