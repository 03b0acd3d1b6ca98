#include "io/trial_stream.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace dpaudit {

TrialStream::TrialStream(const std::string& path, std::istream& standard_input)
    : csv_(path, standard_input) {
  guess_col_ = csv_.find_column("guess");
  label_col_ = csv_.column("label");
  if (guess_col_) {
    trial_col_ = csv_.find_column("trial");
  } else {
    trial_col_ = csv_.column("trial");
    value_col_ = csv_.column("score");
  }
}

std::uint64_t TrialStream::trial_id(std::size_t position) const {
  return trial_col_ ? csv_.trial(*trial_col_) : position;
}

bool TrialStream::next(StreamedTrial& trial) {
  if (!guess_col_) return next_pair(trial);
  if (!csv_.next()) return false;
  trial.id = trial_id(count_);
  trial.label = csv_.label(label_col_) == 1;
  const int guess = csv_.label(*guess_col_);
  trial.guess = guess == 1;
  if (last_id_ && trial.id <= *last_id_)
    throw DataError(fmt::format("trial {} comes after trial {} (trial ids must increase: a "
                                "repeated or reordered trial)",
                                trial.id, *last_id_),
                    csv_.where(*trial_col_));
  last_id_ = trial.id;
  ++count_;
  return true;
}

// Two consecutive rows of one trial id, one per label.
bool TrialStream::next_pair(StreamedTrial& trial) {
  if (!csv_.next()) return false;
  const std::uint64_t id = trial_id(count_);
  if (last_id_ && id <= *last_id_)
    throw DataError(fmt::format("trial {} comes after trial {} (trial ids must increase: a "
                                "repeated or reordered trial)",
                                id, *last_id_),
                    csv_.where(*trial_col_));
  const int first_label = csv_.label(label_col_);
  const double first = csv_.number(value_col_);
  if (!csv_.next())
    throw DataError(fmt::format("trial {} ends with its label-{} row: the row with label {} is "
                                "missing",
                                id, first_label, 1 - first_label),
                    csv_.source());
  const std::uint64_t second_id = trial_id(count_);
  const int second_label = csv_.label(label_col_);
  if (second_id != id)
    throw DataError(fmt::format("trial {} has only its label-{} row before trial {}", id,
                                first_label, second_id),
                    csv_.where(*trial_col_));
  if (second_label == first_label)
    throw DataError(fmt::format("trial {} has two rows with label {}", id, first_label),
                    csv_.where(label_col_));
  const double second = csv_.number(value_col_);
  trial.id = id;
  trial.in = first_label == 1 ? first : second;
  trial.out = first_label == 1 ? second : first;
  last_id_ = id;
  ++count_;
  return true;
}

}  // namespace dpaudit
