#include "stats/roc.hpp"

#include <algorithm>
#include <string>

#include "core/error.hpp"
#include "core/huge_pages.hpp"

namespace dpaudit {
namespace {

void check_sorted(const std::vector<double>& v, const char* which) {
  if (!std::is_sorted(v.begin(), v.end()))
    throw UsageError(std::string("roc_sweep: the ") + which + " scores are not sorted ascending");
}

// Number of values >= t in an ascending list.
std::size_t count_at_least(const std::vector<double>& sorted, double t) {
  return static_cast<std::size_t>(sorted.end() - std::lower_bound(sorted.begin(), sorted.end(), t));
}

}  // namespace

RocSweep roc_sweep(const std::vector<double>& in_sorted, const std::vector<double>& out_sorted) {
  check_sorted(in_sorted, "in");
  check_sorted(out_sorted, "out");
  RocSweep sweep;
  sweep.n_in = in_sorted.size();
  sweep.n_out = out_sorted.size();
  reserve_huge_pages(sweep.points, sweep.n_in + sweep.n_out);  // 240 MB at 10^7 scores
  // Walk both lists from the top; each step takes every score equal to the next
  // highest value from both, so ties between in and out share one point.
  std::size_t in_left = in_sorted.size();
  std::size_t out_left = out_sorted.size();
  while (in_left > 0 || out_left > 0) {
    const double t = in_left == 0    ? out_sorted[out_left - 1]
                     : out_left == 0 ? in_sorted[in_left - 1]
                                     : std::max(in_sorted[in_left - 1], out_sorted[out_left - 1]);
    while (in_left > 0 && in_sorted[in_left - 1] == t) --in_left;
    while (out_left > 0 && out_sorted[out_left - 1] == t) --out_left;
    sweep.points.push_back({t, in_sorted.size() - in_left, out_sorted.size() - out_left});
  }
  return sweep;
}

namespace {

// Whether any two of the scores are equal: neighbours within a list, or one score in both
// (a walk over both lists at once).
bool any_tie(const std::vector<double>& a, const std::vector<double>& b) {
  if (std::adjacent_find(a.begin(), a.end()) != a.end()) return true;
  if (std::adjacent_find(b.begin(), b.end()) != b.end()) return true;
  for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] == b[j]) return true;
    (a[i] < b[j] ? i : j) += 1;
  }
  return false;
}

}  // namespace

RocPoints::RocPoints(const std::vector<double>& in_sorted, const std::vector<double>& out_sorted)
    : in_(in_sorted), out_(out_sorted), all_(in_sorted, out_sorted) {
  check_sorted(in_sorted, "in");
  check_sorted(out_sorted, "out");
  if (any_tie(in_sorted, out_sorted)) ties_ = roc_sweep(in_sorted, out_sorted);
  size_ = ties_ ? ties_->points.size() : all_.size();
}

OperatingPoint RocPoints::operator[](std::size_t i) const {
  if (ties_) return ties_->points[i];
  return operating_point_at(in_, out_, all_.at(all_.size() - 1 - i));
}

OperatingPoint operating_point_at(const std::vector<double>& in_sorted,
                                  const std::vector<double>& out_sorted, double threshold) {
  return {threshold, count_at_least(in_sorted, threshold), count_at_least(out_sorted, threshold)};
}

}  // namespace dpaudit
