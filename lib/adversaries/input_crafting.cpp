#include "adversaries/input_crafting.hpp"

#include <algorithm>
#include <cmath>

namespace dpaudit {

InputBox input_box(const Dataset& data) {
  const auto [lo, hi] = std::minmax_element(data.features.begin(), data.features.end());
  return {*lo, *hi};
}

bool normalised_step(std::vector<float>& x, const float* g, double step, InputBox box) {
  double norm2 = 0;
  for (std::size_t j = 0; j < x.size(); ++j) norm2 += double(g[j]) * g[j];
  const double norm = std::sqrt(norm2);
  if (!(norm > 0)) return false;
  const auto scale = static_cast<float>(step / norm);
  for (std::size_t j = 0; j < x.size(); ++j) x[j] = std::clamp(x[j] + scale * g[j], box.lo, box.hi);
  return true;
}

}  // namespace dpaudit
