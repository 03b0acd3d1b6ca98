// One DP-FedAvg training run with canary clients (Andrew et al. 2024, Alg. 2 and 3), writing its
// outputs into a staging folder that becomes --out only when everything succeeded.
#pragma once
#include "fedavg/config.hpp"

namespace dpaudit::dp_train {

// Validates the configuration (UsageError/DataError before anything is written),
// trains, observes the canaries and writes final_model.npy, delta.npy,
// scores_final.csv, scores_all.csv, metrics.csv, run.json (and deltas.npy,
// canaries.json, unseen.json when asked) into config.out. Returns run.json's content.
Json run_fedavg(const FedAvgConfig& config);

}  // namespace dpaudit::dp_train
