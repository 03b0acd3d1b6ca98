// The ROC sweep: every threshold rule "say in when score >= t", for t running over
// the distinct scores from the highest down, with its error counts. One pass over
// the two sorted score lists, so all thresholds cost O(n) after the sort
// (Maddock et al. 2023, App. C.1 takes the max of the estimate over all of them).
#pragma once
#include <cstddef>
#include <optional>
#include <vector>

#include "stats/sorted_union.hpp"

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

// The sweep's points for a search that reads a few of them (the branch and bounds of
// sweep_maximum and gdp_audit), the same points as roc_sweep's, in its order. Where no two
// scores are equal, point i is the rule "in" for the i + 1 highest scores and is computed
// when asked, from the two lists in place (O(log^2 m), no storage: roc_sweep's vector
// takes 24 bytes a score, 240 MB at 10^7); otherwise (ties) from a RocSweep built once.
// Both lists must outlive it. Throws UsageError when a list is not sorted.
class RocPoints {
 public:
  RocPoints(const std::vector<double>& in_sorted, const std::vector<double>& out_sorted);
  std::size_t size() const { return size_; }
  std::size_t n_in() const { return in_.size(); }
  std::size_t n_out() const { return out_.size(); }
  OperatingPoint operator[](std::size_t i) const;
  std::size_t false_negatives(const OperatingPoint& p) const { return n_in() - p.true_positives; }

 private:
  const std::vector<double>& in_;
  const std::vector<double>& out_;
  SortedUnion all_;
  std::optional<RocSweep> ties_;  // built where some scores are equal
  std::size_t size_;
};

// The operating point of one fixed threshold, by binary search in the sorted lists.
OperatingPoint operating_point_at(const std::vector<double>& in_sorted,
                                  const std::vector<double>& out_sorted, double threshold);

}  // namespace dpaudit
