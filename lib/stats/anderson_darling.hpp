// The Anderson-Darling statistic for normality with mean and variance estimated
// from the sample, the check Andrew et al. 2024, App. B (Table 6) applies to each set of canary
// cosines. Same definition as scipy.stats.anderson(x, 'norm'):
//   w_i = (x_(i) - mean) / s  (sorted, s with ddof 1),
//   A^2 = -n - sum_i (2i-1)/n [log Phi(w_i) + log(1 - Phi(w_(n+1-i)))],
// with the logs taken directly so far tails do not round to log 0.
#pragma once
#include <cstddef>
#include <vector>

namespace dpaudit {

// x sorted ascending, at least 2 values, not all equal; else UsageError.
double anderson_darling_normal(const std::vector<double>& x_sorted);

// The statistic above which normality is rejected at `significance_percent`
// (15, 10, 5, 2.5 or 1; else UsageError) for a sample of n: Stephens' (1974) table
// for estimated mean and variance, scaled by 1 / (1 + 4/n - 25/n^2) as scipy does.
// Andrew et al. 2024, Table 6 quotes the unscaled table values, 0.656 at 10% and 1.092 at 1%.
double anderson_darling_critical_value(std::size_t n, double significance_percent);

}  // namespace dpaudit
