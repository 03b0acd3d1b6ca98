// The two levels of `dp-train canife` (Maddock et al. 2023, Sec. 3-4): training with an
// audit of the frozen model before rounds 0, S, 2S, ... (canife/audit.hpp). run.cpp does what they
// share (data, noise, outputs).
//   sample: each client holds one example; a round is a DP-SGD step over a Poisson lot
//     (train/torch/dp_sgd.hpp); the design updates are the design pool's clipped per-example
//     gradients; the canary is one more member of the mock round's lot.
//   user: fedavg's clients (a partition of the training set, iid or label skew), Poisson-
//     sampled at rate q; each trains locally (train/torch/fedavg_client.hpp) and its update is
//     clipped to C; the design updates are those of mock clients cut from the test split
//     the same way; the canary client holds only the crafted example.
#pragma once
#include <cstddef>
#include <vector>

#include "canife/audit.hpp"
#include "cli/progress.hpp"
#include "fedavg/output.hpp"

namespace dpaudit::dp_train {

struct TrainTest;

struct LevelRun {
  std::vector<Audit> audits;
  // metrics.csv, fedavg's columns: a row per round, the norm of the released (noisy, mean)
  // update, the test accuracy where an audit or the end measured it; the train loss at
  // user level only (the sample level's one-pass clipping computes no loss).
  std::vector<RoundMetrics> metrics;
  std::size_t parameters = 0;
  double test_accuracy = 0;  // of the final model
  Json extra;                // run.json entries of this level only
};

// Train for c.total_rounds() rounds at noise multiplier `sigma`, auditing as above;
// `progress` counts audits.
LevelRun run_sample_level(const CanifeConfig& c, const TrainTest& data, double sigma,
                          cli::Progress& progress);
LevelRun run_user_level(const CanifeConfig& c, const TrainTest& data, double sigma,
                        cli::Progress& progress);

}  // namespace dpaudit::dp_train
