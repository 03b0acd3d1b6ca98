// The game of Maddock et al. 2023 (CANIFE): DP training audited every S rounds by a crafted
// canary. At sample level every client holds one example, so a round of DP-FedSGD is a
// DP-SGD step over Poisson lots (Andrew et al. 2024, Sec. 5.4's setting); at user level the
// clients are fedavg's (a partition of the training set, local SGD, each update clipped,
// Gaussian noise on the sum: Maddock et al. 2023, Sec. 3.1). Its parameters, without the
// noise (the caller's, calibrated or given) and without anything about outputs. No tensors:
// the game is lib/games/torch/canife_game.hpp.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "adversaries/canife_canary.hpp"

namespace dpaudit {

enum class CanifeLevel { sample, user };
enum class CanaryInit { random, sample };

// The clients of the user level (fedavg's parameters of the same names).
struct UserLevelConfig {
  std::size_t clients = 3000;
  std::string partition = "iid";  // iid | label-skew (Dirichlet alpha per class)
  double alpha = 0.5;
  std::size_t local_epochs = 1;
  std::size_t local_batch = 16;
  double client_lr = 0.1;
  double server_lr = 1;
};

struct CanifeGameConfig {
  CanifeLevel level = CanifeLevel::sample;
  UserLevelConfig user;
  // data and model
  std::string task = "fashion-mnist";
  std::string data_dir;
  std::string model = "mlp";
  std::int64_t hidden = 128;  // Andrew et al. 2024, Sec. 5.4: 784-128-10
  // training: Poisson lots at rate q over the training set (user level: over the
  // clients), `rounds` steps
  double q = 128.0 / 60000;
  std::size_t rounds = 0;  // 0: one epoch, ceil(1 / q)
  double lr = 1;           // sample level: learning rate of the averaged update
  double clip = 1;
  double delta = 1e-5;  // of the run and of its eps_hat
  // audits (Maddock et al. 2023, Sec. 3.4)
  std::size_t audit_every = 100;
  std::size_t audit_rounds = 100;  // n mock rounds, the canary in every other one
  std::size_t design_pool = 512;   // M design examples from the test split
  CraftOptions craft;              // minibatch 0: the expected lot size
  CanaryInit init = CanaryInit::random;
  std::uint64_t seed = 1;
  int threads = 0;

  // The number of rounds (one epoch when `rounds` is 0).
  std::size_t total_rounds() const;
  // The audits before rounds 0, S, 2S, ... of the run.
  std::size_t planned_audits() const;
};

}  // namespace dpaudit
