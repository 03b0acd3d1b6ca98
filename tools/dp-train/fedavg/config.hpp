// Configuration of one `dp-train fedavg` run (Andrew et al. 2024, Alg. 2-3), as parsed from the
// command line and recorded in run.json. No LibTorch here.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "io/json.hpp"
#include "ranks.hpp"

namespace dpaudit::dp_train {

struct FedAvgConfig {
  // data and model
  std::string task = "fashion-mnist";
  std::string data_dir;  // default: Debian's dataset-fashion-mnist folder
  std::string model = "mlp";
  std::int64_t hidden = 128;
  std::size_t clients = 1000;
  std::string partition = "iid";
  double alpha = 0.5;
  // DP-FedAvg
  std::size_t rounds = 100;
  std::string sampling = "shuffle";
  double q = 0.1;
  std::size_t clients_per_round = 100;
  std::size_t local_epochs = 1;
  std::size_t local_batch = 16;
  double client_lr = 0.05;
  double clip = 1.0;
  double noise_multiplier = 0.0;
  double server_lr = 1.0;
  double server_momentum = 0.9;
  bool adaptive_clip = false;  // Andrew et al. 2021; --clip is then the initial clip norm
  double target_quantile = 0.5;
  double clip_lr = 0.2;
  double clip_count_noise = 0;  // sigma_b; 0: expected participants / 20 (Andrew et al.)
  // canaries
  std::string canaries;            // spec or NPY of seen canaries
  std::string unseen;              // spec or NPY of unseen canaries
  std::size_t canary_repeats = 0;  // 0: canaries are sampled like real clients
  std::size_t num_canaries = 0;
  std::size_t num_unseen = 0;
  std::uint64_t canary_seed = 1;
  double canary_memory_mb = 2048;
  // outputs
  std::string out;
  bool force = false;  // replace a non-empty --out
  std::string
      timings;  // --timings FILE: wall time and peak memory (not deterministic, so not in --out)
  std::size_t eval_every = 10;
  double delta =
      0;  // 0: Andrew et al. 2024, Sec. 5.1's delta = n^-1.1 with n the number of clients
  bool save_deltas = false;
  std::uint64_t seed = 1;
  int threads = 1;
  bool quiet = false;
  RankOptions ranks;  // not in run.json: the outputs do not depend on them

  double effective_delta() const;
  double expected_participants(std::size_t seen_canaries) const;
  double effective_count_noise(std::size_t seen_canaries) const;
  Json to_json() const;
};

}  // namespace dpaudit::dp_train
