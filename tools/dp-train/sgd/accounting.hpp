// The analytic epsilon of a `dp-train sgd` run, and the noise multiplier for a target
// epsilon, with what the bound assumes (reported in --json), from the run accountant
// (lib/accounting/run_accountant.hpp):
//   Poisson lots: the subsampled Gaussian's privacy-loss distribution over the steps (an
//     interval around the true eps) and its RDP; the headline is the smaller sound upper
//     bound of the two, and --eps calibrates z on the PLD.
//   Shuffled or balls-in-bins lots: every example is in one lot per epoch, so E = ceil(T /
//     steps per epoch) participations of a Gaussian mechanism at z, composed exactly; no
//     amplification is claimed (no tight bound is known for shuffling; rdp-compose
//     --sampling balls-in-bins bounds the random allocation by Monte Carlo).
// A run with the fault shuffle-as-poisson is accounted as Poisson: that is the fault.
#pragma once
#include <optional>
#include <string>

#include "accounting/pld.hpp"
#include "accounting/run_accountant.hpp"
#include "sgd/config.hpp"

namespace dpaudit::dp_train {

struct SgdAccounting {
  double noise_multiplier = 0;
  double epsilon = 0;      // the headline: the smallest sound upper bound computed
  std::string accountant;  // "pld-poisson", "rdp-poisson" or "gaussian-epochs"
  std::string assumes;
  std::optional<PldInterval> pld;  // Poisson lots (absent where the PLD is out of reach)
  double rdp = 0;                  // Poisson lots
  // Final-model threats (api, static-poison): the last-iterate heuristic of Steinke et al.
  // 2025 (run_accountant.hpp's last_iterate_heuristic), a target, not a bound.
  std::optional<LastIterate> last_iterate;
};

// With config.eps > 0, the smallest noise multiplier meeting (eps, delta); otherwise
// config.noise_multiplier, and its epsilon.
SgdAccounting account_sgd_run(const SgdConfig& config);

}  // namespace dpaudit::dp_train
