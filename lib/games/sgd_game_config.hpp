// Nasr et al. 2021's distinguishing game on central DP-SGD (Sec. III-IV): which adversary
// plays it (the threat models of Table I) and its parameters. No tensors: the game itself
// is lib/games/torch/sgd_game.hpp.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "adversaries/input_crafting.hpp"
#include "adversaries/loss_distinguisher.hpp"
#include "adversaries/watermark.hpp"
#include "train/dp_sgd_config.hpp"

namespace dpaudit {

// Nasr et al. 2021, Table I: what the adversary inserts and what the distinguisher sees.
enum class SgdThreat {
  api,                  // C1/D1: a natural example; the final model's loss on it
  static_poison,        // C2/D1: an input crafted on shadow models; the final model's loss on it
  intermediate_poison,  // C2/D2: the same input; its loss over every intermediate model
  adaptive_poison,      // C3/D2: a fresh poison every step; a query's loss over every model
  gradient_canary,      // C4/D3: a gradient watermark; every intermediate model
  malicious_dataset,    // C5/D3: the watermark, a crafted dataset and learning rate 0
};
// The threats whose adversary crafts an input (C2, C3) and so trains shadow models.
bool crafts_input(SgdThreat t);
// The threats whose distinguisher reads every intermediate model's loss (D2).
bool reads_intermediate_losses(SgdThreat t);
// The threats whose distinguisher reads the final model alone (D1).
bool reads_final_model(SgdThreat t);
// The threats whose canary is the gradient watermark and whose distinguisher is D3 (C4, C5).
bool uses_watermark(SgdThreat t);

// malicious-dataset only: train for real, or play the equivalent 1-D game
// (games/subsampled_gaussian_game.hpp).
enum class SgdEngine { train, simulate };

// The trainer (DpSgdConfig: its fault is the target's bug, which the adversary does not
// know of) and the game.
struct SgdGameConfig : DpSgdConfig {
  // data and model
  std::string task = "fashion-mnist";
  std::string data_dir;
  std::string model = "mlp";
  std::int64_t hidden = 32;  // Nasr et al. 2021's reduced setting (spec B.5): 784-32-10
  // the game
  SgdThreat threat = SgdThreat::api;
  std::size_t trials = 1;       // per hypothesis
  std::size_t first_trial = 0;  // trials [first_trial, last_trial) are played
  std::size_t last_trial = 0;
  std::size_t watermark_coords = 2;  // 2n coordinates of C4's watermark
  std::size_t observe_steps = 10;    // t_o: steps C4 watches before choosing them (C5 needs none)
  double canary_norm = 10;           // the watermark's norm before clipping, in units of C
  WatermarkScore score = WatermarkScore::llr;
  // C2 (Sec. IV-B): shadow models trained like the target on D_shadow (the next N
  // training examples), then normalised gradient ascent on the input.
  std::size_t shadow_models = 8;
  std::size_t craft_steps = 100;
  double craft_lr = 0.5;  // L2 length of each ascent step (pixels in [0, 1])
  // C3 (Sec. IV-D): a poison re-crafted from 0 against theta_t whenever it is drawn.
  std::size_t adaptive_steps = 10;
  double adaptive_lr = 1;  // L2 length of each step
  CraftSign craft_sign = CraftSign::descent;
  LossReduce reduce = LossReduce::max;  // D2
  SgdEngine engine = SgdEngine::train;
  std::uint64_t seed = 1;
  int threads = 0;  // 0: all cores
};

}  // namespace dpaudit
