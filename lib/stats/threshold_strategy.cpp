#include "stats/threshold_strategy.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/parallel.hpp"

namespace dpaudit {
namespace {

std::pair<std::vector<double>, std::vector<double>> halves(std::vector<double> v,
                                                           std::mt19937_64& rng) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng() % i]);
  const auto middle = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  return {std::vector<double>(v.begin(), middle), std::vector<double>(middle, v.end())};
}

}  // namespace

std::pair<ScoreSet, ScoreSet> split_in_half(const ScoreSet& scores, std::mt19937_64& rng,
                                            SplitKind kind) {
  const std::size_t n_in = scores.in().size(), n_out = scores.out().size();
  if (kind == SplitKind::label_blind) {
    if (n_in + n_out < 4) throw DataError("a split into halves needs at least 4 scores");
    // Shuffle (score, label) pairs; the labels ride along.
    std::vector<std::pair<double, bool>> all;
    all.reserve(n_in + n_out);
    for (double x : scores.in()) all.emplace_back(x, true);
    for (double x : scores.out()) all.emplace_back(x, false);
    for (std::size_t i = all.size(); i > 1; --i) std::swap(all[i - 1], all[rng() % i]);
    std::vector<double> in[2], out[2];
    for (std::size_t i = 0; i < all.size(); ++i)
      (all[i].second ? in : out)[i < all.size() / 2 ? 0 : 1].push_back(all[i].first);
    return {ScoreSet(std::move(in[0]), std::move(out[0]), scores.dim()),
            ScoreSet(std::move(in[1]), std::move(out[1]), scores.dim())};
  }
  if (n_in < 2 || (kind == SplitKind::per_class && n_out < 2))
    throw DataError("a split into halves needs at least 2 in and 2 out scores");
  auto [in_choose, in_hold] = halves(scores.in(), rng);
  auto [out_choose, out_hold] = kind == SplitKind::per_class
                                    ? halves(scores.out(), rng)
                                    : std::pair<std::vector<double>, std::vector<double>>{};
  return {ScoreSet(std::move(in_choose), std::move(out_choose), scores.dim()),
          ScoreSet(std::move(in_hold), std::move(out_hold), scores.dim())};
}

std::pair<ScoreSet, ScoreSet> split_number(const ScoreSet& scores, std::uint64_t seed,
                                           std::uint64_t i, SplitKind kind) {
  std::seed_seq seq{std::uint32_t(seed), std::uint32_t(seed >> 32), std::uint32_t(i),
                    std::uint32_t(i >> 32)};
  std::mt19937_64 rng(seq);
  return split_in_half(scores, rng, kind);
}

std::size_t lower_middle(const std::vector<double>& bounds) {
  if (bounds.empty()) throw UsageError("no bounds to take the middle of");
  std::vector<std::size_t> order(bounds.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return bounds[a] < bounds[b]; });
  return order[(order.size() - 1) / 2];
}

std::vector<double> bounds_over_splits(
    const ScoreSet& scores, std::uint64_t seed, std::size_t splits, int threads, SplitKind kind,
    const std::function<double(const ScoreSet&, const ScoreSet&)>& bound) {
  if (splits == 0) throw UsageError("multi-split needs at least one split");
  split_number(scores, seed, 0, kind);  // its size errors, once, before the threads
  std::vector<double> bounds(splits);
  parallel_blocks(splits, threads, [&](std::size_t begin, std::size_t end, std::size_t) {
    for (std::size_t i = begin; i < end; ++i) {
      const auto [choose, hold] = split_number(scores, seed, i, kind);
      bounds[i] = bound(choose, hold);
    }
  });
  return bounds;
}

double level_per_rule(ThresholdChoice choice, double alpha, double rates, std::size_t family) {
  switch (choice) {
    case ThresholdChoice::bonferroni:
      return alpha / rates / double(family);
    case ThresholdChoice::max:
      return alpha / rates;
    case ThresholdChoice::uncorrected:
      return alpha;
    default:
      break;
  }
  throw UsageError("only bonferroni, max and uncorrected search a family of rules");
}

double median_bound(std::vector<double> bounds) {
  if (bounds.empty()) throw UsageError("no bounds to take the median of");
  std::sort(bounds.begin(), bounds.end());
  const std::size_t n = bounds.size();
  if (n % 2 == 1) return bounds[n / 2];
  const double a = bounds[n / 2 - 1], b = bounds[n / 2];
  return a == b ? a : a + (b - a) / 2;  // +inf when the upper middle is
}

}  // namespace dpaudit
