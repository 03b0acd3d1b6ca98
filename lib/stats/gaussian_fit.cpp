#include "stats/gaussian_fit.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dpaudit {

Gaussian fit_gaussian(const std::vector<double>& x, unsigned ddof) {
  if (x.size() <= ddof) throw UsageError(fmt::format("fit_gaussian: {} samples, needs more than {}", x.size(), ddof));
  const double n = static_cast<double>(x.size());
  double sum = 0;
  for (double v : x) sum += v;
  const double mean = sum / n;
  double squares = 0;
  for (double v : x) squares += (v - mean) * (v - mean);
  return {mean, std::sqrt(squares / (n - ddof))};
}

}  // namespace dpaudit
