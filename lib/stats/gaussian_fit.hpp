// A Gaussian fitted to scores by its sample mean and standard deviation, by
// default with ddof 0 (divide by n), as mean()/std() in Andrew et al. 2024, Alg. 1-3 and numpy.
#pragma once
#include <vector>

#include "accounting/two_gaussian.hpp"

namespace dpaudit {

// Two passes (mean, then squared deviations) so a large common offset costs no
// digits, in units of a power of two near the largest |x| so that scores near 1e308 or
// subnormal ones neither overflow nor underflow (a spread beyond 1.8e308 is inf). The variance
// divides by n - ddof (ddof 1: the unbiased sample variance). Throws UsageError unless there are
// more than ddof samples.
Gaussian fit_gaussian(const std::vector<double>& x, unsigned ddof = 0);

}  // namespace dpaudit
