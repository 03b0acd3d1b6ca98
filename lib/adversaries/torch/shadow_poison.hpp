// Nasr et al. 2021's Crafter 2 (input-space poison, Sec. IV-B) on dp-train's dense
// models: train n shadow models with DP-SGD, the trainer's own hyperparameters, on
// D_shadow (data from the same distribution, disjoint from D); start from a random (x, y)
// of D_shadow and take T ascent steps on l_mal(x) = (1/n) sum_i l(f_i, x, y), so that x
// becomes an outlier the model must memorise: its loss differs most between a model
// trained with it and one without. Steps and box: adversaries/input_crafting.hpp.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "adversaries/input_crafting.hpp"
#include "data/datasets.hpp"
#include "train/dp_sgd_config.hpp"
#include "train/torch/models.hpp"

namespace dpaudit {

// Crafter 2, line 1: `count` models trained by DP-SGD as `trainer` says (noise multiplier
// sigma, no fault: the adversary assumes the documented trainer) on `shadow`, each from
// its own initialisation and Philox stream (seed, streams::kSgdShadow + i), on up to
// `threads` threads (0: all cores): the same models for any number of threads.
struct ShadowModels {
  std::size_t count = 8;
  std::uint64_t seed = 1;
  int threads = 0;
};
std::vector<std::vector<float>> train_shadow_models(const DpSgdConfig& trainer,
                                                    const ShadowModels& shadows,
                                                    const ModelConfig& model, const Dataset& shadow,
                                                    double sigma);

struct CraftedInput {
  std::vector<float> x;
  std::int64_t y = 0;
  double initial_loss = 0;  // the objective at the start ...
  double final_loss = 0;    // ... and at the crafted input
};

// Crafter 2, lines 3-6: `steps` normalised ascent steps of length `lr` from x0 on the
// mean cross-entropy of (x, y) over the models `shadows` (flat parameters of the dense
// network `widths`).
CraftedInput ascend_shadow_loss(const std::vector<std::int64_t>& widths,
                                const std::vector<std::vector<float>>& shadows,
                                std::vector<float> x0, std::int64_t y, std::size_t steps, double lr,
                                InputBox box);

}  // namespace dpaudit
