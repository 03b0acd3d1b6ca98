#include "fedavg/config.hpp"

#include <cmath>

#include "data/datasets.hpp"

namespace dpaudit::dp_train {

double FedAvgConfig::effective_delta() const {
  return delta > 0 ? delta : std::pow(static_cast<double>(clients), -1.1);
}

double FedAvgConfig::expected_participants(std::size_t seen_canaries) const {
  const std::size_t population = clients + (canary_repeats == 0 ? seen_canaries : 0);
  return sampling == "poisson" ? q * static_cast<double>(population)
                               : static_cast<double>(clients_per_round);
}

double FedAvgConfig::effective_count_noise(std::size_t seen_canaries) const {
  return clip_count_noise > 0 ? clip_count_noise : expected_participants(seen_canaries) / 20.0;
}

Json FedAvgConfig::to_json() const {
  return Json{{"task", task},
              {"data", task == "fashion-mnist"
                           ? (data_dir.empty() ? std::string(kFashionMnistDir) : data_dir)
                           : std::string()},
              {"model", model},
              {"hidden", hidden},
              {"clients", clients},
              {"partition", partition},
              {"alpha", alpha},
              {"rounds", rounds},
              {"sampling", sampling},
              {"q", q},
              {"clients_per_round", clients_per_round},
              {"local_epochs", local_epochs},
              {"local_batch", local_batch},
              {"client_lr", client_lr},
              {"clip", clip},
              {"noise_multiplier", noise_multiplier},
              {"server_lr", server_lr},
              {"server_momentum", server_momentum},
              {"adaptive_clip", adaptive_clip},
              {"target_quantile", target_quantile},
              {"clip_lr", clip_lr},
              {"canaries", canaries},
              {"unseen", unseen},
              {"canary_repeats", canary_repeats},
              {"canary_memory_mb", canary_memory_mb},
              {"eval_every", eval_every},
              {"delta", effective_delta()},
              {"save_deltas", save_deltas},
              {"seed", seed}};  // not --threads: the run does not depend on it (--timings has it)
}

}  // namespace dpaudit::dp_train
