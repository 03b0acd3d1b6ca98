// Configuration of `dp-train canife` (000, CANIFE) at sample level: every client holds
// one example, so a round of DP-FedSGD is a DP-SGD step over Poisson lots (003 Sec. 5.4's
// setting). No LibTorch here.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "canife/craft.hpp"
#include "io/json.hpp"

namespace dpaudit::dp_train {

enum class CanaryInit { random, sample };
CanaryInit parse_canary_init(const std::string& name);  // "random" | "sample", UsageError naming --init

struct CanifeConfig {
  // data and model
  std::string task = "fashion-mnist";
  std::string data_dir;
  std::string model = "mlp";
  std::int64_t hidden = 128;  // 003 Sec. 5.4: 784-128-10
  // training: Poisson lots at rate q over the training set, `rounds` steps
  double q = 128.0 / 60000;
  std::size_t rounds = 0;  // 0: one epoch, ceil(1 / q)
  double lr = 1;
  double clip = 1;
  double noise_multiplier = 0;  // z; 0 with eps > 0: calibrated for the whole run
  double eps = 0;
  double delta = 1e-5;
  // audits (000 Sec. 3.4)
  std::size_t audit_every = 100;
  std::size_t audit_rounds = 100;  // n mock rounds, the canary in every other one
  std::size_t design_pool = 512;   // M design examples from the test split
  CraftOptions craft;              // minibatch 0: the expected lot size
  CanaryInit init = CanaryInit::random;
  std::uint64_t seed = 1;
  int threads = 0;
  bool quiet = false;
  std::string out;
  bool force = false;

  // The number of rounds (one epoch when `rounds` is 0).
  std::size_t total_rounds() const;
  // Throws UsageError before any work for an inconsistent configuration.
  void validate() const;
  Json to_json() const;
};

// Philox stream ids (data.hpp 1-2, fedavg 1<<40.., ldp 16<<40.., sgd 32<<40..).
constexpr std::uint64_t kCanifeTrainStream = std::uint64_t{48} << 40;
constexpr std::uint64_t kCanifePoolStream = std::uint64_t{49} << 40;
constexpr std::uint64_t kCanifeCraftStream = std::uint64_t{50} << 40;  // + the audit's round
constexpr std::uint64_t kCanifeMockStream = std::uint64_t{51} << 40;   // + round * n + mock round

}  // namespace dpaudit::dp_train
