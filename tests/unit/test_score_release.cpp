#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "canary/score_release.hpp"
#include "core/error.hpp"
#include "io/npy.hpp"

using namespace dpaudit;

namespace {

// Canaries as an NPY matrix, so every expected score is a hand-computable cosine.
const std::string kCanaries = "test_score_release_canaries.npy";
const std::string kModel = "test_score_release_model.npy";
const std::string kReference = "test_score_release_reference.npy";
const std::string kDeltas = "test_score_release_deltas.npy";

void write_files() {
  const double canaries[6] = {1, 0, 0,   // c0 = e1
                              0, 3, 4};  // c1, norm 5
  save_npy(kCanaries, canaries, {2, 3});
  const double model[3] = {2, 0, 0};
  save_npy(kModel, model, {3});
  const double reference[3] = {2, -1, 0};  // model - reference = e2
  save_npy(kReference, reference, {3});
  const double deltas[6] = {1, 0, 0,   // round 0: cosines 1 and 0
                            0, 0, 1};  // round 1: cosines 0 and 4/5
  save_npy(kDeltas, deltas, {2, 3});
}

}  // namespace

TEST_CASE("score_canaries: cosine with a model, with a model delta, and over rounds") {
  write_files();
  ScoreRequest r;
  r.canaries = kCanaries;
  r.unseen = kCanaries;  // the same two canaries again, labelled 0
  r.model = kModel;
  auto s = score_canaries(r);
  REQUIRE(s.rows.size() == 4);
  CHECK(s.dim == 3);
  CHECK(s.rows[0].id == 0);
  CHECK(s.rows[0].label == 1);
  CHECK(s.rows[0].score == doctest::Approx(1.0));  // <e1, 2 e1> / 2
  CHECK(s.rows[1].score == doctest::Approx(0.0));
  CHECK(s.rows[3].id == 3);
  CHECK(s.rows[3].label == 0);

  r.reference = kReference;  // m - R = e2: cosines 0 and 3/5
  s = score_canaries(r);
  CHECK(s.rows[0].score == doctest::Approx(0.0));
  CHECK(s.rows[1].score == doctest::Approx(0.6));

  r.model.clear();
  r.reference.clear();
  r.deltas = kDeltas;
  r.reduce = RoundReduce::max;  // max(1, 0) and max(0, 0.8)
  s = score_canaries(r);
  CHECK(s.rows[0].score == doctest::Approx(1.0));
  CHECK(s.rows[1].score == doctest::Approx(0.8));
  r.reduce = RoundReduce::mean;  // (1 + 0)/2 and (0 + 0.8)/2
  s = score_canaries(r);
  CHECK(s.rows[0].score == doctest::Approx(0.5));
  CHECK(s.rows[1].score == doctest::Approx(0.4));

  r.stat = ScoreStat::dot;  // <c1, e3> = 4 in round 1 only
  s = score_canaries(r);
  CHECK(s.rows[1].score == doctest::Approx(2.0));
}

TEST_CASE("score_canaries: a dimension mismatch names both sizes") {
  write_files();
  const double wide[4] = {1, 2, 3, 4};
  save_npy(kModel, wide, {4});
  ScoreRequest r;
  r.canaries = kCanaries;
  r.model = kModel;
  try {
    score_canaries(r);
    FAIL("mismatch accepted");
  } catch (const DataError& e) {
    CHECK(std::string(e.what()) == "canary dimension 3 does not match model dimension 4 (" +
                                       kCanaries + ", " + kModel + ")");
  }
  r.model.clear();
  CHECK_THROWS_AS(score_canaries(r), UsageError);  // neither model nor deltas
  r.canaries = "-";
  r.model = "-";
  try {
    score_canaries(r);
    FAIL("two inputs from stdin accepted");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()) == "canaries and model cannot both be - (stdin)");
    CHECK(e.pattern() == "{canaries} and {model} cannot both be - (stdin)");
  }
  for (const auto& f : {kCanaries, kModel, kReference, kDeltas}) std::remove(f.c_str());
}

TEST_CASE(
    "label_scores: inserted canaries first (label 1), ids run on into the unseen ones (label 0)") {
  const std::vector<LabelledScore> s = label_scores({0.5, -1.0}, {2.0});
  REQUIRE(s.size() == 3);
  CHECK((s[0].id == 0 && s[0].label == 1 && s[0].score == 0.5));
  CHECK((s[1].id == 1 && s[1].label == 1 && s[1].score == -1.0));
  CHECK((s[2].id == 2 && s[2].label == 0 && s[2].score == 2.0));
  CHECK(label_scores({}, {}).empty());
}
