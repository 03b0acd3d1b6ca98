// The analytic and the empirical epsilon of a CANIFE run (Maddock et al. 2023). The analytic
// side goes through the run accountant (accounting/run_accountant.hpp): the run is Poisson
// participation at rate q over total_rounds() rounds (sample level: examples; user level:
// clients), and "one round" is a single Gaussian mechanism without amplification (q = 1,
// one step), the theoretical eps_r an audit is compared with. The empirical side is Alg. 2:
// the audits' eps_r composed over the rounds each stands for (accounting/
// empirical_composition.hpp), under both coverings, and once more with an infinite eps_r
// read as the largest finite one the n scores can show; and by the recipe of the authors' first
// public code (October 2022). No tensors.
#pragma once
#include <vector>

#include "accounting/empirical_composition.hpp"
#include "accounting/run_accountant.hpp"
#include "games/canife_audit.hpp"
#include "games/canife_config.hpp"

namespace dpaudit {

// The run's participation model at noise multiplier `sigma`.
RunModel canife_run_model(const CanifeGameConfig& c, double sigma);

// The smallest noise multiplier whose run meets (eps, c.delta) by the accountant of
// `options` (UsageError where none in [1e-4, 1e6] does).
double canife_noise_multiplier(const CanifeGameConfig& c, double eps,
                               const AccountantOptions& options);

struct CanifeAnalytic {
  RunEpsilon run;                 // the whole run at c.delta
  RunEpsilon one_round;           // one round without amplification, at c.delta ...
  RunEpsilon one_round_1n;        // ... and at Maddock et al. 2023's delta 1/n
  double one_round_gaussian = 0;  // the exact Gaussian mechanism's eps at c.delta
};
CanifeAnalytic canife_analytic(const CanifeGameConfig& c, double sigma,
                               const AccountantOptions& options);

// RDP's eps where the accountant computed it, else inf (no noise).
double rdp_or_inf(const RunEpsilon& e);

struct CanifeEmpirical {
  EmpiricalComposition backward, forward;  // Alg. 2 under each covering
  // The backward covering with an infinite eps_r read as the largest finite eps_r n scores
  // can show (one error on each side: 3.88 at n = 100; 0 when n is too small for any).
  double eps_hat_inf_capped = 0;
};
// Alg. 2 over the audits' eps_r; an infinite eps_r falls back to the run's `sigma`
// (Maddock et al. 2023's rule).
CanifeEmpirical canife_empirical(const std::vector<AuditEpsilon>& audits, const CanifeGameConfig& c,
                                 double sigma);

// The recipe of Maddock et al.'s first public code (canary_analyser.py and example_plotter.py of
// October 2022): each audit's eps_r at its max-accuracy threshold at c.delta, inf when either
// error count is 0 (stats/canife_epsilon.hpp), composed by the segment rule at the run's q and
// c.delta, infinite ones skipped (accounting/empirical_composition.hpp). `eps_r` receives the
// per-audit values.
EmpiricalComposition canife_empirical_2022(const std::vector<Audit>& audits,
                                           const CanifeGameConfig& c, std::vector<double>& eps_r);

}  // namespace dpaudit
