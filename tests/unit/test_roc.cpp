#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

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

namespace {

// RocPoints against roc_sweep, point for point.
void check_points_match(const std::vector<double>& in, const std::vector<double>& out) {
  const RocSweep sweep = roc_sweep(in, out);
  const RocPoints points(in, out);
  REQUIRE(points.size() == sweep.points.size());
  CHECK(points.n_in() == in.size());
  CHECK(points.n_out() == out.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    const OperatingPoint p = points[i], q = sweep.points[i];
    CHECK(p.threshold == q.threshold);
    CHECK(p.true_positives == q.true_positives);
    CHECK(p.false_positives == q.false_positives);
  }
}

}  // namespace

TEST_CASE("RocPoints: roc_sweep's points on demand, with and without ties") {
  check_points_match({0.4, 0.8, 0.9}, {0.1, 0.35, 0.7});  // distinct: computed on demand
  check_points_match({0.4, 0.8, 0.9}, {0.1, 0.4, 0.7});   // 0.4 in both classes
  check_points_match({1, 1, 2, 2, 2}, {});                // ties within a class
  check_points_match({}, {-3, -1, 2});
  check_points_match({-0.0, 1}, {0.0, 2});  // -0 and 0 are one score
  std::vector<double> in, out;
  for (int i = 0; i < 500; ++i) (i % 3 ? in : out).push_back(std::ldexp(i * 7919 % 1009, -3));
  std::sort(in.begin(), in.end());
  std::sort(out.begin(), out.end());
  check_points_match(in, out);  // 500 distinct scores, the classes interleaved
  in.push_back(in.back());
  check_points_match(in, out);  // and one tie at the top
  CHECK_THROWS_AS(RocPoints({2, 1}, {}), UsageError);
}
