// A range of trials [first, last) of a game of many independent trials, each a pure function
// of (seed, trial): a shard of the run (`A:B`, the form the command line and the shard
// columns write, io/shard_stamp.hpp).
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace dpaudit {

struct TrialRange {
  std::size_t first = 0;  // the first trial played
  std::size_t last = 0;   // one past the last
  std::size_t size() const { return last - first; }
  bool operator==(const TrialRange& o) const { return first == o.first && last == o.last; }
};

// "A:B" with whole numbers A and B (at most 18 digits each, no sign) -> {A, B}; nullopt for
// anything else. A < B is not checked here (check_trial_range).
std::optional<TrialRange> read_trial_range(std::string_view text);
// read_trial_range, or UsageError naming {trial_range}: "the trial range must be A:B with whole
// numbers A < B, got 'TEXT'".
TrialRange parse_trial_range(const std::string& text);
// UsageError naming {trial_range} unless A < B <= trials: "the trial range A:B is not a
// non-empty part of [0, N)".
void check_trial_range(const TrialRange& range, std::size_t trials);
// "A:B".
std::string to_string(const TrialRange& range);

}  // namespace dpaudit
