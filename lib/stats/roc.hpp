// The ROC sweep: every threshold rule "say in when score >= t", for t running over
// the distinct scores from the highest down, with its error counts. One pass over
// the two sorted score lists, so all thresholds cost O(n) after the sort
// (Maddock et al. 2023, App. C.1 takes the max of the estimate over all of them).
#pragma once
#include <cstddef>
#include <vector>

namespace dpaudit {

struct OperatingPoint {
  double threshold;             // the rule says "in" when score >= threshold
  std::size_t true_positives;   // in scores >= threshold
  std::size_t false_positives;  // out scores >= threshold
};

struct RocSweep {
  std::size_t n_in = 0;
  std::size_t n_out = 0;
  // One point per distinct score, thresholds strictly decreasing, so true and false
  // positives never decrease along the vector.
  std::vector<OperatingPoint> points;

  std::size_t false_negatives(const OperatingPoint& p) const { return n_in - p.true_positives; }
};

// The sweep of two ascending-sorted score lists (either may be empty).
// Throws UsageError when a list is not sorted.
RocSweep roc_sweep(const std::vector<double>& in_sorted, const std::vector<double>& out_sorted);

// The operating point of one fixed threshold, by binary search in the sorted lists.
OperatingPoint operating_point_at(const std::vector<double>& in_sorted,
                                  const std::vector<double>& out_sorted, double threshold);

}  // namespace dpaudit
