// The eps of a run whose steps are mixtures of Gaussians (AccountingEvent::micro > 1: gradient
// accumulation, or one release of the last-iterate heuristic), as analytic_epsilon.hpp's for the
// subsampled Gaussian: the PLD interval (pld_mixture.hpp), and where the PLD is out of double's
// reach (a DataError: noise so small or so large that no lattice fits the loss) a sound bound
// instead, named in `note`:
//   0 where the record joins no step with probability at least 1 - delta, i.e.
//     1 - prod_i (1 - q_i)^(micro_i steps_i) <= delta (the total variation of the run is at most
//     the probability that the record is ever drawn);
//   otherwise RDP's bound for the Gaussian mechanism at sensitivity micro (sigma / micro, q 1, the
//   same steps), which dominates the mixture: by the joint convexity of the hockey-stick
//   divergence, H(sum_k p_k N_k || N_0) <= sum_k p_k H(N_k || N_0) <= H(N_micro || N_0), and the
//   same for the add direction, at every e^eps >= 0, so its trade-off curve lies below and stays
//   below under composition. Loose (K = micro every step), but sound.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "accounting/event.hpp"
#include "accounting/pld.hpp"

namespace dpaudit {

struct MixtureEpsilon {
  double epsilon = 0;              // the PLD's upper end, or the fallback
  std::optional<PldInterval> pld;  // absent where the PLD is out of reach (note says why)
  double pld_lattice = 0;
  std::string note;  // why the PLD is absent and what was used instead
};

// `threads` and `lattice` as PldOptions'; the PLD's roundoff is held to 1e-4 of delta, as
// analytic_epsilon's. UsageError as PldAccountant's, or for delta outside (0, 1).
MixtureEpsilon mixture_epsilon(const std::vector<AccountingEvent>& events, double delta,
                               int threads = 1, double lattice = 0);

// The one release of the last-iterate heuristic of Steinke et al. 2025 (event.hpp): T steps at
// noise multiplier sigma and Poisson rate q, M micro-batches a step: N(0, T sigma^2) against
// N(K, T sigma^2), K ~ Binomial(T M, q), i.e. {sigma sqrt(T), q, 1, poisson, T M}. UsageError
// where T M is beyond 2^63 - 1.
AccountingEvent last_iterate_event(double sigma, double q, long long steps, long long micro = 1);

}  // namespace dpaudit
