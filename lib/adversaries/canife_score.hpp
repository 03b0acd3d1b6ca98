// The attack score of CANIFE (Maddock et al. 2023, Sec. 3.2: "the canary's attack score"): the
// projection of a round's noisy aggregate on the canary's unit update direction, in units of
// the clip norm. Its distribution with and without the canary gives eps_r
// (stats/canife_epsilon.hpp); the crafting is adversaries/torch/canife_crafter.hpp.
#pragma once
#include <vector>

namespace dpaudit {

// <noisy_sum, v / ||v||> / C, with v the canary's update direction (as many values as
// noisy_sum) and v_norm = ||v||.
double canary_score(const std::vector<double>& noisy_sum, const std::vector<double>& v,
                    double v_norm, double clip);

}  // namespace dpaudit
