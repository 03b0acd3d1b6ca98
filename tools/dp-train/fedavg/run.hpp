// One DP-FedAvg training run with canary clients (Andrew et al. 2024, Alg. 2 and 3), writing its
// outputs into a staging folder that becomes --out only when everything succeeded.
#pragma once
#include <optional>

#include "fedavg/config.hpp"

namespace dpaudit::dp_train {

// Validates the configuration (UsageError/DataError before anything is written),
// trains, observes the canaries and writes final_model.npy, delta.npy,
// scores_final.csv, scores_all.csv, metrics.csv, run.json (and deltas.npy,
// canaries.json, unseen.json when asked) into config.out. Returns run.json's content.
// In a multi-process run (train/launch_env.hpp: the launcher's environment) every rank
// trains its share of each round's clients and rank 0 does the rest
// (train/torch/distributed_round.hpp), with the same outputs as one process; only rank 0
// writes and returns run.json, the others write nothing and return nullopt.
std::optional<Json> run_fedavg(const FedAvgConfig& config);

}  // namespace dpaudit::dp_train
