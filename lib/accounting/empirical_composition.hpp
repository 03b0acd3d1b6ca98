// Maddock et al. 2023, Alg. 2 (Sec. 3.4, App. C.2): an empirical epsilon for a whole training run
// from the per-round estimates eps_r of its audits. Each eps_r becomes the noise multiplier sigma_r
// of a single Gaussian step (q = 1, one step) that is (max(eps_r, floor), round_delta)-DP under RDP
// (GetNoise; round_delta is Maddock et al. 2023's 1/n; an infinite eps_r falls back to the run's
// own sigma), and the rounds each audit stands for are composed as subsampled Gaussian steps at the
// run's sampling rate q (GetPrivacy, RDP, final delta). Which rounds an audit stands for:
//   backward  the rounds since the previous audit (Maddock et al. 2023's code), the first
//             audit also the rounds before it, and the last audit also the rounds after it;
//   forward   the rounds from the audit to the next (Alg. 2 line 8), the first audit also
//             the rounds before it.
// Both cover every round of the run exactly once. How an eps_r becomes a noise (the rule):
//   one_step  as above (Alg. 2, and Maddock et al. 2023's code since February 2023);
//   segment   the authors' first public code (plotting/example_plotter.py, October 2022, before
//             its "Fix empirical eps composition"): eps_r is read as the eps of the whole
//             segment of rounds its audit stands for, sigma_r the noise at which those rounds,
//             Poisson-subsampled at q, meet (max(eps_r, floor), delta) under RDP; an infinite
//             eps_r is skipped (no noise assumed, sigma_r = inf, no rounds) and its rounds join
//             the next finite audit's segment, or after the last one the last finite audit's
//             (the code left them out); a skipped audit's running eps_hat is inf (as the
//             code's), and with every eps_r infinite so is eps_hat. The floor is ours (the
//             code had none: no noise meets eps_r = 0). Composed segments read each
//             eps_r as a property of many rounds, so eps_hat stays near the largest eps_r.
#pragma once
#include <vector>

namespace dpaudit {

enum class AuditCover { backward, forward };
enum class EmpiricalRule { one_step, segment };

struct AuditEpsilon {
  long long round;  // the training round the audit was made at, in [0, total_rounds)
  double epsilon;   // eps_r, >= 0 or +inf
};

struct EmpiricalComposition {
  std::vector<double> sigma;        // sigma_r per audit
  std::vector<long long> covered;   // rounds each audit stands for
  std::vector<double> running_eps;  // eps_hat of the rounds up to each audit's last covered round
  double epsilon = 0;               // eps_hat of the whole run
};

struct EmpiricalCompositionOptions {
  double q = 1;                // the run's sampling rate
  long long total_rounds = 0;  // R
  double round_delta = 0.01;   // delta of eps_r (Maddock et al. 2023: 1/n)
  double delta = 1e-5;         // delta of eps_hat
  AuditCover cover = AuditCover::backward;
  double floor = 0.15;      // GetNoise's floor on eps_r (Maddock et al. 2023's code)
  double sigma_if_inf = 0;  // the run's noise multiplier, for eps_r = inf (one_step)
  EmpiricalRule rule = EmpiricalRule::one_step;
};

// Throws UsageError for no audits, rounds not strictly increasing within [0, R), a
// negative or NaN eps_r, an inf eps_r without sigma_if_inf > 0 (one_step), or options out of range;
// DataError for a finite eps_r above what noise 1e-4 gives (about 4e7 at delta 0.01).
EmpiricalComposition compose_empirical(const std::vector<AuditEpsilon>& audits,
                                       const EmpiricalCompositionOptions& options);

}  // namespace dpaudit
