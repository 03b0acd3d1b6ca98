// Gaussian differential privacy (Dong, Roth & Su 2022, "Gaussian differential
// privacy", JRSS-B): a mechanism is mu-GDP when telling D from D' is at least as hard as
// telling N(0,1) from N(mu,1). The Gaussian mechanism with L2 sensitivity 1 and noise
// sigma is exactly (1/sigma)-GDP (their Thm 2.7), and mu_i-GDP mechanisms compose to
// sqrt(sum mu_i^2)-GDP (their Cor. 3.3), so a full-batch run (q = 1) of T_i steps at
// sigma_i is exactly mu-GDP with mu^2 = sum T_i / sigma_i^2. Every sigma here is the
// noise over the sensitivity: without replacement (replace-one), half the event's sigma
// (lib/accounting/event.hpp).
//
// With subsampling there is no closed form; the central limit theorem of Bu, Dong,
// Long & Su 2020 ("Deep learning with Gaussian differential privacy", HDSR; Dong, Roth &
// Su 2022, Sec. 5) gives, as T grows with q sqrt(T) fixed,
//   Poisson:                mu^2 = sum_i q_i^2 T_i (e^(1/sigma_i^2) - 1),
//   without replacement:    mu^2 = sum_i 2 q_i^2 T_i (e^(1/sigma_i^2) Phi(1.5/sigma_i) + 3
//   Phi(-0.5/sigma_i) - 2).
// That is an approximation, not a bound: it can fall below the true eps (a PLD or RDP
// bound is the sound number). mu-GDP gives (eps, delta(eps))-DP for every eps with the
// Gaussian mechanism's curve (their Cor. 2.13):
//   delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2).
#pragma once
#include <vector>

#include "accounting/event.hpp"

namespace dpaudit {

struct GdpMu {
  double mu;   // may be +inf (e^(1/sigma^2) overflows) or 0 (q^2 e^(1/sigma^2) underflows)
  bool exact;  // every event full-batch (q = 1); otherwise the CLT approximation
};

// Throws UsageError for no events or an invalid event.
GdpMu gdp_mu(const std::vector<AccountingEvent>& events);

// The (eps, delta) curve of mu-GDP: the Gaussian mechanism at sigma = 1/mu, evaluated by
// lib/accounting/analytic_gaussian in log space; eps is +inf for mu = +inf, and eps and
// delta are 0 for mu = 0. Throws UsageError for mu < 0 or NaN.
double gdp_delta(double mu, double eps);
double gdp_epsilon(double mu, double delta);

// The smallest noise multiplier whose `steps` steps at rate q have GDP eps(delta) <= eps
// (bisection to 1e-9 relative, between 1e-4 and 1e6).
double gdp_sigma_for_epsilon(double eps, double q, long long steps, double delta,
                             Sampling sampling = Sampling::poisson);

}  // namespace dpaudit
