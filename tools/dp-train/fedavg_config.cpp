#include "fedavg_config.hpp"

#include <cmath>

#include "data.hpp"

namespace dpaudit::dp_train {

double FedAvgConfig::effective_delta() const {
  return delta > 0 ? delta : std::pow(static_cast<double>(clients), -1.1);
}

Json FedAvgConfig::to_json() const {
  return Json{{"task", task},
              {"data", task == "fashion-mnist" ? (data_dir.empty() ? std::string(kFashionMnistDir) : data_dir) : std::string()},
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
              {"canaries", canaries},
              {"unseen", unseen},
              {"canary_repeats", canary_repeats},
              {"canary_memory_mb", canary_memory_mb},
              {"eval_every", eval_every},
              {"delta", effective_delta()},
              {"save_deltas", save_deltas},
              {"seed", seed},
              {"threads", threads}};
}

}  // namespace dpaudit::dp_train
