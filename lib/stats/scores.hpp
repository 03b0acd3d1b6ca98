// What the estimators read: attack scores of "in" (label 1, inserted) and "out"
// (label 0) samples, or the decisions of a distinguishing game, with the readers
// of the formats in DESIGN.md (scores CSV `label,score[,id,round,trial,dim]`, NPY
// pairs, decisions CSV `label,guess`). Every reader error is a DataError naming
// the file, and where there is one, the row and column.
#pragma once
#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace dpaudit {

// In and out scores, each sorted ascending (the constructor sorts), higher meaning
// "more likely in", and the dimension of the vectors they were computed in where the
// input records it (a scores CSV's `dim` column, as score-dump writes), else 0.
class ScoreSet {
 public:
  ScoreSet() = default;
  ScoreSet(std::vector<double> in, std::vector<double> out, std::size_t dim = 0);
  const std::vector<double>& in() const { return in_; }
  const std::vector<double>& out() const { return out_; }
  std::size_t dim() const { return dim_; }

 private:
  std::vector<double> in_;
  std::vector<double> out_;
  std::size_t dim_ = 0;
};

// Outcomes of a distinguishing game (002, 004): label 1 = in, guess 1 = "in".
struct DecisionCounts {
  std::size_t n_in = 0;
  std::size_t n_out = 0;
  std::size_t false_negatives = 0;  // label 1, guess 0
  std::size_t false_positives = 0;  // label 0, guess 1
};

struct ScoreReadOptions {
  bool negate = false;   // lower score = more likely in: use -score
  bool need_out = true;  // rows with label 0 are required (not with an analytic null)
  bool cosines = false;  // scores are cosines: each must lie in [-1, 1]
  std::size_t dim = 0;   // --null-dim: a `dim` column must hold it (0: not given)
};

// The scores of a CSV file ("-" = stdin) as one set. DataError for an empty input,
// a missing column, a bad label or score, or a missing class; when the optional
// `dim` column is present, for a dim that is not a whole number >= 1, differs between
// rows, or is not options.dim; and when the optional `trial` column is present, for a
// trial that is not a whole number >= 0 or a (trial, label) pair given twice (within a
// round where there is a `round` column: shards concatenated twice or overlapping).
ScoreSet read_scores_csv(const std::string& path, const ScoreReadOptions& options);

// The same split by the `round` column (whole numbers), rounds in ascending order;
// each round must have the classes the options require.
std::map<double, ScoreSet> read_scores_csv_by_round(const std::string& path,
                                                    const ScoreReadOptions& options);

// In scores from one NPY file and out scores from another (empty path: none, for
// an analytic null); arrays of any shape are read as flat lists.
ScoreSet read_scores_npy(const std::string& in_path, const std::string& out_path,
                         const ScoreReadOptions& options);

// The counts of a decisions CSV (`label`,`guess`, both 0/1) with both classes present;
// an optional `trial` column as read_scores_csv's.
DecisionCounts read_decisions_csv(const std::string& path);

}  // namespace dpaudit
