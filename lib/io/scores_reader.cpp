#include "io/scores_reader.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <new>
#include <optional>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/huge_pages.hpp"
#include "io/csv.hpp"
#include "io/label_score_rows.hpp"
#include "io/npy.hpp"
#include "io/shard_merge.hpp"
#include "io/shard_stamp.hpp"

namespace dpaudit {
namespace {

// The optional `dim` column: one whole number for the whole file, equal to options.dim
// when that is given. Returns the file's dim (0 without the column).
class DimColumn {
 public:
  DimColumn(const CsvReader& csv, const ScoreReadOptions& options)
      : col_(csv.find_column("dim")), expected_(options.dim) {}
  void check_row(const CsvReader& csv) {
    if (!col_) return;
    const double d = csv.number(*col_);
    if (!is_whole_number(d, 1))
      throw DataError(fmt::format("dim {} is not a whole number >= 1", format_number(d)),
                      csv.where(*col_));
    const auto dim = static_cast<std::size_t>(d);
    if (expected_ > 0 && dim != expected_)
      throw DataError(
          Pattern{fmt::format("the scores were computed in dimension {}, not {{null_dim}} {}", dim,
                              expected_)},
          literal(csv.where(*col_)));
    if (dim_ > 0 && dim != dim_)
      throw DataError(fmt::format("dim {} differs from the dim {} of the rows above", dim, dim_),
                      csv.where(*col_));
    dim_ = dim;
  }
  std::size_t dim() const { return dim_; }

 private:
  std::optional<std::size_t> col_;
  std::size_t expected_;
  std::size_t dim_ = 0;
};

// The optional `trial` column (dp-train sgd and canife write one): each (trial, label) at
// most once (within a round where there is a round column). Rows from shards concatenated
// twice, or from overlapping trial ranges, would otherwise count twice and narrow the
// bound. The keys are kept (24 bytes a row) and sorted at the end: no order is assumed.
class TrialColumn {
 public:
  explicit TrialColumn(const CsvReader& csv)
      : col_(csv.find_column("trial")), round_col_(csv.find_column("round")) {}
  void add_row(const CsvReader& csv, int label) {
    if (!col_) return;
    rows_.push_back({round_col_ ? csv.number(*round_col_) : 0.0, csv.trial(*col_), label,
                     static_cast<std::uint64_t>(csv.line())});
  }
  // DataError naming the pair and both rows (the first two by row of the first repeated key).
  void check(const std::string& source) {
    std::sort(rows_.begin(), rows_.end(), [](const Row& a, const Row& b) {
      return std::tie(a.round, a.trial, a.label, a.row) <
             std::tie(b.round, b.trial, b.label, b.row);
    });
    const Row* first = nullptr;
    const Row* second = nullptr;
    for (std::size_t i = 1; i < rows_.size(); ++i) {
      const Row &a = rows_[i - 1], &b = rows_[i];
      if (a.round == b.round && a.trial == b.trial && a.label == b.label &&
          (!second || b.row < second->row)) {
        first = &a;
        second = &b;
      }
    }
    if (!second) return;
    const std::string round =
        round_col_ ? fmt::format(" in round {}", format_number(first->round)) : "";
    throw DataError(
        fmt::format(
            "trial {} with label {}{} appears twice, rows {} and {} (shards concatenated twice or "
            "with overlapping trials?)",
            first->trial, first->label, round, first->row, second->row),
        fmt::format("{}, row {}", source, second->row));
  }

