#include "train/torch/dp_sgd.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dpaudit {

DpSgdTrainer::DpSgdTrainer(const DpSgdConfig& config, const Dataset& train, PerExampleModel& model,
                           double sigma)
    : c_(config),
      train_(train),
      model_(model),
      sigma_(sigma),
      lots_(LotSchedule::of(config)),
      sum_(model.parameter_count()),
      noise_(model.parameter_count()) {}

void DpSgdTrainer::add_insertion(const std::vector<float>& theta, const Insertion& insertion,
                                 double clip) {
  if (insertion.x || insertion.craft) {
    const float* x = insertion.craft ? insertion.craft(theta.data()) : insertion.x;
    model_.add_clipped_sum(theta.data(), x, &insertion.y, 1, clip, sum_.data());
  } else if (!insertion.gradient.empty()) {
    double norm2 = 0;
    for (float g : insertion.gradient) norm2 += double(g) * g;
    const double norm = std::sqrt(norm2);
    const auto factor = static_cast<float>(norm > clip ? clip / norm : 1.0);
    for (std::size_t j = 0; j < theta.size(); ++j) sum_[j] += factor * insertion.gradient[j];
  }
}

void DpSgdTrainer::train(std::vector<float>& theta, PhiloxStream& rng, const Insertion* insertion,
                         const StepObserver& observe) {
  const std::size_t n = train_.size(), d = theta.size(), width = train_.example_size();
  const double clip =
      c_.fault == SgdFault::no_clip ? std::numeric_limits<double>::infinity() : c_.clip;
  const float scale = static_cast<float>(1.0 / c_.expected_lot());
  const float step_size = static_cast<float>(c_.lr);
  for (std::size_t t = 0; t < c_.steps; ++t) {
    const std::vector<std::size_t>& lot = lots_.next(t, n + (insertion ? 1 : 0), rng);
    bool inserted = false;
    x_.resize(lot.size() * width);
    y_.resize(lot.size());
    std::size_t count = 0;
    for (std::size_t i : lot) {
      if (i == n) {
        inserted = true;
        continue;
      }
      std::copy_n(train_.example(i), width, x_.data() + count * width);
      y_[count++] = train_.labels[i];
    }
    std::fill(sum_.begin(), sum_.end(), 0.0f);
    model_.add_clipped_sum(theta.data(), x_.data(), y_.data(), count, clip, sum_.data());
    if (inserted) add_insertion(theta, *insertion, clip);
    rng.fill_normal(noise_.data(), d);
    const double noise_scale = c_.fault == SgdFault::noise_ignores_clip ? sigma_ : sigma_ * c_.clip;
    for (std::size_t j = 0; j < d; ++j)
      sum_[j] = (sum_[j] + static_cast<float>(noise_scale * noise_[j])) * scale;
    if (observe) observe(t, sum_.data());
    for (std::size_t j = 0; j < d; ++j) theta[j] -= step_size * sum_[j];
  }
}

}  // namespace dpaudit
