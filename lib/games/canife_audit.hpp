// What an audit of Maddock et al. 2023 (CANIFE, Sec. 3.2-3.4) is at either level: one crafted
// canary, the scores of n mock rounds at the frozen model (the canary in every other one,
// starting without), and eps_r from them through the estimator interface
// (stats/estimate.hpp's "canife" row). The levels differ in what a client's update is
// (games/torch/canife_game.hpp); this holds what they share. No tensors.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "adversaries/canife_canary.hpp"
#include "games/canife_config.hpp"
#include "random/philox_stream.hpp"
#include "stats/canife_epsilon.hpp"

namespace dpaudit {

struct Dataset;

// One audit's outcome: a row of audits.csv, its scores and its canary.
struct Audit {
  std::size_t round = 0;
  CraftedCanary canary;
  std::vector<double> scores;  // mock round k: label k % 2
  CanifeEpsilon eps;
  double test_accuracy = 0;
  double design_seconds = 0, mock_seconds = 0;
};

// The first input of Alg. 1: uniform pixels in [0, 1) and a uniform class from `rng`
// (Maddock et al. 2023's code), or the design example `first` of `pool` with its label.
struct CanaryStart {
  std::vector<float> x;
  std::int64_t label = 0;
};
CanaryStart initial_canary(CanaryInit init, const Dataset& pool, std::size_t first,
                           PhiloxStream& rng);

// The scores of an audit's mock rounds with (odd) and without (even) the canary.
void split_scores(const Audit& a, std::vector<double>& in, std::vector<double>& out);

// Every audit's eps_r from its scores: the estimator "canife" per round (Maddock et al. 2023
// App. C.1 at delta = 1/n, its interval two-sided at alpha 0.05).
void estimate_audit_epsilons(std::vector<Audit>& audits);

}  // namespace dpaudit
