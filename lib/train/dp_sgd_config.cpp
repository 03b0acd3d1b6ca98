#include "train/dp_sgd_config.hpp"

#include <algorithm>
#include <cmath>

#include "core/names.hpp"

namespace dpaudit {

Sampling parse_lot_sampling(const std::string& name) {
  static constexpr Named<Sampling> kLots[] = {{"poisson", Sampling::poisson},
                                              {"shuffle", Sampling::shuffle},
                                              {"balls-in-bins", Sampling::balls_in_bins}};
  return parse_named(kLots, name, "sampling", "{sampling}");
}

double DpSgdConfig::expected_lot() const {
  return by_epochs(sampling) ? static_cast<double>(batch) : q * static_cast<double>(train_size);
}

double DpSgdConfig::sampling_rate() const {
  return by_epochs(sampling) ? static_cast<double>(batch) / static_cast<double>(train_size) : q;
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
