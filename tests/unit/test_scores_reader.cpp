#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/npy.hpp"
#include "io/scores_reader.hpp"
#include "stats/scores.hpp"

using namespace dpaudit;

namespace {

// Writes `text` to a file named after the test and removes it at scope exit.
struct TempFile {
  std::string path;
  TempFile(const std::string& name, const std::string& text) : path("test_scores_" + name) {
    std::ofstream(path) << text;
  }
  ~TempFile() { std::remove(path.c_str()); }
};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const DataError& e) {
    return e.what();
  }
  return "no DataError";
}

}  // namespace

TEST_CASE("scores CSV: columns by name, --negate, extra columns ignored") {
  TempFile f("ok.csv", "id,score,label,trial\na,0.5,1,0\nb,-0.25,0,0\nc,2,1,1\n");
  const ScoreSet s(read_scores_csv(f.path, {}));
  CHECK(s.in() == std::vector<double>{0.5, 2});
  CHECK(s.out() == std::vector<double>{-0.25});
  ScoreReadOptions negate;
  negate.negate = true;
  CHECK(ScoreSet(read_scores_csv(f.path, negate)).in() == std::vector<double>{-2, -0.5});
}

TEST_CASE("scores CSV by round, in ascending round order") {
  TempFile f("rounds.csv", "label,score,round\n1,0.9,2\n0,0.1,2\n1,0.8,10\n0,0.3,10\n1,0.7,2\n");
  const auto rounds = score_sets(read_scores_csv_by_round(f.path, {}));
  REQUIRE(rounds.size() == 2);
  CHECK(rounds.begin()->first == 2);
  CHECK(rounds.at(2).in() == std::vector<double>{0.7, 0.9});
  CHECK(rounds.at(10).out() == std::vector<double>{0.3});
  CHECK(rounds.at(2).dim() == 0);  // no dim column
  TempFile dims("dims.csv", "label,score,round,dim\n1,0.9,2,7\n0,0.1,2,7\n");
  CHECK(read_scores_csv_by_round(dims.path, {}).at(2).dim == 7);
  CHECK(read_scores_csv(dims.path, {}).dim == 7);
}

TEST_CASE("scores CSV errors name the file, row and column") {
  TempFile empty("empty.csv", "label,score\n");
  CHECK(error_of([&] { read_scores_csv(empty.path, {}); }) ==
        "no score rows (test_scores_empty.csv)");
  TempFile no_out("no_out.csv", "label,score\n1,0.5\n");
  CHECK(error_of([&] { read_scores_csv(no_out.path, {}); }) ==
        "no rows with label 0 (out) (test_scores_no_out.csv)");
  ScoreReadOptions with_null;
  with_null.need_out = false;
  CHECK(read_scores_csv(no_out.path, with_null).in.size() == 1);
  TempFile no_in("no_in.csv", "label,score\n0,0.5\n");
  CHECK(error_of([&] { read_scores_csv(no_in.path, {}); }) ==
        "no rows with label 1 (in) (test_scores_no_in.csv)");
  TempFile bad_label("label.csv", "label,score\n1,0.5\n2,0.1\n");
  CHECK(error_of([&] { read_scores_csv(bad_label.path, {}); }) ==
        "label '2' is not 0 or 1 (test_scores_label.csv, row 3, column 'label')");
  TempFile nan("nan.csv", "label,score\n1,nan\n");
  CHECK(error_of([&] { read_scores_csv(nan.path, {}); }) ==
        "'nan' is not a finite number (test_scores_nan.csv, row 2, column 'score')");
  TempFile missing("missing.csv", "label,value\n1,0.5\n");
  CHECK(error_of([&] { read_scores_csv(missing.path, {}); }).find("missing column 'score'") == 0);
  TempFile cosine("cosine.csv", "label,score\n1,0.5\n1,1.5\n");
  with_null.cosines = true;
  CHECK(
      error_of([&] { read_scores_csv(cosine.path, with_null); }) ==
      "score 1.5 is not a cosine in [-1,1] (the null's dimension) (test_scores_cosine.csv, row 3, "
      "column "
      "'score')");
  TempFile round_missing_class("round_class.csv", "label,score,round\n1,0.5,1\n0,0.1,1\n1,0.2,2\n");
  CHECK(error_of([&] { read_scores_csv_by_round(round_missing_class.path, {}); }) ==
        "no rows with label 0 (out) (test_scores_round_class.csv, round 2)");
  TempFile round_fraction("round_fraction.csv", "label,score,round\n1,0.5,1\n0,0.1,1.5\n");
  CHECK(error_of([&] { read_scores_csv_by_round(round_fraction.path, {}); }) ==
        "round 1.5 is not a whole number (test_scores_round_fraction.csv, row 3, column 'round')");
}

