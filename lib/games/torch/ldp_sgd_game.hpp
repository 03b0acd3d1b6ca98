// The LDP-SGD game of Matsumoto et al. 2022 ("LDP privacy test", Alg. 3 black-box and
// Alg. 4 white-box): K trials, each crafting a gradient pair with one of the six crafters
// (adversaries/ldp_adversary.hpp, adversaries/torch/ldp_crafters.hpp), randomizing one of
// the two with LDP-SGD (mechanisms/ldp_sgd.hpp) and guessing which. A training game: the
// model theta_t is pre-trained here with LibTorch. The configuration's header is LibTorch-free.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "adversaries/ldp_adversary.hpp"
#include "core/trial_range.hpp"
#include "data/datasets.hpp"
#include "io/json.hpp"
#include "mechanisms/ldp_sgd.hpp"

namespace dpaudit {

struct LdpGameConfig {
  LdpCrafter crafter = LdpCrafter::dummy_gradient;
  LdpDistinguisher distinguisher = LdpDistinguisher::white_box;
  LdpSgdConfig ldp;            // eps and the clipping norm L
  std::size_t trials = 10000;  // K
  // A shard: trials [A, B) of the K (unset: all). Trial k is a pure function of (the trials'
  // seed, k), so a shard's decisions are the whole run's for those trials.
  std::optional<TrialRange> trial_range;
  std::size_t clients = 1;  // n: reports averaged by the server (black-box)
  std::string task = "fashion-mnist";
  std::string data_dir = kFashionMnistDir;  // Debian's dataset-fashion-mnist folder
  std::string model = "cnn";
  std::size_t dim = 0;  // dummy gradient only: d (0: the model's parameter count)
  double dummy_norm =
      0;  // dummy gradient only: ||g1|| (0: L, as Matsumoto et al. 2022; Fig. 3 varies it)
  double radius = 0;         // ||C||_2 (0: ||theta_t||_2, or L when theta_t = 0)
  double learning_rate = 0;  // the server's eta (0: Matsumoto et al. 2022 Alg. 2 line 5)
  // Scale the reports by Alg. 2's constant as Matsumoto et al. 2022 prints it, without the factor d
  // that makes it unbiased (ldp_sgd.hpp): the server's step shrinks by d.
  bool printed_constant = false;
  std::size_t pretrain_steps = 100;
  std::int64_t malicious_label = 0;  // collusion: the one label of the malicious model
  std::uint64_t seed = 1;            // the data, theta_t's initialisation and pre-training
  // The trials' streams (crafting, the coin, the randomizer, the other n-1 clients); unset:
  // seed. Another value replays the game on fresh trials of the same theta_t, so a rule
  // chosen on one set of trials can be checked on held-out ones.
  std::optional<std::uint64_t> trial_seed;
  int threads = 1;
  bool quiet = false;

  Json to_json() const;  // with "trial_range" [A, B] for a shard
  std::uint64_t trials_seed() const { return trial_seed.value_or(seed); }
  TrialRange played() const { return trial_range.value_or(TrialRange{0, trials}); }
};

struct LdpGameResult {
  // Trial config.played().first + k is [k].
  std::vector<std::uint8_t> labels;   // 1: the report came from g1
  std::vector<std::uint8_t> guesses;  // 1: the distinguisher says g1
  std::size_t dim = 0;
  double radius = 0;
  double learning_rate = 0;
  double model_accuracy = -1;  // test accuracy of theta_t (-1: no model)
  double seconds = 0;          // wall time of the K trials (without data and pre-training)
  Json summary(const LdpGameConfig& config) const;  // counts, FPR/FNR, Eq. 3's epsilon
};

// Receives trials config.played().first + [begin, end) in trial order, as soon as they and
// every trial before them are done: their labels and guesses are result's [begin, end)
// (result's dimension, radius, learning rate and model accuracy are set before the first
// call). Returning false stops the game: no trial starts after it, the ones in flight are
// dropped. Called from one thread at a time.
using LdpTrialSink =
    std::function<bool(const LdpGameResult& result, std::size_t begin, std::size_t end)>;

// Plays the trials config.played() (a valid configuration: dp-train ldp validates it) over
// config.threads, each taking the next trial as it finishes one (core/ordered_parallel.hpp),
// handing them to `sink` (when set) in order; the result holds the trials delivered.
// `progress` (when set) gets the number of trials delivered.
LdpGameResult run_ldp_game(const LdpGameConfig& config, const LdpTrialSink& sink = {},
                           const std::function<void(std::size_t)>& progress = {});

}  // namespace dpaudit
