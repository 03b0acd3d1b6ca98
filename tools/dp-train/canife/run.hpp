// `dp-train canife`'s run (Maddock et al. 2023, Alg. 1-2, at sample or user level:
// canife/levels.hpp): DP training, and every --audit-every rounds an audit of the frozen model:
// craft one canary from the design pool (adversaries/torch/canife_crafter.hpp), play n mock rounds
// with fresh participants and noise, the canary in every other one, score each by the noisy sum's
// projection on the canary's unit update divided by C (Maddock et al. 2023, Sec. 3.2), and turn the
// scores into eps_r (stats/canife_epsilon.hpp). After training, Alg. 2 composes the eps_r into
// eps_hat (accounting/empirical_composition.hpp). Writes into --out: scores.csv
// (round,trial,label,score), audits.csv, canaries.npy and run.json.
#pragma once
#include "canife/config.hpp"

namespace dpaudit::dp_train {

// Returns run.json's content.
Json run_canife(const CanifeConfig& config);

}  // namespace dpaudit::dp_train
