#include "stats/bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include <fmt/format.h>
#include <boost/math/distributions/normal.hpp>

#include "core/error.hpp"
#include "core/parallel.hpp"
#include "random/philox.hpp"
#include "random/philox_stream.hpp"

namespace dpaudit {
namespace {

constexpr std::uint64_t kReplicatePurpose = 0x626f6f747374;  // "bootst"
constexpr std::uint64_t kJackknifePurpose = 0x6a61636b6b6e;  // "jackkn"

double normal_quantile(double p) {
  return boost::math::quantile(boost::math::normal(), p);
}
double normal_cdf(double z) {
  return boost::math::cdf(boost::math::normal(), z);
}

// Index floor(u n) of a class of n from two Philox words (u a 53-bit uniform in (0,1)).
std::size_t index_below(std::uint32_t lo, std::uint32_t hi, std::size_t n) {
  return std::min(n - 1,
                  static_cast<std::size_t>(uniform_from_words(lo, hi) * static_cast<double>(n)));
}

// The statistic on a set, with NaN and the statistic's own errors named by `where`.
double evaluate(const ScoreStatistic& statistic, const ScoreSet& s, const std::string& where) {
  double v;
  try {
    v = statistic(s);
  } catch (const Error& e) {
    throw DataError(e.what(), where);
  }
  if (std::isnan(v)) throw DataError("the bootstrapped statistic is NaN", where);
  return v;
}

// A resample with replacement of the ascending `sorted`, ascending, from 2 * n words,
// without a sort and without a branch per score: the multiplicity of each score is
// counted, the index of each score is written where its run of copies begins (a score
// drawn 0 times is overwritten by the next one starting there), and a running maximum
// fills the runs.
void resample_sorted(const std::vector<double>& sorted, const std::uint32_t* words,
                     std::vector<std::size_t>& counts, std::vector<std::size_t>& starts,
                     std::vector<double>& out) {
  const std::size_t n = sorted.size();
  counts.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) ++counts[index_below(words[2 * i], words[2 * i + 1], n)];
  starts.assign(n + 1, 0);
  for (std::size_t j = 0, position = 0; j < n; position += counts[j], ++j) starts[position] = j;
  out.resize(n);
  for (std::size_t k = 0, j = 0; k < n; ++k) {
    j = std::max(j, starts[k]);
    out[k] = sorted[j];
  }
}

// The jackknife groups of a class of n scores: n groups of one (delete-1) when n <= g,
// else g groups of a seeded shuffle of the indices (Fisher-Yates from the last
// position), group j = positions [j n / g, (j+1) n / g). Each group sorted ascending.
std::vector<std::vector<std::size_t>> jackknife_groups(std::size_t n, std::size_t g,
                                                       std::uint64_t key, std::uint64_t stream) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  const std::size_t groups = std::min(n, g);
  if (groups < n) {
    PhiloxStream rng(key, stream);
    for (std::size_t i = n; i > 1; --i) {
      const std::uint32_t lo = rng.next_u32();
      std::swap(order[i - 1], order[index_below(lo, rng.next_u32(), i)]);
    }
  }
  std::vector<std::vector<std::size_t>> out(groups);
  for (std::size_t j = 0; j < groups; ++j) {
    out[j].assign(order.begin() + static_cast<std::ptrdiff_t>(j * n / groups),
                  order.begin() + static_cast<std::ptrdiff_t>((j + 1) * n / groups));
    std::sort(out[j].begin(), out[j].end());
  }
  return out;
}

// `sorted` without the (ascending) indices of `group`, still ascending.
void delete_group(const std::vector<double>& sorted, const std::vector<std::size_t>& group,
                  std::vector<double>& out) {
  out.clear();
  std::size_t next = 0;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    if (next < group.size() && group[next] == i) {
      ++next;
      continue;
    }
    out.push_back(sorted[i]);
  }
}

