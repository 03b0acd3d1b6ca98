// How a thresholded estimator (threshold, clopper-pearson, jeffreys, gdp, one-run,
// one-run-fdp) picks its decision rule, and what its confidence statement covers.
//
//   bonferroni   the best rule of a family fixed before the data is seen, each rule
//                tested at alpha / (size of the family): valid at level alpha for the rule
//                chosen (union bound). The family: every distinct score for the rate-based
//                methods (its size depends only on the scores, not on the labels), a fixed
//                grid of guess counts for one-run (one_run.hpp).
//   max          the best rule over all, each at alpha: the papers' practice; over-states
//                the confidence (the choice is not paid for).
//   uncorrected  Andrew et al. 2024's eps_lo (Andrew et al. 2024, Sec. 5.1): the best rule, alpha
//   spent on EACH bounded
//                rate (not split between FPR and FNR) and no correction for the choice.
//                Not a valid 1 - alpha bound; offered to compare with Andrew et al. 2024's numbers.
//   split        a seeded uniformly random half of each class chooses the rule (max on
//                it), the other half bounds it at alpha: valid, the held-out half being
//                independent of the choice.
//   multi_split  B seeded splits, each bound at alpha / 2, and their median (jax_privacy's
//                MultiSplit). Valid by Meinshausen, Meier & Buehlmann 2009 ("p-values for
//                high-dimensional regression", JASA), Thm 3.1 with gamma = 1/2: for valid
//                p-values p_1..p_B (dependent or not), 2 * median(p_i) is a valid p-value,
//                by Markov's inequality on the fraction of p_i <= alpha/2. Each split's
//                bound e_i is the largest eps it refutes at alpha/2, so an eps is refuted
//                by the combined test when at least half of the e_i reach it, i.e. for
//                every eps up to the ceil(B/2)-th largest e_i; the median (for even B the
//                mean of the two middle values) never exceeds that, so it is sound.
//   fixed        one given threshold, at alpha.
// estimate_by_strategy (below) is the one place that runs a strategy: the estimators
// (epsilon_estimators, gdp_audit, one_run) supply how to evaluate, search and split-test
// their rules, and it picks the rule and the level each is tested at.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "stats/scores.hpp"

