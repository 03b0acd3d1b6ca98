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

TEST_CASE("balls-in-bins lots: every member once an epoch, in a uniformly drawn step") {
  // 40 members over 4 steps an epoch: each epoch's lots partition the members; sizes vary.
  // Over 500 epochs each member's step counts are Binomial(500, 1/4) (mean 125, sd 9.7); the
  // largest of the 160 deviations stays within 5 sd (a chance of about 1e-4 to fail).
  LotSchedule lots = LotSchedule::balls_in_bins(4);
  PhiloxStream rng(11, 2);
  std::vector<std::vector<int>> in(40, std::vector<int>(4, 0));
  bool sizes_vary = false;
  for (std::size_t step = 0; step < 2000; ++step) {
    const std::vector<std::size_t>& lot = lots.next(step, 40, rng);
    sizes_vary = sizes_vary || lot.size() != 10;
    CHECK(std::is_sorted(lot.begin(), lot.end()));
    for (const std::size_t m : lot) ++in[m][step % 4];
    if (step % 4 == 3)
      for (const auto& member : in) {
        int total = 0;
        for (const int c : member) total += c;
        REQUIRE(total == static_cast<int>(step / 4 + 1));  // exactly once an epoch
      }
  }
  CHECK(sizes_vary);
  double worst = 0;
  for (const auto& member : in)
    for (const int c : member) worst = std::max(worst, std::abs(c - 125.0));
  CHECK(worst < 5 * std::sqrt(500 * 0.25 * 0.75));
  DpSgdConfig c;
  c.train_size = 1000;
  c.sampling = Sampling::balls_in_bins;
  c.batch = 300;
  CHECK(!c.shuffled());
  CHECK(c.expected_lot() == 300);
  CHECK(c.sampling_rate() == 0.3);
  CHECK(c.epoch_steps() == 4);
  CHECK(parse_lot_sampling("balls-in-bins") == Sampling::balls_in_bins);
  CHECK_THROWS_WITH(parse_lot_sampling("without-replacement"),
                    "unknown sampling 'without-replacement' (poisson, shuffle or balls-in-bins) "
                    "(sampling)");
}
