// Renyi DP accountant for the Poisson-subsampled Gaussian mechanism (Mironov,
// Talwar & Zhang 2019: integer orders by the binomial expansion, fractional orders
// by the two-series expansion, both in log space and summing A_alpha - 1, so that long
// runs keep 1e-12) and for sampling without replacement (Wang, Balle & Kasiviswanathan
// 2019, Thm 27), composed over heterogeneous segments, and converted to (eps, delta)-DP
// with Canonne, Kamath & Steinke 2020, Prop. 12:
// eps = rdp + log((alpha-1)/alpha) - (log delta + log alpha)/(alpha - 1).
#pragma once
#include <vector>

#include "accounting/event.hpp"

namespace dpaudit {

// The events are lib/accounting/event.hpp's; the name stays for the callers.
using RdpEvent = AccountingEvent;

// The union of dp_accounting's and Opacus's default orders:
// 1.1, 1.2, ..., 10.9, 11, 12, ..., 63, 128, 256, 512, 1024.
std::vector<double> default_rdp_orders();

// RDP of one step at order alpha > 1 (alpha/(2 sigma^2) when q = 1), sigma the noise over
// the L2 sensitivity (an event's noise_over_sensitivity: half its sigma without
// replacement).
double subsampled_gaussian_rdp(double sigma, double q, double alpha,
                               Sampling sampling = Sampling::poisson);

// Total RDP at each order, summed over events (steps times the one-step RDP).
// `threads` splits the events; the result does not depend on it. Where the fractional
// orders' series of a Poisson segment loses its digits (noise multiplier ~1e7 or more at
// q 0.01, sigma above 1e154, q near the smallest double), those orders take the chord
// between the neighbouring integer orders, an upper bound (log A_alpha is convex in alpha),
// and `*chord` (when given) is set.
std::vector<double> composed_rdp(const std::vector<RdpEvent>& events,
                                 const std::vector<double>& orders, int threads = 1,
                                 bool* chord = nullptr);

struct RdpResult {
  double epsilon;
  double order;        // the order that attains it
  bool chord = false;  // some fractional orders took the chord (composed_rdp)
};

// The smallest eps over the orders (Canonne, Kamath & Steinke 2020, Prop. 12;
// eps = 0 where delta^2 > 1 - e^-rdp, the bound through the KL divergence, as in
// dp_accounting), never below 0.
RdpResult rdp_to_dp(const std::vector<double>& rdp, const std::vector<double>& orders,
                    double delta);

// Throws UsageError for sigma <= 0, q outside (0,1], steps < 1, delta outside (0,1),
// an order outside (1, 1e5], NaN or Inf, and no events.
RdpResult rdp_epsilon(const std::vector<RdpEvent>& events, double delta,
                      const std::vector<double>& orders = default_rdp_orders(), int threads = 1);

// The smallest noise multiplier whose `steps` steps at rate q meet (eps, delta), to
// 1e-7 relative (bisection on log sigma over [1e-4, 1e6]; UsageError outside).
double rdp_sigma_for_epsilon(double eps, double q, long long steps, double delta,
                             const std::vector<double>& orders = default_rdp_orders(),
                             Sampling sampling = Sampling::poisson);

}  // namespace dpaudit