// The acceleration from the jackknife values of each class (see the header): the sum
// over classes of (U/n)^3 over 6 (sum of (U/n)^2)^(3/2), U = (n - m)(mean - value).
// Sets accelerated = false (a = 0) when a value is infinite.
void accelerate(const std::vector<std::vector<double>>& values,
                const std::vector<std::vector<std::vector<std::size_t>>>& groups,
                const std::vector<std::size_t>& sizes, BootstrapDistribution& d) {
  double squares = 0, cubes = 0;
  for (std::size_t k = 0; k < values.size(); ++k) {
    const auto& v = values[k];
    if (v.empty()) continue;
    if (!std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); })) {
      d.accelerated = false;
      d.acceleration = 0;
      return;
    }
    double mean = 0;
    for (double x : v) mean += x;
    mean /= static_cast<double>(v.size());
    const double n = static_cast<double>(sizes[k]);
    for (std::size_t j = 0; j < v.size(); ++j) {
      const double u = (n - static_cast<double>(groups[k][j].size())) * (mean - v[j]) / n;
      squares += u * u;
      cubes += u * u * u;
    }
  }
  d.acceleration = squares > 0 ? cubes / (6 * std::pow(squares, 1.5)) : 0;
}

// Quantile of level p of the ascending replicates (linear between order statistics;
// next to an infinite one, the outer neighbour: below when `lower_end`).
double replicate_quantile(const std::vector<double>& r, double p, bool lower_end) {
  const double h = p * static_cast<double>(r.size() - 1);
  const std::size_t lo = std::min(r.size() - 1, static_cast<std::size_t>(std::floor(h)));
  const std::size_t hi = std::min(r.size() - 1, lo + 1);
  const double f = h - static_cast<double>(lo);
  if (f == 0 || r[lo] == r[hi]) return r[lo];
  if (!std::isfinite(r[lo]) || !std::isfinite(r[hi])) return lower_end ? r[lo] : r[hi];
  return r[lo] + f * (r[hi] - r[lo]);
}

}  // namespace

void for_each_resample(const ScoreSet& scores, std::size_t replicates, std::uint64_t seed,
                       int threads,
                       const std::function<void(std::size_t, const ScoreSet&)>& visit) {
  // Stream b holds 2 words per draw, the in draws first.
  const std::vector<double>& in = scores.in();
  const std::vector<double>& out = scores.out();
  const std::uint64_t key = derive_seed(seed, kReplicatePurpose);
  const std::size_t draws = in.size() + out.size();
  parallel_blocks(replicates, threads, [&](std::size_t begin, std::size_t end, std::size_t) {
    std::vector<std::uint32_t> words(2 * draws);
    std::vector<std::size_t> counts, starts;
    for (std::size_t b = begin; b < end; ++b) {
      philox_words(key, b, 0, words.size(), words.data());
      std::vector<double> rin, rout;
      resample_sorted(in, words.data(), counts, starts, rin);
      resample_sorted(out, words.data() + 2 * in.size(), counts, starts, rout);
      visit(b, ScoreSet(std::move(rin), std::move(rout), scores.dim()));
    }
  });
}

