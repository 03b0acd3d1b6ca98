#include <doctest/doctest.h>

#include <vector>

#include "core/error.hpp"
#include "stats/scores.hpp"

using namespace dpaudit;

TEST_CASE("ScoreSet sorts each side") {
  const ScoreSet s({3, 1, 2}, {0.5, -1});
  CHECK(s.in() == std::vector<double>{1, 2, 3});
  CHECK(s.out() == std::vector<double>{-1, 0.5});
}

TEST_CASE("ScoreSet from labelled scores keeps the dimension; by round, each round") {
  const ScoreSet s(LabelledScores{{0.9, 0.2}, {0.4}, 7});
  CHECK(s.in() == std::vector<double>{0.2, 0.9});
  CHECK(s.out() == std::vector<double>{0.4});
  CHECK(s.dim() == 7);
  const auto rounds = score_sets({{3, LabelledScores{{2, 1}, {0}, 0}}, {1, {{5}, {6, 4}, 0}}});
  REQUIRE(rounds.size() == 2);
  CHECK(rounds.begin()->first == 1);
  CHECK(rounds.at(1).out() == std::vector<double>{4, 6});
  CHECK(rounds.at(3).in() == std::vector<double>{1, 2});
}

TEST_CASE("ScoreSet of (label, score) per trial") {
  const ScoreSet s = score_set_of({1, 0, 1, 0}, {0.8, 0.3, 0.6, 0.1});
  CHECK(s.in() == std::vector<double>{0.6, 0.8});
  CHECK(s.out() == std::vector<double>{0.1, 0.3});
  CHECK_THROWS_WITH_AS(score_set_of({1, 2}, {0.1, 0.2}), "a label is not 0 or 1", UsageError);
  CHECK_THROWS_WITH_AS(score_set_of({1}, {0.1, 0.2}), "labels and scores differ in length",
                       UsageError);
}