// A `label,score` file is read a block at a time where its rows are plain
// (io/label_score_rows), row by row where they are not: the same scores, in the same order,
// as the row-by-row reading of a stream gives, and errors at the same rows.
TEST_CASE("scores CSV: label,score files, plain rows and others mixed, as read row by row") {
  std::string text = "label,score\n";
  for (int i = 0; i < 30000; ++i) {
    const double x = 0.001 * (i % 997) - 0.3 + 1e-9 * i;
    const std::string odd[] = {"\n", " {},{}\n", "{},{}\r\n", "{},{:e}\n", "{}, +{}\n"};
    text += fmt::format(fmt::runtime(i % 1000 == 7 ? odd[i / 1000 % 5] : "{},{}\n"), i % 2, x);
  }
  text += "1,0.125";  // the last line without its newline
  TempFile f("mixed.csv", text);
  std::istringstream stream(text);
  for (const bool negate : {false, true}) {
    ScoreReadOptions o;
    o.negate = negate;
    const LabelledScores by_path = read_scores_csv(f.path, o);
    stream.clear();
    stream.seekg(0);
    const LabelledScores by_stream = read_scores_csv("-", o, stream);
    CHECK(by_path.in.size() + by_path.out.size() == 30000 - 6 + 1);  // 6 blank lines
    CHECK(by_path.in == by_stream.in);
    CHECK(by_path.out == by_stream.out);
    CHECK(by_path.in.back() == (negate ? -0.125 : 0.125));
  }
  TempFile bad("late_error.csv", text.substr(0, text.size() - 7) + "0,0.5\n1,abc\n");
  CHECK(error_of([&] { read_scores_csv(bad.path, {}); }) ==
        "'abc' is not a finite number (test_scores_late_error.csv, row 30003, column 'score')");
  TempFile cosines("late_cosine.csv",
                   "label,score\n" + std::string(1500000, '\n') + "1,0.5\n0,-1.5\n");
  ScoreReadOptions o;
  o.cosines = true;
  CHECK(error_of([&] { read_scores_csv(cosines.path, o); }) ==
        "score -1.5 is not a cosine in [-1,1] (the null's dimension) (test_scores_late_cosine.csv, "
        "row 1500003, column 'score')");
}

TEST_CASE("NPY pairs, any shape read flat") {
  const double in[4] = {0.4, 0.1, 0.3, 0.2}, out[2] = {-0.1, 0.0};
  save_npy("test_scores_in.npy", in, {2, 2});
  save_npy("test_scores_out.npy", out, {2});
  const ScoreSet s(read_scores_npy("test_scores_in.npy", "test_scores_out.npy", {}));
  CHECK(s.in() == std::vector<double>{0.1, 0.2, 0.3, 0.4});
  CHECK(s.out() == std::vector<double>{-0.1, 0.0});
  CHECK(error_of([] { read_scores_npy("test_scores_in.npy", "", {}); }) ==
        "no out scores: give the out scores FILE.npy (test_scores_in.npy)");
  std::remove("test_scores_in.npy");
  std::remove("test_scores_out.npy");
}

TEST_CASE("decisions CSV counts errors of each kind") {
  TempFile f("decisions.csv", "label,guess\n1,1\n1,0\n0,0\n0,1\n0,0\n1,1\n");
  const DecisionCounts d = read_decisions_csv(f.path);
  CHECK(d.n_in == 3);
  CHECK(d.n_out == 3);
  CHECK(d.false_negatives == 1);
  CHECK(d.false_positives == 1);
  TempFile bad("bad_guess.csv", "label,guess\n1,x\n");
  CHECK(error_of([&] { read_decisions_csv(bad.path); }) ==
        "label 'x' is not 0 or 1 (test_scores_bad_guess.csv, row 2, column 'guess')");
  TempFile one("one_class.csv", "label,guess\n1,1\n");
  CHECK(error_of([&] { read_decisions_csv(one.path); }) ==
        "no rows with label 0 (out) (test_scores_one_class.csv)");
}

