#include "core/thread_team.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

using namespace dpaudit;

TEST_CASE("run_team: each step's writes are seen by every thread after the barrier") {
  // Step s: thread k writes cell k; after wait(), every thread reads all cells of step s.
  constexpr std::size_t kThreads = 4, kSteps = 200;
  std::vector<std::size_t> cell(kThreads);
  std::atomic<std::size_t> wrong{0}, calls{0};
  run_team(kThreads, [&](std::size_t k, TeamSync& sync) {
    ++calls;
    for (std::size_t s = 0; s < kSteps; ++s) {
      cell[k] = s * kThreads + k;
      sync.wait();
      for (std::size_t j = 0; j < kThreads; ++j) wrong += cell[j] != s * kThreads + j;
      sync.wait();
    }
  });
  CHECK(calls == kThreads);
  CHECK(wrong == 0);
}

TEST_CASE("run_team: thread 0 is the calling thread; one thread needs no other") {
  const std::thread::id caller = std::this_thread::get_id();
  std::thread::id first;
  std::size_t steps = 0;
  run_team(1, [&](std::size_t k, TeamSync& sync) {
    CHECK(k == 0);
    first = std::this_thread::get_id();
    for (int s = 0; s < 3; ++s, ++steps) sync.wait();
  });
  CHECK((first == caller));
  CHECK(steps == 3);
  run_team(0, [&](std::size_t k, TeamSync&) { CHECK(k == 0); });  // 0 threads: one
}

TEST_CASE("run_team: an exception stops the team and reaches the caller") {
  std::atomic<std::size_t> finished{0};
  CHECK_THROWS_WITH_AS(run_team(3,
                                [&](std::size_t k, TeamSync& sync) {
                                  for (int s = 0; s < 10; ++s) {
                                    if (k == 1 && s == 4) throw std::runtime_error("step 4");
                                    sync.wait();
                                  }
                                  ++finished;
                                }),
                       "step 4", std::runtime_error);
  CHECK(finished == 0);  // the others stopped at the barrier instead of waiting forever
}
