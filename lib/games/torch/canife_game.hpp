// The game of Maddock et al. 2023 (CANIFE, Sec. 3-4) at either level: training with an audit
// of the frozen model before rounds 0, S, 2S, ... (games/canife_audit.hpp); each audit crafts
// one canary from the design pool (adversaries/torch/canife_crafter.hpp), plays n mock rounds
// with fresh participants and noise, the canary in every other one, and scores each by the
// noisy sum's projection on the canary's unit update divided by C (Maddock et al. 2023,
// Sec. 3.2); eps_r per audit comes from the estimator interface.
//   sample: each client holds one example; a round is a DP-SGD step over a Poisson lot
//     (train/torch/dp_sgd.hpp); the design updates are the design pool's clipped per-example
//     gradients; the canary is one more member of the mock round's lot.
//   user: fedavg's clients (a partition of the training set, iid or label skew), Poisson-
//     sampled at rate q; each trains locally (train/torch/fedavg_client.hpp) and its update is
//     clipped to C; the design updates are those of mock clients cut from the test split
//     the same way; the canary client holds only the crafted example.
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "games/canife_audit.hpp"
#include "io/json.hpp"
#include "train/torch/rank_group.hpp"

namespace dpaudit {

struct TrainTest;

// One round of training as metrics.csv shows it.
struct CanifeRoundMetrics {
  std::size_t round = 0;      // 1-based
  double train_loss = -1;     // < 0: not computed (the sample level's one-pass clipping)
  double update_norm = 0;     // of the released (noisy, mean) update
  double test_accuracy = -1;  // < 0: not evaluated (measured where an audit or the end did)
};

struct CanifeRun {
  std::vector<Audit> audits;                // eps_r filled
  std::vector<CanifeRoundMetrics> metrics;  // a row per round
  std::size_t parameters = 0;
  double test_accuracy = 0;  // of the final model
  Json extra;                // run.json entries of this level only
};

// Trains for c.total_rounds() rounds at noise multiplier `sigma` on `data`, auditing as
// above; `progress`, when given, gets the number of audits done after each, from the
// calling thread. Throws DataError where training or crafting diverges. With `ranks` (the user
// level only), the rounds' clients train across its ranks (train/torch/distributed_round.hpp)
// with the same result; rank 0 audits and returns the run, the other ranks an empty one.
CanifeRun play_canife(const CanifeGameConfig& c, const TrainTest& data, double sigma,
                      const std::function<void(std::size_t)>& progress = {},
                      RankGroup* ranks = nullptr);

// The levels, without the audits' eps_r.
CanifeRun run_sample_level(const CanifeGameConfig& c, const TrainTest& data, double sigma,
                           const std::function<void(std::size_t)>& progress);
CanifeRun run_user_level(const CanifeGameConfig& c, const TrainTest& data, double sigma,
                         const std::function<void(std::size_t)>& progress, RankGroup* ranks);

}  // namespace dpaudit
