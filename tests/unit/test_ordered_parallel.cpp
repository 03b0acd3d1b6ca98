#include "core/ordered_parallel.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace dpaudit;

namespace {

// Item k's result: a pure function of k (a 64-bit mix), so any schedule gives the same list.
std::uint64_t mix(std::uint64_t k) {
  k = (k ^ (k >> 30)) * 0xbf58476d1ce4e5b9ULL;
  k = (k ^ (k >> 27)) * 0x94d049bb133111ebULL;
  return k ^ (k >> 31);
}

// The items as delivered, checking that each delivery starts where the last one ended.
struct Collect {
  std::vector<std::uint64_t> got;
  std::size_t deliveries = 0;
  std::size_t stop_after = SIZE_MAX;
  bool operator()(std::size_t begin, const std::vector<std::uint64_t>& run) {
    REQUIRE(begin == got.size());
    REQUIRE(!run.empty());
    got.insert(got.end(), run.begin(), run.end());
    ++deliveries;
    return got.size() < stop_after;
  }
};

// A worker whose items take uneven times (every 7th is slow), so threads finish out of order.
auto uneven_worker() {
  return [](std::size_t) {
    return [](std::size_t k) {
      if (k % 7 == 3) std::this_thread::sleep_for(std::chrono::microseconds(300));
      return mix(k);
    };
  };
}

}  // namespace

TEST_CASE("ordered_parallel delivers every item in order, whatever the thread count") {
  const std::size_t n = 500;
  std::vector<std::uint64_t> expected(n);
  for (std::size_t k = 0; k < n; ++k) expected[k] = mix(k);
  for (int threads : {1, 2, 3, 8}) {
    Collect c;
    const std::size_t delivered =
        ordered_parallel<std::uint64_t>(n, threads, uneven_worker(), std::ref(c));
    CHECK(delivered == n);
    CHECK(c.got == expected);
    if (threads == 1) CHECK(c.deliveries == n);  // one thread: each item as it finishes
  }
}

TEST_CASE("ordered_parallel stops when deliver says so: no later item is delivered") {
  for (int threads : {1, 4}) {
    Collect c;
    c.stop_after = 100;
    const std::size_t delivered =
        ordered_parallel<std::uint64_t>(100000, threads, uneven_worker(), std::ref(c));
    CHECK(delivered == c.got.size());
    CHECK(delivered >= 100);
    // One thread delivers item by item; more deliver what was done in order at one
    // moment (the items finished while a slow one held them back), then stop.
    if (threads == 1) CHECK(delivered == 100);
    CHECK(delivered < 1000);
    for (std::size_t k = 0; k < delivered; ++k) CHECK(c.got[k] == mix(k));
  }
}

TEST_CASE("ordered_parallel: a worker's exception stops the others and is rethrown") {
  for (int threads : {1, 3}) {
    Collect c;
    std::atomic<std::size_t> played{0};
    const auto failing = [&played](std::size_t) {
      return [&played](std::size_t k) -> std::uint64_t {
        ++played;
        if (k == 40) throw std::runtime_error("item 40");
        return mix(k);
      };
    };
    CHECK_THROWS_WITH_AS(ordered_parallel<std::uint64_t>(100000, threads, failing, std::ref(c)),
                         "item 40", std::runtime_error);
    CHECK(c.got.size() <= 40);  // nothing at or after the failed item
    CHECK(played < 100000);     // the others stopped
  }
}

TEST_CASE("ordered_parallel of no items delivers nothing") {
  Collect c;
  CHECK(ordered_parallel<std::uint64_t>(0, 4, uneven_worker(), std::ref(c)) == 0);
  CHECK(c.deliveries == 0);
}
