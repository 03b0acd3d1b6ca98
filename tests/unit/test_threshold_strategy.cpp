#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <boost/math/distributions/beta.hpp>

#include "core/error.hpp"
#include "stats/epsilon_estimators.hpp"
#include "stats/threshold_strategy.hpp"

using namespace dpaudit;

namespace {

// n in scores above n out scores.
ScoreSet separated(int n) {
  std::vector<double> in, out;
  for (int i = 0; i < n; ++i) {
    in.push_back(10 + i);
    out.push_back(-1 - i);
  }
  return ScoreSet(in, out);
}

ScoreSet gaussian_scores(int n, double shift, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> z;
  std::vector<double> in, out;
  for (int i = 0; i < n; ++i) in.push_back(z(rng) + shift);
  for (int i = 0; i < n; ++i) out.push_back(z(rng));
  return ScoreSet(in, out);
}

EstimatorOptions with(Method method, ThresholdChoice choice) {
  EstimatorOptions o;
  o.method = method;
  o.strategy.choice = choice;
  return o;
}

}  // namespace

TEST_CASE(
    "uncorrected: Andrew et al. 2024's eps_lo, whose ceiling at 1,000 + 1,000 separated canaries "
    "is 6.25") {
  // Andrew et al. 2024, Tables 3-4 print eps_lo = 6.240 / 6.25 where the classes separate: Jeffreys
  // upper bounds at alpha = 0.05 on each rate, u = the 0.95 quantile of Beta(1/2, 1000 + 1/2) (0
  // errors of 1000), and eps = log((1 - u) / u) = 6.2544 at the best threshold.
  const double u = boost::math::quantile(boost::math::beta_distribution<double>(0.5, 1000.5), 0.95);
  const EpsilonEstimate e =
      estimate_epsilon(separated(1000), with(Method::jeffreys, ThresholdChoice::uncorrected));
  CHECK(e.epsilon == doctest::Approx(std::log((1 - u) / u)).epsilon(1e-12));
  CHECK(e.epsilon == doctest::Approx(6.2544).epsilon(1e-4));
  CHECK(e.alpha_per_rate == 0.05);
  // Our valid bound on the same scores (Bonferroni over the 2,000 distinct scores, alpha/2
  // per rate): 4.65, the eps_lo-all of experiments/fedavg.md at z = 0.
  const EpsilonEstimate b =
      estimate_epsilon(separated(1000), with(Method::jeffreys, ThresholdChoice::bonferroni));
  CHECK(b.epsilon == doctest::Approx(4.65).epsilon(0.002));
  // max spends alpha/2 per rate: between the two.
  const double max =
      estimate_epsilon(separated(1000), with(Method::jeffreys, ThresholdChoice::max)).epsilon;
  CHECK(b.epsilon < max);
  CHECK(max < e.epsilon);
}

TEST_CASE("split_in_half: per class, in only, label-blind") {
  const ScoreSet s = gaussian_scores(101, 1, 1);
  std::mt19937_64 a(5), b(5);
  const auto [c1, h1] = split_in_half(s, a);
  const auto [c2, h2] = split_in_half(s, b);
  CHECK(c1.in() == c2.in());  // seeded
  CHECK(c1.in().size() == 50);
  CHECK(h1.in().size() == 51);
  CHECK(c1.out().size() == 50);
  std::vector<double> back(c1.in());
  back.insert(back.end(), h1.in().begin(), h1.in().end());
  std::sort(back.begin(), back.end());
  CHECK(back == s.in());  // a partition
  std::mt19937_64 c(5);
  const auto [ci, hi] = split_in_half(s, c, SplitKind::in_only);
  CHECK(ci.out().empty());
  CHECK(hi.out().empty());
  std::mt19937_64 d(5);
  const auto [cb, hb] = split_in_half(s, d, SplitKind::label_blind);
  CHECK(cb.in().size() + cb.out().size() == 101);
  CHECK(hb.in().size() + hb.out().size() == 101);
  CHECK(cb.in().size() + hb.in().size() == 101);  // labels ride along
  CHECK(cb.in().size() != 50);                    // not stratified (this seed)
  std::mt19937_64 e(5);
  CHECK_THROWS_AS(split_in_half(ScoreSet({1, 2}, {0}), e), DataError);
}

TEST_CASE("median and lower middle: the multi-split combination") {
  CHECK(median_bound({3, 1, 2}) == 2);
  CHECK(median_bound({4, 1, 2, 3}) == 2.5);  // never above the valid ceil(B/2)-th largest, 3
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(median_bound({1, inf}) == inf);
  CHECK(median_bound({inf, inf, 0}) == inf);
  CHECK(lower_middle({5, 1, 3, 3}) == 2);  // sorted 1 3 3 5: position 1, the first 3
  CHECK_THROWS_AS(median_bound({}), UsageError);
}

