#include "train/dp_sgd_config.hpp"

#include <algorithm>
#include <cmath>

namespace dpaudit {

double DpSgdConfig::expected_lot() const {
  return sampling == Sampling::shuffle ? static_cast<double>(batch)
                                       : q * static_cast<double>(train_size);
}

double DpSgdConfig::sampling_rate() const {
  return sampling == Sampling::shuffle
             ? static_cast<double>(batch) / static_cast<double>(train_size)
             : q;
}

std::size_t DpSgdConfig::epoch_steps() const {
  std::size_t lot = batch;
  if (sampling == Sampling::poisson)  // the lot size a shuffling fault uses in Poisson's place
    lot = std::max<std::size_t>(
        1, static_cast<std::size_t>(std::llround(q * static_cast<double>(train_size))));
  return (train_size + lot - 1) / lot;
}

bool DpSgdConfig::shuffled() const {
  return sampling == Sampling::shuffle || fault == SgdFault::shuffle_as_poisson;
}

}  // namespace dpaudit
