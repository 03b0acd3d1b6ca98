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
  return LotSchedule(false, q, 1);
}

LotSchedule LotSchedule::shuffled(std::size_t epoch_steps) {
  return LotSchedule(true, 0, epoch_steps);
}

const std::vector<std::size_t>& LotSchedule::next(std::size_t step, std::size_t members,
                                                  PhiloxStream& rng) {
  if (!shuffled_) {
    draw_poisson_lot(members, q_, rng, lot_);
    return lot_;
  }
  lot_.clear();
  const std::size_t k = step % epoch_steps_;
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
