// The trials of a distinguishing game read one at a time, as they arrive (a pipe from a
// trainer that is still running), for a sequential audit (stats/sequential_audit.hpp):
//   - a score game: rows `trial,label,score` (docs/formats.md), each trial two consecutive
//     rows, one per label in either order, trial ids strictly increasing (dp-train sgd);
//   - a decision game: rows `label,guess` (dp-train ldp), one per trial, with an optional
//     `trial` column that must then increase strictly.
// Every error is a DataError naming the file, the row and, where it is about one, the trial.
#pragma once
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>

#include "io/csv.hpp"

namespace dpaudit {

struct StreamedTrial {
  std::uint64_t id = 0;               // the trial column, or the trial's position from 0
  double in = 0, out = 0;             // a score game's scores (label 1, label 0)
  bool label = false, guess = false;  // a decision game's row
};

class TrialStream {
 public:
  // A path "-" (or "") reads `standard_input`. The header decides the game: a `guess` column
  // makes it a decision game, otherwise `trial`, `label` and `score` are required.
  explicit TrialStream(const std::string& path, std::istream& standard_input = std::cin);

  bool decisions() const { return guess_col_.has_value(); }
  // The next trial; false at the end of the input.
  bool next(StreamedTrial& trial);
  const std::string& source() const { return csv_.source(); }

 private:
  std::uint64_t trial_id(std::size_t position) const;
  bool next_pair(StreamedTrial& trial);

  CsvReader csv_;
  std::size_t label_col_ = 0, value_col_ = 0;
  std::optional<std::size_t> guess_col_, trial_col_;
  std::uint64_t count_ = 0;
  std::optional<std::uint64_t> last_id_;
};

}  // namespace dpaudit
