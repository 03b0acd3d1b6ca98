#include <doctest/doctest.h>

#include "core/error.hpp"
#include "core/trial_range.hpp"

using namespace dpaudit;

TEST_CASE("trial range: A:B read, written back, and checked against the run's trials") {
  CHECK(read_trial_range("0:100") == TrialRange{0, 100});
  CHECK(read_trial_range("250:500")->size() == 250);
  CHECK(read_trial_range("5:3") == TrialRange{5, 3});  // read; check_trial_range refuses it
  CHECK(to_string(TrialRange{100, 200}) == "100:200");
  CHECK(read_trial_range("999999999999999999:1000000000000000000") == std::nullopt);  // 19 digits
  for (const char* bad : {"", "4", ":4", "4:", "-1:3", "1:+3", "a:b", "1:2:3", " 1:2", "1.5:3"}) {
    CAPTURE(bad);
    CHECK(read_trial_range(bad) == std::nullopt);
  }
  CHECK(parse_trial_range("3:9") == TrialRange{3, 9});
  try {
    parse_trial_range("4");
    FAIL("no UsageError");
  } catch (const UsageError& e) {
    CHECK(e.pattern() ==
          "the trial range must be A:B with whole numbers A < B, got '4' ({trial_range})");
  }
  check_trial_range({0, 10}, 10);
  check_trial_range({9, 10}, 10);
  for (const TrialRange r : {TrialRange{5, 3}, TrialRange{4, 4}, TrialRange{0, 11}}) {
    try {
      check_trial_range(r, 10);
      FAIL("no UsageError");
    } catch (const UsageError& e) {
      CHECK(e.pattern() == "the trial range " + to_string(r) +
                               " is not a non-empty part of [0, 10) ({trial_range})");
    }
  }
}
