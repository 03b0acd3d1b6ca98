// Sums of products in eight interleaved lanes added up in a fixed order: entry i
// always goes to lane i % 8, so a sum streamed in chunks (of any length that is a
// multiple of 8) gives the same bits as one pass, whatever the thread count, and the
// compiler vectorises the lanes.
#pragma once
#include <cstddef>

namespace dpaudit {

class LaneSum {
 public:
  // Adds a[i] * b[i] for the next n entries; all but the last call need n % 8 == 0.
  void add_products(const double* a, const double* b, std::size_t n) {
    std::size_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
      for (std::size_t l = 0; l < kLanes; ++l) lane_[l] += a[i + l] * b[i + l];
    for (std::size_t l = 0; l < kLanes && i + l < n; ++l) lane_[l] += a[i + l] * b[i + l];
  }
  void add_squares(const double* a, std::size_t n) { add_products(a, a, n); }
  // The eight lanes, for SIMD code that adds to lane i % 8 in the same order.
  double* lanes() { return lane_; }
  double total() const {
    return ((lane_[0] + lane_[1]) + (lane_[2] + lane_[3])) +
           ((lane_[4] + lane_[5]) + (lane_[6] + lane_[7]));
  }

 private:
  static constexpr std::size_t kLanes = 8;
  double lane_[kLanes] = {};
};

}  // namespace dpaudit
