// One-sided upper confidence bounds on a binomial proportion (a false-positive or
// false-negative rate measured as k errors in n trials), at confidence 1 - alpha.
// These turn an attack's observed error rates into the high-probability rates of
// Nasr et al. 2021, Eq. 5 (Clopper-Pearson) and Andrew et al. 2024, Sec. 5.1 (Jeffreys).
#pragma once
#include <cstddef>

namespace dpaudit {

// Clopper-Pearson (exact) upper bound: the 1-alpha quantile of Beta(k+1, n-k);
// 1 when k = n, and 1 - alpha^(1/n) when k = 0.
// Throws UsageError unless 0 < alpha < 1, n > 0 and k <= n.
double clopper_pearson_upper(std::size_t k, std::size_t n, double alpha);

// Jeffreys upper bound: the 1-alpha quantile of the Jeffreys posterior
// Beta(k+1/2, n-k+1/2); 1 when k = n (Brown, Cai and DasGupta 2001). Same checks.
double jeffreys_upper(std::size_t k, std::size_t n, double alpha);

// How an estimator turns an observed count into the rate it plugs into the
// epsilon formula.
enum class RateBound {
  point,            // k/n, the point estimate (no confidence)
  clopper_pearson,  // clopper_pearson_upper
  jeffreys,         // jeffreys_upper
};

// The natural log of the chosen rate: log(k/n) (-inf at k = 0) for point,
// otherwise the log of the upper bound, accurate when the bound is tiny.
double log_rate_upper(RateBound bound, std::size_t k, std::size_t n, double alpha);

}  // namespace dpaudit