 private:
  struct Row {
    double round;
    std::uint64_t trial;
    int label;
    std::uint64_t row;
  };
  std::optional<std::size_t> col_, round_col_;
  std::vector<Row> rows_;
};

// A score as the estimators see it: checked against the cosine range, then negated.
// `where()` names it in the error (built only then: it costs more than the check).
template <class Where>
double checked_score(double s, const ScoreReadOptions& options, const Where& where) {
  if (options.cosines && (s < -1 || s > 1))
    throw DataError(
        Pattern{fmt::format("score {} is not a cosine in [-1,1] ({{null_dim}})", format_number(s))},
        literal(where()));
  return options.negate ? -s : s;
}

void check_classes(const LabelledScores& c, const ScoreReadOptions& options,
                   const std::string& where) {
  if (c.in.empty() && c.out.empty()) throw DataError("no score rows", where);
  if (c.in.empty()) throw DataError("no rows with label 1 (in)", where);
  if (options.need_out && c.out.empty()) throw DataError("no rows with label 0 (out)", where);
}

// The round column of the current row: a whole number (1.5 is no round).
double round_of(const CsvReader& csv, std::size_t col) {
  const double r = csv.number(col);
  if (r != std::floor(r))
    throw DataError(fmt::format("round {} is not a whole number", format_number(r)),
                    csv.where(col));
  return r;
}

// One file's rows, keyed by round (one key, 0, when by_round is false), its dim (0 without
// a dim column) and its shard stamp where it is a shard (io/shard_stamp.hpp). The classes
// are checked once the files are merged.
struct FileRows {
  std::string source;
  std::map<double, LabelledScores> rounds;
  std::size_t dim = 0;
  std::optional<ShardStamp> stamp;
};

// Room in both classes for the rows a `label,score` file of this size may hold, guessed at
// one per 16 bytes (a score of real data takes 16 or more with its label; a shorter guess only
// costs the vectors' usual regrowth), its storage advised into huge pages: no regrowth's copy
// and 512 times fewer first-touch page faults (10^7 rows: the CSV read 0.29 -> 0.25 CPU-s).
// Nothing for standard input or a file that is not a regular one, nor where the guess cannot
// be reserved.
void reserve_for_file(const std::string& path, LabelledScores& scores) {
  struct stat file {};
  if (path == "-" || stat(path.c_str(), &file) != 0 || !S_ISREG(file.st_mode)) return;
  const auto rows = static_cast<std::size_t>(file.st_size) / 16;
  try {
    reserve_huge_pages(scores.in, rows);
    reserve_huge_pages(scores.out, rows);
  } catch (const std::bad_alloc&) {
    // a hint only: a guess the memory cannot hold leaves the rows to the usual regrowth
  }
}

FileRows read_file_rows(const std::string& path, const ScoreReadOptions& options, bool by_round,
                        std::istream& standard_input) {
  CsvReader csv(path, standard_input);
  const std::size_t label_col = csv.column("label");
  const std::size_t score_col = csv.column("score");
  const std::size_t round_col = by_round ? csv.column("round") : 0;
  DimColumn dims(csv, options);
  TrialColumn trials(csv);
  std::optional<ShardColumns> shard = ShardColumns::find(csv);
  FileRows file{csv.source(), {}, 0, std::nullopt};
  LabelledScores* only = by_round ? nullptr : &file.rounds[0];
  // A file of `label,score` alone: what the row-by-row reading below would read, taken a
  // block at a time where the rows are plain (io/label_score_rows); the rest row by row.
  const bool plain = !by_round && csv.header() == std::vector<std::string>{"label", "score"};
  if (plain) reserve_for_file(path, *only);
  while (true) {
    if (plain) {
      const RowScan scan = scan_label_score_rows(csv.whole_lines(), options.negate, options.cosines,
                                                 only->in, only->out);
      csv.skip_lines(scan.bytes, scan.rows);
    }
    if (!csv.next()) break;
    dims.check_row(csv);
    const int label = csv.label(label_col);
    trials.add_row(csv, label);
    if (shard) shard->add_row(csv);
    const double score =
        checked_score(csv.number(score_col), options, [&] { return csv.where(score_col); });
    LabelledScores& target = by_round ? file.rounds[round_of(csv, round_col)] : *only;
    (label == 1 ? target.in : target.out).push_back(score);
  }
  if (by_round && file.rounds.empty()) throw DataError("no score rows", csv.source());
  trials.check(csv.source());
  if (shard) file.stamp = shard->finish(csv.source());
  file.dim = dims.dim();
  return file;
}

// The order in which to read the files: a single file that is no shard as it is; otherwise
// the shards of one run, checked (io/shard_merge.hpp), by first trial.
template <class File>
std::vector<std::size_t> file_order(const std::vector<File>& files) {
  if (files.size() == 1 && !files.front().stamp) return {0};
  std::vector<ShardFile> shards;
  for (const File& f : files) {
    if (!f.stamp)
      throw DataError(
          "not a shard (no config_hash column): several files are read as the shards of one run",
          f.source);
    shards.push_back({f.source, *f.stamp});
  }
  return shard_order(shards);
}

// `from`'s scores after `to`'s (moved where `to` is empty: one file's 10^7 scores are not
// copied).
void append(std::vector<double>& to, std::vector<double>& from) {
  if (to.empty())
    to = std::move(from);
  else
    to.insert(to.end(), from.begin(), from.end());
}

// The files' rows as one set per round, in the files' order; their dims must agree.
std::map<double, LabelledScores> merged_rows(std::vector<FileRows>& files,
                                             const ScoreReadOptions& options, bool by_round) {
  std::map<double, LabelledScores> rounds;
  const FileRows* first = nullptr;
  for (const std::size_t i : file_order(files)) {
    FileRows& f = files[i];
    if (first && f.dim != first->dim)
      throw DataError(
          fmt::format("dim {} differs from the dim {} of {}", f.dim, first->dim, first->source),
          f.source);
    first = first ? first : &f;
    for (auto& [round, scores] : f.rounds) {
      LabelledScores& target = rounds[round];
      append(target.in, scores.in);
      append(target.out, scores.out);
    }
  }
  const std::string source = files.size() == 1 ? files.front().source : "the shards";
  for (const auto& [round, classes] : rounds)
    check_classes(classes, options,
                  by_round ? fmt::format("{}, round {}", source, format_number(round)) : source);
  for (auto& entry : rounds) entry.second.dim = first->dim;
  return rounds;
}

std::map<double, LabelledScores> read_rows(const std::vector<std::string>& paths,
                                           const ScoreReadOptions& options, bool by_round,
                                           std::istream& standard_input) {
  std::vector<FileRows> files;
  for (const std::string& path : paths)
    files.push_back(read_file_rows(path, options, by_round, standard_input));
  return merged_rows(files, options, by_round);
}

std::vector<double> read_npy_scores(const std::string& path, const ScoreReadOptions& options) {
  NpyArray a = read_npy(path);
  if (a.data.empty()) throw DataError("empty array: no scores", path);
  for (std::size_t i = 0; i < a.data.size(); ++i)
    a.data[i] =
        checked_score(a.data[i], options, [&] { return fmt::format("{}, element {}", path, i); });
  return std::move(a.data);
}

}  // namespace

LabelledScores read_scores_csv(const std::vector<std::string>& paths,
                               const ScoreReadOptions& options, std::istream& standard_input) {
  return std::move(read_rows(paths, options, false, standard_input).begin()->second);
}

std::map<double, LabelledScores> read_scores_csv_by_round(const std::vector<std::string>& paths,
                                                          const ScoreReadOptions& options,
                                                          std::istream& standard_input) {
  return read_rows(paths, options, true, standard_input);
}

LabelledScores read_scores_npy(const std::string& in_path, const std::string& out_path,
                               const ScoreReadOptions& options) {
  LabelledScores scores;
  scores.in = read_npy_scores(in_path, options);
  if (!out_path.empty()) scores.out = read_npy_scores(out_path, options);
  if (options.need_out && scores.out.empty())
    throw DataError(Pattern{"no out scores: give {out} FILE.npy"}, literal(in_path));
  return scores;
}

namespace {

struct DecisionFile {
  std::string source;
  DecisionCounts counts;
  std::optional<ShardStamp> stamp;
};

DecisionFile read_decision_file(const std::string& path, std::istream& standard_input) {
  CsvReader csv(path, standard_input);
  const std::size_t label_col = csv.column("label");
  const std::size_t guess_col = csv.column("guess");
  TrialColumn trials(csv);
  std::optional<ShardColumns> shard = ShardColumns::find(csv);
  DecisionFile file{csv.source(), {}, std::nullopt};
  DecisionCounts& counts = file.counts;
  while (csv.next()) {
    const int label = csv.label(label_col);
    const int guess = csv.label(guess_col);
    trials.add_row(csv, label);
    if (shard) shard->add_row(csv);
    if (label == 1) {
      ++counts.n_in;
      if (guess == 0) ++counts.false_negatives;
    } else {
      ++counts.n_out;
      if (guess == 1) ++counts.false_positives;
    }
  }
  trials.check(csv.source());
  if (shard) file.stamp = shard->finish(csv.source());
  return file;
}

}  // namespace

DecisionCounts read_decisions_csv(const std::vector<std::string>& paths,
                                  std::istream& standard_input) {
  std::vector<DecisionFile> files;
  for (const std::string& path : paths) files.push_back(read_decision_file(path, standard_input));
  DecisionCounts counts;
  for (const std::size_t i : file_order(files)) {
    const DecisionCounts& c = files[i].counts;
    counts.n_in += c.n_in;
    counts.n_out += c.n_out;
    counts.false_negatives += c.false_negatives;
    counts.false_positives += c.false_positives;
  }
  const std::string source = files.size() == 1 ? files.front().source : "the shards";
  if (counts.n_in + counts.n_out == 0) throw DataError("no decision rows", source);
  if (counts.n_in == 0) throw DataError("no rows with label 1 (in)", source);
  if (counts.n_out == 0) throw DataError("no rows with label 0 (out)", source);
  return counts;
}

}  // namespace dpaudit
