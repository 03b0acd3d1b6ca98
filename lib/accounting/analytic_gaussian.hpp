// The analytic Gaussian mechanism (Balle & Wang 2018, Thm 8) with L2 sensitivity 1
// and noise standard deviation sigma: the exact
//   delta(eps) = Phi(1/(2 sigma) - eps sigma) - e^eps Phi(-1/(2 sigma) - eps sigma),
// evaluated in log space, and its inverses in eps and sigma. Andrew et al. 2024, Table 2 calibrates
// sigma with it (4.22, 1.54, 0.541 for eps 1, 3, 10 at delta 1e-6).
#pragma once

namespace dpaudit {

// Throw UsageError for sigma <= 0, eps < 0, delta outside (0,1), NaN or Inf.
double gaussian_mechanism_delta(double sigma, double eps);
double gaussian_mechanism_log_delta(double sigma, double eps);
// Smallest eps >= 0 meeting delta, to 1e-10 relative.
double gaussian_mechanism_epsilon(double sigma, double delta);
// k releases of the Gaussian mechanism at sigma, each seen by the adversary, compose
// exactly to one at sigma / sqrt(k) (Dong, Roth & Su 2019, Cor. 3.3): its eps at delta
// (0 for k = 0: nothing is released). Same checks as gaussian_mechanism_epsilon.
double gaussian_composition_epsilon(double sigma, double k, double delta);
// Smallest sigma whose mechanism is (eps, delta)-DP, to 1e-12 relative; DataError
// where delta rounds to 0 before reaching the target (sigma beyond ~1e13 for eps <= 1e-12).
double gaussian_mechanism_sigma(double eps, double delta);

}  // namespace dpaudit
