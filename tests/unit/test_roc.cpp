#include <doctest/doctest.h>

#include "core/error.hpp"
#include "stats/roc.hpp"

using namespace dpaudit;

TEST_CASE("ROC sweep: one point per distinct score, ties between classes share a point") {
  // in {0.4, 0.8, 0.9}, out {0.1, 0.4, 0.7}; rule: in when score >= t.
  const RocSweep s = roc_sweep({0.4, 0.8, 0.9}, {0.1, 0.4, 0.7});
  CHECK(s.n_in == 3);
  CHECK(s.n_out == 3);
  REQUIRE(s.points.size() == 5);
  const double t[5] = {0.9, 0.8, 0.7, 0.4, 0.1};
  const std::size_t tp[5] = {1, 2, 2, 3, 3}, fp[5] = {0, 0, 1, 2, 3};
  for (int i = 0; i < 5; ++i) {
    CHECK(s.points[i].threshold == t[i]);
    CHECK(s.points[i].true_positives == tp[i]);
    CHECK(s.points[i].false_positives == fp[i]);
  }
  CHECK(s.false_negatives(s.points[1]) == 1);
}

TEST_CASE("ROC sweep of one class, and repeated scores") {
  const RocSweep s = roc_sweep({1, 1, 2, 2, 2}, {});
  REQUIRE(s.points.size() == 2);
  CHECK(s.points[0].true_positives == 3);
  CHECK(s.points[1].true_positives == 5);
  CHECK(s.points[1].false_positives == 0);
}

TEST_CASE("operating point of a fixed threshold counts scores >= it") {
  const std::vector<double> in{0.4, 0.8, 0.9}, out{0.1, 0.4, 0.7};
  const OperatingPoint a = operating_point_at(in, out, 0.5);
  CHECK(a.true_positives == 2);
  CHECK(a.false_positives == 1);
  const OperatingPoint b = operating_point_at(in, out, 0.4);  // inclusive
  CHECK(b.true_positives == 3);
  CHECK(b.false_positives == 2);
}

TEST_CASE("unsorted input is refused") {
  CHECK_THROWS_AS(roc_sweep({2, 1}, {0}), UsageError);
}