TEST_CASE("multi-split: the median of split bounds at alpha/2, the same for any thread count") {
  const ScoreSet s = gaussian_scores(500, 2, 2);
  EstimatorOptions o = with(Method::clopper_pearson, ThresholdChoice::multi_split);
  o.strategy.seed = 9;
  o.strategy.splits = 21;
  const EpsilonEstimate one = estimate_epsilon(s, o);
  o.strategy.threads = 4;
  const EpsilonEstimate four = estimate_epsilon(s, o);
  CHECK(one.epsilon == four.epsilon);
  CHECK(*one.threshold == *four.threshold);
  CHECK(one.splits == 21);
  CHECK(one.alpha_per_rate == 0.0125);
  CHECK(one.n_in == 250);
  // By hand: each split's bound, their median.
  std::vector<double> bounds;
  for (std::uint64_t i = 0; i < 21; ++i) {
    const auto [choose, hold] = split_number(s, 9, i, SplitKind::per_class);
    EstimatorOptions each = with(Method::clopper_pearson, ThresholdChoice::fixed);
    each.alpha = 0.025;
    each.strategy.fixed_threshold =
        *estimate_epsilon(choose,
                          [] {
                            EstimatorOptions m =
                                with(Method::clopper_pearson, ThresholdChoice::max);
                            m.alpha = 0.025;
                            return m;
                          }())
             .threshold;
    bounds.push_back(estimate_epsilon(hold, each).epsilon);
  }
  CHECK(one.epsilon == median_bound(bounds));
  CHECK(one.epsilon > 0);
}

TEST_CASE("level_per_rule: alpha split over the rates, then over the family for bonferroni") {
  CHECK(level_per_rule(ThresholdChoice::bonferroni, 0.05, 2, 10) == 0.05 / 2 / 10);
  CHECK(level_per_rule(ThresholdChoice::max, 0.05, 2, 10) == 0.025);
  CHECK(level_per_rule(ThresholdChoice::uncorrected, 0.05, 2, 10) ==
        0.05);  // Andrew et al. 2024: alpha on each rate
  CHECK(level_per_rule(ThresholdChoice::bonferroni, 0.05, 1, 16) == 0.05 / 16);
  CHECK_THROWS_AS(level_per_rule(ThresholdChoice::split, 0.05, 2, 10), UsageError);
}

TEST_CASE("estimate_by_strategy: which hook runs, at which level, on which halves") {
  struct Toy {
    double bound = 0;
    double level = 0;
    std::size_t n = 0;  // scores the estimate rests on
    std::size_t splits = 0;
  };
  StrategyHooks<Toy> hooks;
  hooks.at_threshold = [](const ScoreSet& s, double t, double level) {
    return Toy{t, level, s.in().size() + s.out().size()};
  };
  hooks.best = [](const ScoreSet& s, ThresholdChoice,
                  const std::function<double(std::size_t)>& level) {
    return Toy{-1, level(10), s.in().size() + s.out().size()};  // a family of 10 rules
  };
  // The bound of a split: its held-out half's largest in score.
  hooks.choose_then_test = [](const ScoreSet&, const ScoreSet& hold, double level) {
    return Toy{hold.in().back(), level, hold.in().size() + hold.out().size()};
  };
  hooks.bound = &Toy::bound;
  const ScoreSet scores = separated(10);
  ThresholdStrategy s;
  s.choice = ThresholdChoice::fixed;
  s.fixed_threshold = 1.5;
  Toy t = estimate_by_strategy(scores, s, 0.05, 2, SplitKind::per_class, hooks);
  CHECK(t.bound == 1.5);
  CHECK(t.level == 0.025);
  CHECK(t.n == 20);
  s.choice = ThresholdChoice::bonferroni;
  CHECK(estimate_by_strategy(scores, s, 0.05, 2, SplitKind::per_class, hooks).level ==
        0.05 / 2 / 10);
  s.choice = ThresholdChoice::uncorrected;
  CHECK(estimate_by_strategy(scores, s, 0.05, 2, SplitKind::per_class, hooks).level == 0.05);
  s.choice = ThresholdChoice::split;
  s.seed = 4;
  t = estimate_by_strategy(scores, s, 0.05, 2, SplitKind::per_class, hooks);
  std::mt19937_64 rng(4);
  CHECK(t.bound == split_in_half(scores, rng).second.in().back());
  CHECK(t.level == 0.025);
  CHECK(t.n == 10);  // the held-out half: 5 in, 5 out
  s.choice = ThresholdChoice::multi_split;
  s.splits = 5;
  t = estimate_by_strategy(scores, s, 0.05, 1, SplitKind::in_only, hooks);
  std::vector<double> bounds;
  for (std::uint64_t i = 0; i < 5; ++i)
    bounds.push_back(split_number(scores, 4, i, SplitKind::in_only).second.in().back());
  CHECK(t.bound == median_bound(bounds));
  CHECK(t.level == 0.025);  // alpha / rates / 2
  CHECK(t.n == 5);          // in_only: half of the 10 in scores
  CHECK(t.splits == 5);
}
