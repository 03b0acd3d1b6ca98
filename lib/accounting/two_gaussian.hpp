// The exact (eps, delta) curve between two Gaussians with unequal variances
// (Andrew et al. 2024, Sec. 3.2), computed from the privacy-loss random variable in log space.
#pragma once
#include "accounting/log_space.hpp"

namespace dpaudit {

// delta(eps) = max over both directions of the hockey-stick divergence
// E_P[(1 - e^eps dQ/dP)_+]. Throws UsageError for a stddev <= 0, a NaN/Inf
// parameter, or eps < 0 / NaN.
double two_gaussian_delta(const Gaussian& p, const Gaussian& q, double eps);
// The same as a natural logarithm (-inf when delta is 0), accurate far below 1e-308.
double two_gaussian_log_delta(const Gaussian& p, const Gaussian& q, double eps);
// Smallest eps >= 0 with two_gaussian_delta(p,q,eps) <= delta, to 1e-10 relative;
// +inf when none is finite (up to 1e100), and for means more than 1e150 standard
// deviations apart. Throws UsageError unless 0 < delta < 1. Computed after mapping the
// narrower Gaussian to N(0,1) (eps is invariant under affine maps).
double two_gaussian_epsilon(const Gaussian& p, const Gaussian& q, double delta);

}  // namespace dpaudit
