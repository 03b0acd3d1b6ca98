// Nasr et al. 2021's Crafter 5 (malicious dataset, Sec. IV-F): the adversary writes the
// whole training set and knows the initial model, so it needs no observation. D is N
// inputs with uniform [0, 1) values labelled by the initial model's predictions, and
// Crafter 4's watermark (adversaries/watermark.hpp) goes on the 2n coordinates where the
// examples' gradients at theta_0, summed in absolute value, are smallest (exactly zero on
// a ReLU unit no crafted input activates).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "adversaries/watermark.hpp"
#include "data/datasets.hpp"
#include "train/torch/per_example_model.hpp"

namespace dpaudit {

// Fills `data` (its example_shape set) with n crafted examples, the inputs from the
// Philox stream (seed, streams::kSgdCraft), labelled by `model` at theta0.
void craft_malicious_dataset(std::size_t n, std::uint64_t seed, PerExampleModel& model,
                             const std::vector<float>& theta0, Dataset& data);

// The watermark's `coords` coordinates for the data set `train`, from the examples'
// gradients (clipped to `clip`) at theta0.
Watermark craft_malicious_watermark(const Dataset& train, PerExampleModel& model,
                                    const std::vector<float>& theta0, double clip,
                                    std::size_t coords);

}  // namespace dpaudit
