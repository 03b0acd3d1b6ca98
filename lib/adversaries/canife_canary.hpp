// What Maddock et al. 2023's canary crafting (Alg. 1, CANIFE; adversaries/torch/canife_crafter.hpp)
// takes and gives, without LibTorch: the loss it minimises, its options and the crafted canary,
// so that the game's configuration and audit records (games/canife_*) need no autograd.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dpaudit {

enum class CanaryLoss { cov, mean };
CanaryLoss parse_canary_loss(const std::string& name);  // "cov" | "mean", UsageError naming {loss}
std::string to_string(CanaryLoss loss);

struct CraftOptions {
  std::size_t steps = 2500;  // Adam steps T
  double lr = 1;             // Adam's learning rate (Maddock et al. 2023: 1)
  CanaryLoss loss = CanaryLoss::cov;
  double norm_constant = 1;     // C_n; 0 drops the hinge term
  double clip = 1;              // C
  std::size_t minibatch = 128;  // m design updates per step (all of the pool when it has fewer)
};

struct CraftedCanary {
  std::vector<float> x;  // the crafted input
  std::int64_t label = 0;
  double initial_loss = 0;      // L over the whole pool at the initial input
  double final_loss = 0;        // ... and at the crafted one
  double health = 0;            // (initial - final) / initial (Maddock et al. 2023 Sec. 4.2)
  std::vector<float> gradient;  // g at the crafted input (unclipped)
  double gradient_norm = 0;
};

}  // namespace dpaudit
