#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "stats/sorted_union.hpp"

using namespace dpaudit;

TEST_CASE("SortedUnion: order statistics and counts of two sorted lists") {
  const std::vector<double> a{1, 3, 3, 7}, b{2, 3, 8};
  const SortedUnion u(a, b);  // 1 2 3 3 3 7 8
  CHECK(u.size() == 7);
  const double want[7] = {1, 2, 3, 3, 3, 7, 8};
  for (std::size_t i = 0; i < 7; ++i) CHECK(u.at(i) == want[i]);
  CHECK(u.below(3) == 2);
  CHECK(u.at_most(3) == 5);
  CHECK(u.below(0) == 0);
  CHECK(u.at_most(9) == 7);
}

TEST_CASE("SortedUnion: one list empty, and scores at infinity") {
  const std::vector<double> a{}, b{-INFINITY, 0, INFINITY, INFINITY};
  const SortedUnion u(a, b);
  CHECK(u.size() == 4);
  CHECK(u.at(0) == -INFINITY);
  CHECK(u.at(1) == 0);
  CHECK(u.at(3) == INFINITY);
  CHECK(u.below(INFINITY) == 2);
  CHECK(u.at_most(0) == 2);
}
