// log P[Binomial(n, p) = k] without the cancellation of the lgamma form: Loader (2000), "Fast
// and accurate computation of binomial probabilities", whose terms are each small or computed
// without cancellation:
//   log P = stirlerr(n) - stirlerr(k) - stirlerr(n - k) - bd0(k, n p) - bd0(n - k, n (1-p))
//           - (1/2) log(2 pi k (n - k) / n),
// stirlerr(m) = log m! - log(sqrt(2 pi m) (m/e)^m) and bd0(x, M) = x log(x/M) + M - x.
// lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1) adds and subtracts terms of size n log n,
// each rounded to about n log n 2^-53 absolutely: 1.5e-9 at n = 10^6, a relative error of P
// that moved one-run's eps by 4e-10 above the exact root (stats/one_run.cpp).
#pragma once

namespace dpaudit {

// n and k whole numbers, 0 <= k <= n; p given as its log and the log of 1 - p (each <= 0,
// accurate: a caller holds them as such). Where p or 1 - p is below the smallest normal
// double, the lgamma form (the saddle point's n p would underflow).
double log_binomial_pmf(double n, double k, double log_p, double log_1mp);

}  // namespace dpaudit
