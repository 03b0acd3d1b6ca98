// What the estimators read: attack scores of "in" (label 1, inserted) and "out" (label 0)
// samples, sorted, or the decisions of a distinguishing game (io/labelled_scores.hpp's
// DecisionCounts). In memory only: the file readers are io/scores_reader.hpp.
#pragma once
#include <cstddef>
#include <map>
#include <vector>

#include "io/labelled_scores.hpp"

namespace dpaudit {

// In and out scores, each sorted ascending (the constructor sorts), higher meaning
// "more likely in", and the dimension of the vectors they were computed in where the
// input records it (a scores CSV's `dim` column, as score-dump writes), else 0.
class ScoreSet {
 public:
  ScoreSet() = default;
  ScoreSet(std::vector<double> in, std::vector<double> out, std::size_t dim = 0);
  explicit ScoreSet(LabelledScores scores);
  const std::vector<double>& in() const { return in_; }
  const std::vector<double>& out() const { return out_; }
  std::size_t dim() const { return dim_; }

 private:
  std::vector<double> in_;
  std::vector<double> out_;
  std::size_t dim_ = 0;
};

// Each round's scores as a ScoreSet.
std::map<double, ScoreSet> score_sets(std::map<double, LabelledScores> rounds);

// The scores of trials each given as (label, score), label 1 = in and 0 = out (a training
// run's own canary observations).
ScoreSet score_set_of(const std::vector<int>& labels, const std::vector<double>& scores);

}  // namespace dpaudit
