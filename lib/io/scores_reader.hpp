// Readers of the attack-score and decision formats (docs: scores CSV
// `label,score[,id,round,trial,dim]`, NPY pairs, decisions CSV `label,guess`). Every reader
// error is a DataError naming the file, and where there is one, the row and column.
// A path "-" (or "") reads `standard_input`.
#pragma once
#include <cstddef>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "io/labelled_scores.hpp"

namespace dpaudit {

struct ScoreReadOptions {
  bool negate = false;   // lower score = more likely in: use -score
  bool need_out = true;  // rows with label 0 are required (not with an analytic null)
  bool cosines = false;  // scores are cosines: each must lie in [-1, 1]
  std::size_t dim = 0;   // --null-dim: a `dim` column must hold it (0: not given)
};

// The scores of a CSV file as one set. DataError for an empty input, a missing column, a
// bad label or score, or a missing class; when the optional `dim` column is present, for
// a dim that is not a whole number >= 1, differs between rows, or is not options.dim; and
// when the optional `trial` column is present, for a trial that is not a whole number >= 0
// or a (trial, label) pair given twice (within a round where there is a `round` column:
// shards concatenated twice or overlapping).
//
// Several files are the shards of one run (io/shard_stamp.hpp's columns; dp-train
// --trial-range), read as one: each checked as a shard, together as shard_order checks
// them (io/shard_merge.hpp: one seed, one configuration, trials 0:N without overlap or gap),
// their dims equal, then their rows in the order of their trials, so the sets are the
// unsharded run's, score for score and in its order. A single file that is a shard is
// checked the same way (it must hold the whole run). The classes are checked on the whole.
LabelledScores read_scores_csv(const std::vector<std::string>& paths,
                               const ScoreReadOptions& options,
                               std::istream& standard_input = std::cin);
inline LabelledScores read_scores_csv(const std::string& path, const ScoreReadOptions& options,
                                      std::istream& standard_input = std::cin) {
  return read_scores_csv(std::vector<std::string>{path}, options, standard_input);
}

// The same split by the `round` column (whole numbers), rounds in ascending order;
// each round must have the classes the options require.
std::map<double, LabelledScores> read_scores_csv_by_round(const std::vector<std::string>& paths,
                                                          const ScoreReadOptions& options,
                                                          std::istream& standard_input = std::cin);
inline std::map<double, LabelledScores> read_scores_csv_by_round(
    const std::string& path, const ScoreReadOptions& options,
    std::istream& standard_input = std::cin) {
  return read_scores_csv_by_round(std::vector<std::string>{path}, options, standard_input);
}

// In scores from one NPY file and out scores from another (empty path: none, for
// an analytic null); arrays of any shape are read as flat lists.
LabelledScores read_scores_npy(const std::string& in_path, const std::string& out_path,
                               const ScoreReadOptions& options);

// The counts of a decisions CSV (`label`,`guess`, both 0/1) with both classes present;
// an optional `trial` column as read_scores_csv's. Several files: the shards of one run,
// checked as read_scores_csv's, their counts added.
DecisionCounts read_decisions_csv(const std::vector<std::string>& paths,
                                  std::istream& standard_input = std::cin);
inline DecisionCounts read_decisions_csv(const std::string& path,
                                         std::istream& standard_input = std::cin) {
  return read_decisions_csv(std::vector<std::string>{path}, standard_input);
}

}  // namespace dpaudit
