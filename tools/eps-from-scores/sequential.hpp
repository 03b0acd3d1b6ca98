// eps-from-scores --sequential: the anytime-valid bound of stats/sequential_audit.hpp over
// trials read as they arrive (io/trial_stream.hpp), with its gate, its trace and its progress.
#pragma once
#include <cstddef>
#include <istream>
#include <optional>
#include <ostream>
#include <string>

#include "stats/sequential_audit.hpp"

namespace dpaudit::eps_from_scores {

struct SequentialRun {
  std::string input = "-";  // the trials: a scores CSV or a decisions CSV; "-": the input stream
  bool decisions = false;   // given as --decisions: the input must be a decision game
  SequentialOptions audit;
  std::size_t every = 0;             // a progress note every this many trials (0: none)
  std::optional<std::string> trace;  // CSV trials,eps_lo: a row at each rise, and the last
  std::optional<double> fail_above;
  bool json = false;
  bool quiet = false;
  std::string output = "-";
};

// Reads trials until the end of the input or until the bound exceeds --fail-above (then a
// refusal, exit 3, the rest unread); prints the final bound (or --json) to `out` or --output.
// A bad row is a DataError after a note with the bound so far.
int run_sequential(const SequentialRun& run, std::istream& in, std::ostream& out,
                   std::ostream& err);

}  // namespace dpaudit::eps_from_scores
