// What an audit of Maddock et al. 2023 (CANIFE, Sec. 3.2-3.4) is at either level: one crafted
// canary, the scores of n mock rounds at the frozen model (the canary in every other one, starting
// without), and eps_r from them. The levels differ in what a client's update is
// (canife/sample_level.hpp, canife/user_level.hpp); this holds what they share, and the
// output files (scores.csv, audits.csv, canaries.npy, run.json's estimates). No LibTorch.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "adversaries/canife_score.hpp"
#include "adversaries/torch/canife_crafter.hpp"
#include "canife/config.hpp"
#include "io/json.hpp"
#include "random/philox_stream.hpp"
#include "stats/canife_epsilon.hpp"

namespace dpaudit::dp_train {

struct Dataset;
class StagingDir;

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

// eps_r of a's scores (Maddock et al. 2023 App. C.1 at delta = 1/n, stats/canife_epsilon.hpp).
void estimate_epsilon(Audit& a);

// scores.csv, audits.csv and canaries.npy into the staging folder; `sigma` is the run's z.
void write_audit_files(const StagingDir& staging, const std::vector<Audit>& audits,
                       const CanifeConfig& c, double sigma, std::size_t example_size);

// run.json's accounting: the analytic bounds ("analytic"), Alg. 2's eps_hat under both
// coverings ("empirical_backward", "empirical_forward", "eps_hat"), "eps_hat_inf_capped"
// and the per-audit eps_r ("audits"), added to `run`.
void add_estimates(Json& run, const std::vector<Audit>& audits, const CanifeConfig& c,
                   double sigma);

}  // namespace dpaudit::dp_train
