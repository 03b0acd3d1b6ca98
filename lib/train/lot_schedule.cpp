#include "train/lot_schedule.hpp"

#include <cmath>

#include "data/datasets.hpp"

namespace dpaudit {

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

LotSchedule LotSchedule::poisson(double q) {
  return LotSchedule(Sampling::poisson, q, 1);
}

LotSchedule LotSchedule::shuffled(std::size_t epoch_steps) {
  return LotSchedule(Sampling::shuffle, 0, epoch_steps);
}

LotSchedule LotSchedule::balls_in_bins(std::size_t epoch_steps) {
  return LotSchedule(Sampling::balls_in_bins, 0, epoch_steps);
}

LotSchedule LotSchedule::of(const DpSgdConfig& config) {
  if (config.sampling == Sampling::balls_in_bins) return balls_in_bins(config.epoch_steps());
  return config.shuffled() ? shuffled(config.epoch_steps()) : poisson(config.q);
}

const std::vector<std::size_t>& LotSchedule::next(std::size_t step, std::size_t members,
                                                  PhiloxStream& rng) {
  if (sampling_ == Sampling::poisson) {
    draw_poisson_lot(members, q_, rng, lot_);
    return lot_;
  }
  lot_.clear();
  const std::size_t k = step % epoch_steps_;
  if (sampling_ == Sampling::balls_in_bins) {
    if (k == 0) {  // every member's step, then the members grouped by step (a counting sort)
      std::vector<std::size_t> slot(members);
      starts_.assign(epoch_steps_ + 1, 0);
      for (std::size_t i = 0; i < members; ++i)
        ++starts_[(slot[i] = uniform_below(rng, epoch_steps_)) + 1];
      for (std::size_t t = 0; t < epoch_steps_; ++t) starts_[t + 1] += starts_[t];
      order_.resize(members);
      std::vector<std::size_t> fill(starts_.begin(), starts_.end() - 1);
      for (std::size_t i = 0; i < members; ++i) order_[fill[slot[i]]++] = i;
    }
    lot_.assign(order_.begin() + static_cast<std::ptrdiff_t>(starts_[k]),
                order_.begin() + static_cast<std::ptrdiff_t>(starts_[k + 1]));
    return lot_;
  }
  if (k == 0) {
    order_.resize(members);
    for (std::size_t i = 0; i < members; ++i) order_[i] = i;
    shuffle(order_, rng);
  }
  lot_.assign(order_.begin() + static_cast<std::ptrdiff_t>(members * k / epoch_steps_),
              order_.begin() + static_cast<std::ptrdiff_t>(members * (k + 1) / epoch_steps_));
  return lot_;
}

}  // namespace dpaudit
