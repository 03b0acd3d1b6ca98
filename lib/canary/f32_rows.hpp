// Dot products of rows stored as floats (f32) with one vector of doubles, summed in double
// in LaneSum's fixed order (lane_sum.hpp): entry i of a row goes to lane i % 8, each lane
// adds its products in increasing i, and the lanes are added ((0 + 1) + (2 + 3)) +
// ((4 + 5) + (6 + 7)). A product is the float widened to double (exact) times v's double,
// rounded once; no path fuses the multiply and the add. So each dot product is bit for bit
// LaneSum::add_products on the row widened to double, on every instruction set, in any
// blocking and for any split of the rows over threads.
//
// Made for k x D canary matrices scored against one vector a round (CanaryScorer): half the
// bytes of doubles, read once, with v in blocks that stay in cache while four rows stream
// past them, so the loop runs at the memory's read bandwidth (bench/fedavg.md).
#pragma once
#include <cstddef>

namespace dpaudit {

// best: AVX2 when the CPU has it (chosen at run time), else portable C++; none: portable
// C++ (the same bits: for tests and benchmarks).
enum class RowSimd { best, none };

// out[r] = <rows[r], v> for rows r in [0, n): row r is the dim floats at rows + r * dim.
void f32_row_dots(const float* rows, std::size_t n, std::size_t dim, const double* v, double* out,
                  RowSimd simd = RowSimd::best);

}  // namespace dpaudit
