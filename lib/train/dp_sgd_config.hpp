// The configuration of central DP-SGD (Abadi et al. 2016) as lib/train/torch/dp_sgd.hpp
// runs it: the data set's size, how lots are drawn, the steps and the update. No tensors.
#pragma once
#include <cstddef>

#include <string>

#include "core/sampling.hpp"

namespace dpaudit {

// Realistic implementation bugs a CI privacy gate must catch (none by default).
enum class SgdFault {
  none,
  no_clip,             // per-example gradients are never clipped
  noise_ignores_clip,  // the noise has sd z, not z C (the same when C = 1)
  shuffle_as_poisson,  // lots are shuffled fixed-size batches; the accountant assumes Poisson
};

// The lot samplings DP-SGD draws (lot_schedule.hpp): "poisson", "shuffle" or "balls-in-bins";
// UsageError otherwise.
Sampling parse_lot_sampling(const std::string& name);

struct DpSgdConfig {
  std::size_t train_size = 1000;  // N; Nasr et al. 2021's reduced setting trains on 1,000
  // poisson, shuffle or balls_in_bins (not without replacement)
  Sampling sampling = Sampling::poisson;
  double q = 0.1;         // Poisson rate; by epochs: batch / train_size
  std::size_t batch = 0;  // by epochs (shuffle, balls-in-bins): lot size B (on average)
  std::size_t steps = 100;
  double lr = 0.15;  // Nasr et al. 2021, App. A (MNIST, CIFAR-10)
  double clip = 1.0;
  SgdFault fault = SgdFault::none;

  // The lot size the update is divided by: q N (Poisson) or B (by epochs).
  double expected_lot() const;
  // The rate the accountant assumes per step: q (Poisson) or B / N (by epochs).
  double sampling_rate() const;
  // Steps per epoch of lots by epochs: ceil(N / B) (a shuffling fault: B = round(q N)).
  std::size_t epoch_steps() const;
  // Whether the lots are shuffled fixed-size batches (shuffle, or the fault).
  bool shuffled() const;
};

}  // namespace dpaudit
