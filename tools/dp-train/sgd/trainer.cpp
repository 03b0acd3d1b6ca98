#include "sgd/trainer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dpaudit::dp_train {

void draw_poisson_lot(std::size_t members, double q, PhiloxStream& rng,
                      std::vector<std::size_t>& lot) {
  lot.clear();
  if (q >= 1) {
    for (std::size_t i = 0; i < members; ++i) lot.push_back(i);
    return;
  }
  const double log_miss = std::log1p(-q);
  for (double next = -1;;) {
    next += std::floor(std::log(rng.uniform()) / log_miss) + 1;
    if (!(next < static_cast<double>(members))) return;
    lot.push_back(static_cast<std::size_t>(next));
  }
}

DpSgdTrainer::DpSgdTrainer(const SgdConfig& config, const Dataset& train, PerExampleModel& model,
                           double sigma)
    : c_(config),
      train_(train),
      model_(model),
      sigma_(sigma),
      shuffled_(config.sampling == LotSampling::shuffle ||
                config.fault == SgdFault::shuffle_as_poisson),
      epoch_steps_(config.epoch_steps()),
      sum_(model.parameter_count()),
      noise_(model.parameter_count()) {}

// Poisson: draw_poisson_lot. Shuffled: at each epoch's first step a fresh permutation of
// the members (Fisher-Yates), cut into epoch_steps lots whose sizes differ by at most one.
void DpSgdTrainer::next_lot(std::size_t step, std::size_t members, PhiloxStream& rng) {
  if (!shuffled_) return draw_poisson_lot(members, c_.q, rng, lot_);
  lot_.clear();
  const std::size_t k = step % epoch_steps_;
  if (k == 0) {
    order_.resize(members);
    for (std::size_t i = 0; i < members; ++i) order_[i] = i;
    shuffle(order_, rng);
  }
  lot_.assign(order_.begin() + static_cast<std::ptrdiff_t>(members * k / epoch_steps_),
              order_.begin() + static_cast<std::ptrdiff_t>(members * (k + 1) / epoch_steps_));
}

void DpSgdTrainer::train(std::vector<float>& theta, PhiloxStream& rng, const Insertion* insertion,
                         const StepObserver& observe) {
  const std::size_t n = train_.size(), d = theta.size(), width = train_.example_size();
  const double clip =
      c_.fault == SgdFault::no_clip ? std::numeric_limits<double>::infinity() : c_.clip;
  const float scale = static_cast<float>(1.0 / c_.expected_lot());
  const float step_size = static_cast<float>(c_.lr);
  for (std::size_t t = 0; t < c_.steps; ++t) {
    next_lot(t, n + (insertion ? 1 : 0), rng);
    bool inserted = false;
    x_.resize(lot_.size() * width);
    y_.resize(lot_.size());
    std::size_t count = 0;
    for (std::size_t i : lot_) {
      if (i == n) {
        inserted = true;
        continue;
      }
      std::copy_n(train_.example(i), width, x_.data() + count * width);
      y_[count++] = train_.labels[i];
    }
    std::fill(sum_.begin(), sum_.end(), 0.0f);
    model_.add_clipped_sum(theta.data(), x_.data(), y_.data(), count, clip, sum_.data());
    if (inserted && (insertion->x || insertion->craft)) {
      const float* x = insertion->craft ? insertion->craft(theta.data()) : insertion->x;
      model_.add_clipped_sum(theta.data(), x, &insertion->y, 1, clip, sum_.data());
    } else if (inserted && !insertion->gradient.empty()) {
      double norm2 = 0;
      for (float g : insertion->gradient) norm2 += double(g) * g;
      const double norm = std::sqrt(norm2);
      const auto factor = static_cast<float>(norm > clip ? clip / norm : 1.0);
      for (std::size_t j = 0; j < d; ++j) sum_[j] += factor * insertion->gradient[j];
    }
    rng.fill_normal(noise_.data(), d);
    const double noise_scale = c_.fault == SgdFault::noise_ignores_clip ? sigma_ : sigma_ * c_.clip;
    for (std::size_t j = 0; j < d; ++j)
      sum_[j] = (sum_[j] + static_cast<float>(noise_scale * noise_[j])) * scale;
    if (observe) observe(t, sum_.data());
    for (std::size_t j = 0; j < d; ++j) theta[j] -= step_size * sum_[j];
  }
}

}  // namespace dpaudit::dp_train