BootstrapDistribution bootstrap(const ScoreSet& scores, const ScoreStatistic& statistic,
                                const BootstrapOptions& options) {
  const std::size_t B = options.replicates;
  if (B < 2) throw UsageError(fmt::format("the bootstrap needs at least 2 replicates, got {}", B));
  if (options.jackknife_groups < 2)
    throw UsageError(fmt::format("the jackknife needs at least 2 groups per class, got {}",
                                 options.jackknife_groups));
  const std::vector<double>& in = scores.in();
  const std::vector<double>& out = scores.out();
  if (in.empty()) throw UsageError("the bootstrap needs in scores");
  for (const auto* side : {&in, &out})
    if (side->size() == 1)
      throw DataError(fmt::format("the bootstrap's jackknife needs at least 2 {} scores, got 1",
                                  side == &in ? "in" : "out"));

  BootstrapDistribution d;
  d.estimate = statistic(scores);  // its own errors pass unchanged: they are not the bootstrap's
  if (std::isnan(d.estimate))
    throw DataError("the bootstrapped statistic is NaN on the scores themselves");

  d.replicates.resize(B);
  for_each_resample(
      scores, B, options.seed, options.threads, [&](std::size_t b, const ScoreSet& resample) {
        d.replicates[b] =
            evaluate(statistic, resample, fmt::format("bootstrap replicate {} of {}", b + 1, B));
      });
  d.sorted = d.replicates;
  std::sort(d.sorted.begin(), d.sorted.end());

  std::size_t below = 0, equal = 0;
  for (double x : d.replicates) {
    below += x < d.estimate;
    equal += x == d.estimate;
  }
  d.below_fraction =
      (static_cast<double>(below) + static_cast<double>(equal) / 2) / static_cast<double>(B);
  d.z0 = d.below_fraction <= 0   ? -INFINITY
         : d.below_fraction >= 1 ? INFINITY
                                 : normal_quantile(d.below_fraction);

  if (std::all_of(d.replicates.begin(), d.replicates.end(),
                  [](double x) { return std::isfinite(x); })) {
    double mean = 0, squares = 0;
    for (double x : d.replicates) mean += x;
    mean /= static_cast<double>(B);
    for (double x : d.replicates) squares += (x - mean) * (x - mean);
    d.standard_error = std::sqrt(squares / static_cast<double>(B - 1));
  } else {
    d.standard_error = INFINITY;
  }

  // Jackknife: deletions of class 0 (in), then class 1 (out), in one parallel loop.
  const std::uint64_t jkey = derive_seed(options.seed, kJackknifePurpose);
  const std::vector<std::size_t> sizes{in.size(), out.size()};
  std::vector<std::vector<std::vector<std::size_t>>> groups{
      jackknife_groups(in.size(), options.jackknife_groups, jkey, 0),
      jackknife_groups(out.size(), options.jackknife_groups, jkey, 1)};
  d.jackknife_groups_in = groups[0].size();
  d.jackknife_groups_out = groups[1].size();
  std::vector<std::vector<double>> values{std::vector<double>(groups[0].size()),
                                          std::vector<double>(groups[1].size())};
  const std::size_t deletions = groups[0].size() + groups[1].size();
  parallel_blocks(deletions, options.threads, [&](std::size_t begin, std::size_t end, std::size_t) {
    std::vector<double> kept;
    for (std::size_t t = begin; t < end; ++t) {
      const std::size_t k = t < groups[0].size() ? 0 : 1;
      const std::size_t j = k == 0 ? t : t - groups[0].size();
      delete_group(k == 0 ? in : out, groups[k][j], kept);
      const ScoreSet s =
          k == 0 ? ScoreSet(kept, out, scores.dim()) : ScoreSet(in, kept, scores.dim());
      values[k][j] = evaluate(statistic, s,
                              fmt::format("jackknife deletion {} of {} ({} scores)", j + 1,
                                          groups[k].size(), k == 0 ? "in" : "out"));
    }
  });
  accelerate(values, groups, sizes, d);
  return d;
}

BcaEndpoint bca_endpoint(const BootstrapDistribution& d, double q) {
  if (!(q > 0 && q < 1))
    throw UsageError(fmt::format("a BCa endpoint's level must be in (0,1), got {}", q));
  if (d.sorted.empty()) throw UsageError("bca_endpoint: no bootstrap replicates");
  if (!std::isfinite(d.z0))
    throw DataError(fmt::format(
        "the BCa interval is undefined: every one of the {} bootstrap replicates lies {} the "
        "estimate {} (z0 = {}inf)",
        d.replicates.size(), d.z0 < 0 ? "above" : "below", d.estimate, d.z0 < 0 ? "-" : ""));
  const double w = d.z0 + normal_quantile(q);
  const double denominator = 1 - d.acceleration * w;
  BcaEndpoint e;
  e.nominal = q;
  e.level = denominator > 0 ? normal_cdf(d.z0 + w / denominator) : (w > 0 ? 1.0 : 0.0);
  e.value = replicate_quantile(d.sorted, e.level, q < 0.5);
  const double last = static_cast<double>(d.sorted.size() - 1);
  e.at_extreme = e.level * last < 1 || (1 - e.level) * last < 1;
  return e;
}

BcaInterval bca_interval(const BootstrapDistribution& d, double alpha) {
  if (!(alpha > 0 && alpha < 1)) throw UsageError(fmt::format("alpha {} is not in (0,1)", alpha));
  return {bca_endpoint(d, alpha / 2), bca_endpoint(d, 1 - alpha / 2)};
}

}  // namespace dpaudit
