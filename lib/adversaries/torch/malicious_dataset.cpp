#include "adversaries/torch/malicious_dataset.hpp"

#include <algorithm>
#include <cmath>

#include "random/streams.hpp"

namespace dpaudit {

void craft_malicious_dataset(std::size_t n, std::uint64_t seed, PerExampleModel& model,
                             const std::vector<float>& theta0, Dataset& data) {
  data.features.resize(n * data.example_size());
  PhiloxStream rng(seed, streams::kSgdCraft);
  for (float& v : data.features) v = static_cast<float>(rng.uniform());
  data.labels.resize(n);
  model.predict(theta0.data(), data.features.data(), n, data.labels.data());
}

Watermark craft_malicious_watermark(const Dataset& train, PerExampleModel& model,
                                    const std::vector<float>& theta0, double clip,
                                    std::size_t coords) {
  const std::size_t d = theta0.size();
  std::vector<float> total(d, 0.0f), grad(d);
  for (std::size_t i = 0; i < train.size(); ++i) {
    std::fill(grad.begin(), grad.end(), 0.0f);
    model.add_clipped_sum(theta0.data(), train.example(i), &train.labels[i], 1, clip, grad.data());
    for (std::size_t j = 0; j < d; ++j) total[j] += std::fabs(grad[j]);
  }
  return select_watermark(total.data(), d, coords / 2);
}

}  // namespace dpaudit
