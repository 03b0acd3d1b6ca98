#include "stats/sorted_union.hpp"

#include <algorithm>
#include <cmath>

namespace dpaudit {
namespace {

std::size_t lower(const std::vector<double>& v, double t) {
  return static_cast<std::size_t>(std::lower_bound(v.begin(), v.end(), t) - v.begin());
}

std::size_t upper(const std::vector<double>& v, double t) {
  return static_cast<std::size_t>(std::upper_bound(v.begin(), v.end(), t) - v.begin());
}

}  // namespace

std::size_t SortedUnion::below(double t) const {
  return lower(a_, t) + lower(b_, t);
}

std::size_t SortedUnion::at_most(double t) const {
  return upper(a_, t) + upper(b_, t);
}

// The i-th smallest s has at_most(s) > i, and every smaller score has at_most <= i (the
// scores before it in the union are at most i). at_most grows along each list, so the first
// score of a list past i is found by bisection; s is the lesser of the two lists' firsts.
double SortedUnion::least_past(const std::vector<double>& v, std::size_t i) const {
  const auto it =
      std::partition_point(v.begin(), v.end(), [&](double x) { return at_most(x) <= i; });
  return it == v.end() ? INFINITY : *it;
}

double SortedUnion::at(std::size_t i) const {
  return std::min(least_past(a_, i), least_past(b_, i));
}

}  // namespace dpaudit
