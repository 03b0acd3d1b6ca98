// The eps of DP-SGD with balls-in-bins batches (lib/accounting/balls_in_bins.hpp) by Monte
// Carlo, with a stated confidence: an upper bound that holds with probability at least
// `confidence` over the samples drawn, and the plain estimate beside it.
//
// The bound. For each adjacency direction, n one-epoch losses are sampled and counted on the
// direction's lattice (count_epoch_losses; T_k samples above l_{k-1}). At every lattice point,
// P(L > l_{k-1}) <= U_k = min(CP(T_k, n), epoch_loss_tail(l_{k-1})), CP the one-sided
// Clopper-Pearson upper bound at level alpha / (2 K), K the direction's points: Bonferroni over
// the K points and the two directions, so that every U_k of both holds at once with probability
// at least 1 - alpha (the lattices are fixed by a pilot of samples of their own, independent of
// the counted ones). The U_k composed over the epochs (ComposedEpochs) bound delta(eps) from
// above; eps(delta) is the larger of the two directions'. Where the samples thin out, the
// analytic tail takes over; no sample needs to reach delta, but the bound is only as tight as
// the samples: ln(2K/alpha)/n is about the least delta the band resolves (an epoch of 10^6
// samples resolves about 3e-5), and its width shrinks as n grows.
//
// The estimate. The same counts as frequencies T_k / n, composed the same way: the Monte Carlo
// estimate of Chua et al. 2025 (their plain mean, without the variance reduction of their
// conditional sampling), no confidence attached. It is what the issue's check "never above
// Poisson beyond its confidence width" reads.
#pragma once
#include <cstdint>

#include "accounting/balls_in_bins.hpp"

namespace dpaudit {

struct BallsInBinsOptions {
  std::uint64_t samples = 1000000;  // n one-epoch losses a direction, >= 1000
  std::uint64_t seed = 0;
  double confidence = 0.95;  // in (0, 1)
  int threads = 1;           // 0 = all cores; the result does not depend on it
  std::size_t pilot = 4096;  // samples a direction that set its lattice
  std::size_t max_points = std::size_t{1} << 22;
};

class BallsInBinsBound {
 public:
  // UsageError for a run (check_balls_in_bins) or options out of range.
  BallsInBinsBound(const BallsInBinsRun& run, const BallsInBinsOptions& options = {});

  // At delta in (0, 1): the upper bound at the confidence asked, and the estimate (>= 0, may
  // be +inf).
  double upper(double delta) const;
  double estimate(double delta) const;

 private:
  struct Direction {
    ComposedEpochs upper, estimate;
  };
  static Direction direction(const BallsInBinsRun& run, Adjacency adjacency,
                             const BallsInBinsOptions& options, double alpha);
  Direction remove_, add_;
};

}  // namespace dpaudit