namespace dpaudit {

enum class ThresholdChoice { bonferroni, max, uncorrected, split, multi_split, fixed };

struct ThresholdStrategy {
  ThresholdChoice choice = ThresholdChoice::bonferroni;
  double fixed_threshold = 0;  // fixed: the rule "in when score >= this"
  std::uint64_t seed = 0;      // split, multi_split
  std::size_t splits = 100;    // multi_split: how many (jax_privacy's default)
  int threads = 1;             // multi_split: splits run in parallel (0: all cores)
};

// How the scores are halved.
enum class SplitKind {
  per_class,    // half of each class (the rate-based methods: each rate is a binomial of its class)
  in_only,      // half of the in scores, out scores ignored (an analytic null stands for them)
  label_blind,  // half of all canaries whatever their labels (one-run: the held-out canaries'
                // labels stay independent fair coins, which a per-class split would not keep)
};

// A uniformly random half (the first floor(n/2) of a Fisher-Yates shuffle of the sorted
// scores, in then out; label_blind: of all scores, in before out) and the rest:
// {choose, hold}. DataError unless the halves can have 1 score of each class needed
// (per_class: 2 in and 2 out; in_only: 2 in; label_blind: 4 scores).
std::pair<ScoreSet, ScoreSet> split_in_half(const ScoreSet& scores, std::mt19937_64& rng,
                                            SplitKind kind = SplitKind::per_class);

// The multi-split combination: bound(choose, hold) on split i = 0..splits-1, split i
// drawn with std::mt19937_64 seeded by std::seed_seq{seed, i} (as 32-bit halves; both
// are fully specified by the C++ standard, so the splits are the same everywhere), on
// `threads` threads (0: all cores; the result does not depend on them); every bound, in
// split order.
std::vector<double> bounds_over_splits(
    const ScoreSet& scores, std::uint64_t seed, std::size_t splits, int threads, SplitKind kind,
    const std::function<double(const ScoreSet& choose, const ScoreSet& hold)>& bound);

// Split i of bounds_over_splits.
std::pair<ScoreSet, ScoreSet> split_number(const ScoreSet& scores, std::uint64_t seed,
                                           std::uint64_t i, SplitKind kind);

// The index of the lower middle bound (sorted position (n-1)/2; the first of equal ones).
std::size_t lower_middle(const std::vector<double>& bounds);

// The median of the bounds (the mean of the two middle ones for an even count; +inf
// counts as the largest). UsageError for none.
double median_bound(std::vector<double> bounds);

// The level each rule of a searched family of `family` rules is tested at, for a bound at
// level alpha split evenly over `rates` bounded rates (union bound): bonferroni
// alpha / rates / family, max alpha / rates, uncorrected alpha (Andrew et al. 2024: alpha on each
// rate). UsageError for the other choices (they search no family).
double level_per_rule(ThresholdChoice choice, double alpha, double rates, std::size_t family);

// What an estimator of Estimate supplies to estimate_by_strategy. Estimate has a
// `std::size_t splits` (multi_split: how many the bound is the median over).
template <class Estimate>
struct StrategyHooks {
  // fixed: the rule "in when score >= t" on the scores, tested at level.
  std::function<Estimate(const ScoreSet& scores, double t, double level)> at_threshold;
  // bonferroni, max, uncorrected: the best rule of the family the estimator searches
  // under choice, each rule tested at level(the family's size).
  std::function<Estimate(const ScoreSet& scores, ThresholdChoice choice,
                         const std::function<double(std::size_t family)>& level)>
      best;
  // split, multi_split: the best rule of choose (each at level, uncorrected for the
  // choice), then that rule on hold tested at level.
  std::function<Estimate(const ScoreSet& choose, const ScoreSet& hold, double level)>
      choose_then_test;
  // multi_split: the member holding the bound whose median is taken.
  double Estimate::*bound = nullptr;
};

// The estimate under strategy of a bound at level alpha split evenly over `rates` bounded
// rates (2: FPR and FNR; 1 when FPR is exact, or for one-run's single count), halves
// drawn as `kind`: fixed tests the rule at alpha / rates; bonferroni, max and uncorrected
// search at level_per_rule; split chooses on a half drawn by std::mt19937_64(seed) and
// tests on the other at alpha / rates; multi_split does so on every split of
// bounds_over_splits at alpha / rates / 2 (Meinshausen et al. 2009 Thm 3.1, above) and
// reports the lower middle split's estimate with the median bound.
template <class Estimate>
Estimate estimate_by_strategy(const ScoreSet& scores, const ThresholdStrategy& strategy,
                              double alpha, double rates, SplitKind kind,
                              const StrategyHooks<Estimate>& hooks) {
  const double level = alpha / rates;
  switch (strategy.choice) {
    case ThresholdChoice::fixed:
      return hooks.at_threshold(scores, strategy.fixed_threshold, level);
    case ThresholdChoice::bonferroni:
    case ThresholdChoice::max:
    case ThresholdChoice::uncorrected:
      return hooks.best(scores, strategy.choice, [&](std::size_t family) {
        return level_per_rule(strategy.choice, alpha, rates, family);
      });
    case ThresholdChoice::split: {
      std::mt19937_64 rng(strategy.seed);
      const auto [choose, hold] = split_in_half(scores, rng, kind);
      return hooks.choose_then_test(choose, hold, level);
    }
    case ThresholdChoice::multi_split: {
      const auto estimate = [&](const ScoreSet& choose, const ScoreSet& hold) {
        return hooks.choose_then_test(choose, hold, level / 2);
      };
      const std::vector<double> bounds =
          bounds_over_splits(scores, strategy.seed, strategy.splits, strategy.threads, kind,
                             [&](const ScoreSet& choose, const ScoreSet& hold) {
                               return estimate(choose, hold).*hooks.bound;
                             });
      const auto [choose, hold] = split_number(scores, strategy.seed, lower_middle(bounds), kind);
      Estimate e = estimate(choose, hold);
      e.*hooks.bound = median_bound(bounds);
      e.splits = strategy.splits;
      return e;
    }
  }
  throw UsageError("unknown threshold choice");
}

}  // namespace dpaudit
