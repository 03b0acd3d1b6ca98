#include "adversaries/canife_score.hpp"

#include <cstddef>

namespace dpaudit {

double canary_score(const std::vector<double>& noisy_sum, const std::vector<double>& v,
                    double v_norm, double clip) {
  double dot = 0;
  for (std::size_t j = 0; j < v.size(); ++j) dot += noisy_sum[j] * v[j];
  return dot / v_norm / clip;
}

}  // namespace dpaudit
