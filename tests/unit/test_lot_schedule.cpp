// DP-SGD's lots (train/lot_schedule): shuffled lots cover every member exactly once per
// epoch in lots whose sizes differ by at most one, with a fresh order each epoch; Poisson
// lots are the schedule's draw_poisson_lot (its statistics: tests/torch/test_sgd_per_example).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include <doctest/doctest.h>

#include "random/philox_stream.hpp"
#include "train/dp_sgd_config.hpp"
#include "train/lot_schedule.hpp"

using namespace dpaudit;
using namespace dpaudit;

TEST_CASE("shuffled lots: each epoch a permutation of the members, cut into near-equal lots") {
  // 23 members in 5 lots per epoch: sizes floor(23 k / 5) differences, 4 or 5 each.
  LotSchedule lots = LotSchedule::shuffled(5);
  PhiloxStream rng(7, 1);
  std::vector<std::vector<std::size_t>> epochs(3);
  for (std::size_t step = 0; step < 15; ++step) {
    const std::vector<std::size_t>& lot = lots.next(step, 23, rng);
    CHECK((lot.size() == 4 || lot.size() == 5));
    epochs[step / 5].insert(epochs[step / 5].end(), lot.begin(), lot.end());
  }
  std::vector<std::size_t> all(23);
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  for (auto epoch : epochs) {
    std::sort(epoch.begin(), epoch.end());
    CHECK(epoch == all);  // every member exactly once per epoch
  }
  CHECK(epochs[0] != epochs[1]);  // a fresh order (the same order has odds 1 / 23!)
}

TEST_CASE("Poisson lots: the schedule draws exactly what draw_poisson_lot draws") {
  LotSchedule lots = LotSchedule::poisson(0.3);
  PhiloxStream a(3, 9), b(3, 9);
  std::vector<std::size_t> expected;
  for (std::size_t step = 0; step < 20; ++step) {
    draw_poisson_lot(50, 0.3, b, expected);
    CHECK(lots.next(step, 50, a) == expected);
  }
  // And its lots have mean size q N = 15: over 2,000 steps the mean's sd is
  // sqrt(50 0.3 0.7 / 2000) = 0.072, so 5 sd is 0.36.
  double total = 0;
  for (std::size_t step = 0; step < 2000; ++step)
    total += static_cast<double>(lots.next(step, 50, a).size());
  CHECK(std::abs(total / 2000 - 15.0) < 0.36);
}

TEST_CASE("DP-SGD's lot sizes and rates: q N and q for Poisson lots, B and B / N shuffled") {
  DpSgdConfig c;
  c.train_size = 1000;
  c.q = 0.1;
  CHECK(c.expected_lot() == doctest::Approx(100));
  CHECK(c.sampling_rate() == 0.1);
  CHECK(c.epoch_steps() == 10);  // what the shuffling fault uses: B = round(q N) = 100
  CHECK(!c.shuffled());
  c.fault = SgdFault::shuffle_as_poisson;
  CHECK(c.shuffled());
  c.fault = SgdFault::none;
  c.sampling = Sampling::shuffle;
  c.batch = 300;
  CHECK(c.shuffled());
  CHECK(c.expected_lot() == 300);
  CHECK(c.sampling_rate() == 0.3);
  CHECK(c.epoch_steps() == 4);  // ceil(1000 / 300)
}
