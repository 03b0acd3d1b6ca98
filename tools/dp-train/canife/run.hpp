// `dp-train canife`'s run (Maddock et al. 2023, Alg. 1-2, at sample or user level): the
// noise (given, or calibrated for --eps by the run accountant, --accountant), the game
// (lib/games/torch/canife_game.hpp: training, and every --audit-every rounds an audit of the
// frozen model, eps_r from its scores), the analytic epsilon and Alg. 2's eps_hat
// (lib/games/canife_accounting.hpp), and the outputs in --out (canife/output.hpp):
// scores.csv (round,trial,label,score), audits.csv, canaries.npy, metrics.csv and run.json.
#pragma once
#include <optional>

#include "canife/config.hpp"

namespace dpaudit::dp_train {

// Returns run.json's content. At user level in a multi-process run (train/launch_env.hpp) every
// rank trains its share of the rounds' clients and rank 0 audits, writes and returns run.json;
// the other ranks write nothing and return nullopt.
std::optional<Json> run_canife(const CanifeConfig& config);

}  // namespace dpaudit::dp_train
