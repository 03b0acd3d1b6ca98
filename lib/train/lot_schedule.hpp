// DP-SGD's lots (Abadi et al. 2016): which members of the data set each step's update
// sums over, Poisson-sampled or shuffled into fixed-size batches. No tensors.
#pragma once
#include <cstddef>
#include <vector>

#include "core/sampling.hpp"
#include "random/philox_stream.hpp"
#include "train/dp_sgd_config.hpp"

namespace dpaudit {

// A Poisson lot: each of `members` indices independently with probability q, drawn by
// geometric skips (the gap before the next member is floor(log U / log(1 - q))), so a
// lot costs one uniform per member drawn rather than one per candidate.
void draw_poisson_lot(std::size_t members, double q, PhiloxStream& rng,
                      std::vector<std::size_t>& lot);

// The lots of a run, step by step: Poisson lots at rate q; shuffled ones, where at each
// epoch's first step a fresh permutation of the members (Fisher-Yates) is cut into
// epoch_steps lots whose sizes differ by at most one; or balls-in-bins ones, where at each
// epoch's first step every member draws its step of the epoch uniformly (one uniform each,
// in member order) and the lots are its steps' members, in member order (sizes vary).
class LotSchedule {
 public:
  static LotSchedule poisson(double q);
  static LotSchedule shuffled(std::size_t epoch_steps);
  static LotSchedule balls_in_bins(std::size_t epoch_steps);
  // The schedule of a configuration's lots (a shuffling fault: shuffled).
  static LotSchedule of(const DpSgdConfig& config);

  // The members of step `step`'s lot, indices into [0, members), all randomness from rng.
  const std::vector<std::size_t>& next(std::size_t step, std::size_t members, PhiloxStream& rng);

 private:
  LotSchedule(Sampling sampling, double q, std::size_t epoch_steps)
      : sampling_(sampling), q_(q), epoch_steps_(epoch_steps) {}

  Sampling sampling_;
  double q_;
  std::size_t epoch_steps_;
  std::vector<std::size_t> order_, lot_;
  std::vector<std::size_t> starts_;  // balls-in-bins: where each step's members begin in order_
};

}  // namespace dpaudit
