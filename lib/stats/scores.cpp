#include "stats/scores.hpp"

#include <algorithm>
#include <utility>

#include "core/error.hpp"
#include "core/sort_doubles.hpp"

namespace dpaudit {

ScoreSet::ScoreSet(std::vector<double> in, std::vector<double> out, std::size_t dim)
    : in_(std::move(in)), out_(std::move(out)), dim_(dim) {
  // One linear pass skips the sort of input that is in order already: the bootstrap's
  // resamples and jackknife deletions (stats/bootstrap) are built sorted, and sorting
  // them dominated its time.
  // Long classes sort by VQSort (core/sort_doubles: 10^7 scores in ~0.15 s, std::sort ~1 s).
  if (!std::is_sorted(in_.begin(), in_.end())) sort_ascending(in_);
  if (!std::is_sorted(out_.begin(), out_.end())) sort_ascending(out_);
}

ScoreSet::ScoreSet(LabelledScores scores)
    : ScoreSet(std::move(scores.in), std::move(scores.out), scores.dim) {}

std::map<double, ScoreSet> score_sets(std::map<double, LabelledScores> rounds) {
  std::map<double, ScoreSet> sets;
  for (auto& [round, scores] : rounds) sets.emplace(round, ScoreSet(std::move(scores)));
  return sets;
}

ScoreSet score_set_of(const std::vector<int>& labels, const std::vector<double>& scores) {
  if (labels.size() != scores.size()) throw UsageError("labels and scores differ in length");
  LabelledScores s;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (labels[i] != 0 && labels[i] != 1) throw UsageError("a label is not 0 or 1");
    (labels[i] == 1 ? s.in : s.out).push_back(scores[i]);
  }
  return ScoreSet(std::move(s));
}

}  // namespace dpaudit
