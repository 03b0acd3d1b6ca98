// What a scores file or a decisions file holds, as plain data: the scores of "in" (label 1,
// inserted) and "out" (label 0) samples in the order read, or the counts of a
// distinguishing game's outcomes. The readers are io/scores_reader.hpp; the estimators
// take them as stats/scores.hpp's ScoreSet (sorted) and these DecisionCounts.
#pragma once
#include <cstddef>
#include <vector>

namespace dpaudit {

// Scores by label, in the order read, and the dimension of the vectors they were
// computed in where the input records it (a scores CSV's `dim` column), else 0.
struct LabelledScores {
  std::vector<double> in;
  std::vector<double> out;
  std::size_t dim = 0;
};

// Outcomes of a distinguishing game (Nasr et al. 2021, Matsumoto et al. 2023): label 1 = in, guess
// 1 = "in".
struct DecisionCounts {
  std::size_t n_in = 0;
  std::size_t n_out = 0;
  std::size_t false_negatives = 0;  // label 1, guess 0
  std::size_t false_positives = 0;  // label 0, guess 1
};

}  // namespace dpaudit
