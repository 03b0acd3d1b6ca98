// The BCa (bias-corrected and accelerated) bootstrap interval of Efron (1987, "Better
// bootstrap confidence intervals", JASA 82:171) for any point estimate computed from
// attack scores, e.g. gauss-fit's eps_est: Andrew et al. 2024 and Maddock et al. 2023 report mean
// +- std over many runs; a single audit needs an interval from its one set of scores.
//
// Resampling is stratified by label: replicate b draws n_in in scores and n_out out
// scores with replacement, each class from itself (an audit's two classes are fixed
// in size by design), and evaluates the statistic on them: theta*_b. Then
//   z0 = Phi^-1(p),  p = (#{theta*_b < theta} + #{theta*_b = theta} / 2) / B
// (ties count half, as scipy.stats.bootstrap does, so a statistic with many equal
// replicates, e.g. inf, is not pushed to one side), and the acceleration from the
// jackknife (Efron & Tibshirani 1993, "An introduction to the bootstrap", Ch. 14.3),
// for independent samples summed over both, each influence scaled by its sample's
// size (then the denominator is the delta-method variance of theta, and a is a sixth
// of its skewness, as in one sample):
//   a = sum_k sum_i (U_ki / n_k)^3 / (6 (sum_k sum_i (U_ki / n_k)^2)^(3/2)),
//   U_ki = (n_k - 1)(mean_j theta_(kj) - theta_(ki)),
// theta_(ki) the statistic with score i of class k deleted. The BCa endpoint of
// nominal level q is the level-q' quantile of the replicates,
//   q' = Phi(z0 + (z0 + z_q) / (1 - a (z0 + z_q))),  z_q = Phi^-1(q),
// and the two-sided 1 - alpha interval runs from q = alpha/2 to q = 1 - alpha/2.
//
// Grouped (delete-g) jackknife: a class of n_k > G scores (G = jackknife_groups) is
// split into G random groups of n_k/G scores (sizes differ by at most one; a seeded
// shuffle) and theta_(kg) deletes a whole group; U_kg = (n_k - m_kg)(mean - theta_(kg))
// is then, to first order, the sum of the influences of the group's m_kg scores, so
// sums of U^2 and U^3 over groups estimate those over scores (cumulants of independent
// terms add) and a keeps its meaning. Cost: G + G statistic calls on ~n scores instead
// of n_in + n_out; the price is Monte Carlo noise in a, of sd sqrt(15)/6/(total
// groups) = 0.65/(total groups) for Gaussian influences and somewhat more for heavier
// tails (gauss-fit's eps_est on 10^4 scores: sd 0.0004 at 2 x 1000 groups over 20
// seeds, about a delete-1 a of -0.0010; bench/eps_from_scores.md). That is harmless:
// an error of 0.001 in a moves a 97.5% endpoint's level by about 0.0002. A class of
// at most G scores gets the exact delete-1 jackknife.
//
// Randomness: replicate b reads Philox stream b under key derive_seed(seed, "bootst"),
// the jackknife groups stream 0/1 (in/out) under derive_seed(seed, "jackkn"), so every
// number is a pure function of (scores, seed) and the result is byte-identical for any
// thread count. Index i of a class of n is floor(u n), u a 53-bit uniform (bias below
// n / 2^53).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "stats/scores.hpp"

namespace dpaudit {

// A point estimate computed from scores. It must be a pure function of its argument,
// safe to call from several threads at once. It may return +-inf (e.g. eps of
// separable scores); NaN is an error. A DataError or UsageError it throws on a
// replicate (e.g. gauss-fit on a resample whose scores are all equal) is reported
// as a DataError naming the replicate.
using ScoreStatistic = std::function<double(const ScoreSet&)>;

struct BootstrapOptions {
  std::size_t replicates = 1000;  // B, >= 2
  std::uint64_t seed = 0;
  int threads = 1;                      // <= 0: all cores
  std::size_t jackknife_groups = 1000;  // G per class, >= 2: delete-1 up to G scores, else G groups
};

struct BootstrapDistribution {
  double estimate = 0;             // theta: the statistic on the scores themselves
  std::vector<double> replicates;  // theta*_b at index b
  std::vector<double> sorted;      // the same, ascending (+-inf included)
  double below_fraction = 0;       // p above
  double z0 = 0;                   // Phi^-1(p); +-inf when every replicate lies on one side
  double acceleration = 0;         // a above; 0 when not accelerated
  // False when a jackknife value was +-inf: a is then undefined and set to 0, which
  // makes the interval the bias-corrected (BC) percentile interval.
  bool accelerated = true;
  std::size_t jackknife_groups_in = 0;  // groups (= scores for delete-1) per class
  std::size_t jackknife_groups_out = 0;
  // Standard deviation of the replicates (divisor B - 1); inf when one is infinite.
  double standard_error = 0;
};

// The B stratified resamples themselves: visit(b, resample_b) for b = 0..B-1, in
// parallel (`threads` <= 0: all cores; visit must be safe to call concurrently, each
// call writing only what belongs to its b). Resample b is the one bootstrap() evaluates
// as theta*_b, whatever the thread count. Estimators that need more than one number per
// resample (stats/gauss_fit_interval.hpp) read them here.
void for_each_resample(const ScoreSet& scores, std::size_t replicates, std::uint64_t seed,
                       int threads, const std::function<void(std::size_t, const ScoreSet&)>& visit);

// The statistic, B stratified replicates and the jackknife, in parallel over
// replicates and over jackknife deletions. UsageError for B < 2, G < 2, or no in
// scores; DataError for a class with a single score (the jackknife must delete one),
// for a statistic that is NaN (on the scores, a replicate or a deletion), and for one
// that throws a DataError/UsageError on a replicate or a deletion (on the scores
// themselves its errors pass unchanged).
BootstrapDistribution bootstrap(const ScoreSet& scores, const ScoreStatistic& statistic,
                                const BootstrapOptions& options);

struct BcaEndpoint {
  double nominal = 0;  // q
  double level = 0;    // q', the quantile level of the replicates it reads
  double value = 0;    // that quantile
  // q' (B - 1) < 1 or (1 - q')(B - 1) < 1: the endpoint lies at or between the two
  // outermost replicates, so B, not the data, limits it; more replicates would move
  // it outward (a strongly biased statistic, |z0| large, pushes q' there).
  bool at_extreme = false;
};

// The BCa endpoint of nominal level q in (0,1): the level-q' quantile of the sorted
// replicates, interpolated linearly between order statistics (numpy's default, h =
// q'(B-1)), except that next to an infinite replicate it takes the outer neighbour
// (below for q < 1/2, above otherwise), which only widens the interval. When
// 1 - a (z0 + z_q) <= 0 the formula has passed its pole and q' is its limit, 1 or 0 by
// the sign of z0 + z_q. UsageError for q outside (0,1); DataError when z0 is +-inf
// (every replicate above, or every one below, the estimate: the bootstrap cannot
// correct such a bias, and BCa is undefined).
BcaEndpoint bca_endpoint(const BootstrapDistribution& d, double q);

struct BcaInterval {
  BcaEndpoint lower;  // q = alpha/2
  BcaEndpoint upper;  // q = 1 - alpha/2
};

// The two-sided 1 - alpha BCa interval. UsageError unless 0 < alpha < 1.
BcaInterval bca_interval(const BootstrapDistribution& d, double alpha);

}  // namespace dpaudit