TEST_CASE("a trial column: each (trial, label) once, within a round where there is one") {
  // dp-train sgd's layout, rows in any order: 2 trials, both labels each
  TempFile ok("trials.csv", "trial,label,score\n1,1,0.8\n0,0,0.1\n0,1,0.9\n1,0,0.2\n");
  const ScoreSet s(read_scores_csv(ok.path, {}));
  CHECK(s.in() == std::vector<double>{0.8, 0.9});
  CHECK(s.out() == std::vector<double>{0.1, 0.2});
  // the same shard twice: the first repeated pair by row, both rows named
  TempFile twice("twice.csv", "trial,label,score\n0,0,0.1\n0,1,0.9\n1,0,0.2\n0,0,0.1\n0,1,0.9\n");
  CHECK(error_of([&] { read_scores_csv(twice.path, {}); }) ==
        "trial 0 with label 0 appears twice, rows 2 and 5 (shards concatenated twice or with "
        "overlapping trials?) "
        "(test_scores_twice.csv, row 5)");
  // canife's layout repeats trials across rounds: fine, by round or whole; within a round not
  TempFile rounds("rounds.csv",
                  "round,trial,label,score\n0,0,0,0.1\n0,1,1,0.9\n1,0,0,0.2\n1,1,1,0.8\n");
  CHECK(read_scores_csv_by_round(rounds.path, {}).size() == 2);
  CHECK(read_scores_csv(rounds.path, {}).in.size() == 2);
  TempFile repeated("repeated.csv", "round,trial,label,score\n3,0,0,0.1\n3,1,1,0.9\n3,1,1,0.8\n");
  CHECK(error_of([&] { read_scores_csv_by_round(repeated.path, {}); }) ==
        "trial 1 with label 1 in round 3 appears twice, rows 3 and 4 (shards concatenated twice or "
        "with overlapping "
        "trials?) (test_scores_repeated.csv, row 4)");
  TempFile decisions("decisions-trials.csv", "trial,label,guess\n0,0,0\n0,1,1\n1,1,1\n0,1,0\n");
  CHECK(error_of([&] { read_decisions_csv(decisions.path); }) ==
        "trial 0 with label 1 appears twice, rows 3 and 5 (shards concatenated twice or with "
        "overlapping trials?) "
        "(test_scores_decisions-trials.csv, row 5)");
  TempFile half("half.csv", "trial,label,score\n0.5,0,0.1\n");
  CHECK(error_of([&] { read_scores_csv(half.path, {}); }) ==
        "trial 0.5 is not a whole number >= 0 (test_scores_half.csv, row 2, column 'trial')");
}

namespace {

// A shard of dp-train sgd's layout: trials [first, last) of 0:4, score 10 t + label.
std::string sgd_shard(int first, int last, const std::string& hash = "a97ff75d8e83ec7a",
                      int seed = 1) {
  std::string csv = "trial,label,score,config_hash,seed,trial_range,trials\n";
  for (int t = first; t < last; ++t)
    for (int label = 0; label < 2; ++label)
      csv += std::to_string(t) + "," + std::to_string(label) + "," +
             std::to_string(10 * t + label) + "," + hash + "," + std::to_string(seed) + "," +
             std::to_string(first) + ":" + std::to_string(last) + ",4\n";
  return csv;
}

}  // namespace

TEST_CASE("shards: several files read as the unsharded run, in its order, whatever their order") {
  TempFile a("shard_a.csv", sgd_shard(0, 1)), b("shard_b.csv", sgd_shard(1, 3)),
      c("shard_c.csv", sgd_shard(3, 4));
  const std::vector<std::string> shuffled{c.path, a.path, b.path};
  const LabelledScores s = read_scores_csv(shuffled, {});
  CHECK(s.in == std::vector<double>{1, 11, 21, 31});
  CHECK(s.out == std::vector<double>{0, 10, 20, 30});
  // One file holding the whole run is a shard too.
  TempFile whole("shard_whole.csv", sgd_shard(0, 4));
  CHECK(read_scores_csv(whole.path, {}).in == s.in);
  // A shard alone, and several files that are not shards, refused.
  CHECK(error_of([&] { read_scores_csv(b.path, {}); }) ==
        "trial 0 of the run's 0:4 is in no shard (before test_scores_shard_b.csv's 1:3)");
  TempFile plain("plain.csv", "trial,label,score\n0,0,1\n0,1,2\n");
  CHECK(error_of([&] {
          read_scores_csv(std::vector<std::string>{a.path, plain.path}, {});
        }) ==
        "not a shard (no config_hash column): several files are read as the shards of one run "
        "(test_scores_plain.csv)");
  TempFile other_seed("shard_seed.csv", sgd_shard(1, 4, "a97ff75d8e83ec7a", 2));
  CHECK(error_of([&] {
          read_scores_csv(std::vector<std::string>{a.path, other_seed.path}, {});
        }) ==
        "shards of different seeds, 1 and 2 (test_scores_shard_a.csv, test_scores_shard_seed.csv)");
  // The classes are those of the whole: a shard with one class merges.
  TempFile in_only("shard_in.csv",
                   "label,guess,trial,config_hash,seed,trial_range,trials\n1,1,0,a97ff75d8e83ec7a,"
                   "1,0:1,2\n");
  TempFile out_only("shard_out.csv",
                    "label,guess,trial,config_hash,seed,trial_range,trials\n0,1,1,a97ff75d8e83ec7a,"
                    "1,1:2,2\n");
  const DecisionCounts d =
      read_decisions_csv(std::vector<std::string>{out_only.path, in_only.path});
  CHECK(d.n_in == 1);
  CHECK(d.n_out == 1);
  CHECK(d.false_positives == 1);
  CHECK(d.false_negatives == 0);
  CHECK(error_of([&] { read_decisions_csv(in_only.path); }) ==
        "trial 1 of the run's 0:2 is in no shard (after test_scores_shard_in.csv's 0:1)");
}
