#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "canary/f32_rows.hpp"
#include "canary/lane_sum.hpp"
#include "random/philox_stream.hpp"

using namespace dpaudit;

namespace {

// n x dim floats of a standard normal stream, and dim doubles of another.
std::vector<float> normal_rows(std::size_t n, std::size_t dim) {
  std::vector<double> x(n * dim);
  PhiloxStream(5, 1).fill_normal(x.data(), x.size());
  return std::vector<float>(x.begin(), x.end());
}
std::vector<double> normal_vector(std::size_t dim) {
  std::vector<double> v(dim);
  PhiloxStream(5, 2).fill_normal(v.data(), dim);
  return v;
}

// The reference: LaneSum on row r widened to double.
double lane_sum_dot(const std::vector<float>& rows, std::size_t r, std::size_t dim,
                    const std::vector<double>& v) {
  const std::vector<double> wide(rows.begin() + r * dim, rows.begin() + (r + 1) * dim);
  LaneSum s;
  s.add_products(wide.data(), v.data(), dim);
  return s.total();
}

std::vector<double> dots(const std::vector<float>& rows, std::size_t n, std::size_t dim,
                         const std::vector<double>& v, RowSimd simd) {
  std::vector<double> out(n);
  f32_row_dots(rows.data(), n, dim, v.data(), out.data(), simd);
  return out;
}

}  // namespace

TEST_CASE("f32 row dots: exact integer sums across blocks, groups and tails") {
  // Entries are small integers: every product and partial sum is an exact double, so the
  // dot product is the integer sum whatever the order. Dims cross the 32,768-entry blocks.
  for (std::size_t dim : {1u, 7u, 8u, 9u, 32767u, 32768u, 32771u, 70000u}) {
    const std::size_t n = 6;  // a group of 4 rows, then one of 2
    std::vector<float> rows(n * dim);
    std::vector<double> v(dim);
    std::vector<std::int64_t> exact(n, 0);
    for (std::size_t i = 0; i < dim; ++i) {
      v[i] = double(int(i % 5) - 2);
      for (std::size_t r = 0; r < n; ++r) {
        const int entry = int(i % 7) - 3 + int(r);
        rows[r * dim + i] = float(entry);
        exact[r] += std::int64_t{entry} * (std::int64_t(i % 5) - 2);
      }
    }
    for (RowSimd simd : {RowSimd::best, RowSimd::none}) {
      const std::vector<double> out = dots(rows, n, dim, v, simd);
      for (std::size_t r = 0; r < n; ++r) CHECK(out[r] == double(exact[r]));
    }
  }
}

TEST_CASE("f32 row dots: bit for bit LaneSum on the widened rows, on every path and split") {
  for (std::size_t dim : {1u, 5u, 8u, 13u, 64u, 32767u, 32768u, 32769u, 65600u}) {
    for (std::size_t n : {1u, 2u, 3u, 4u, 5u, 9u}) {
      const std::vector<float> rows = normal_rows(n, dim);
      const std::vector<double> v = normal_vector(dim);
      const std::vector<double> best = dots(rows, n, dim, v, RowSimd::best);
      CHECK(dots(rows, n, dim, v, RowSimd::none) == best);
      for (std::size_t r = 0; r < n; ++r) CHECK(best[r] == lane_sum_dot(rows, r, dim, v));
      // Rows [1, n) alone (another thread's share) give the same bits.
      if (n > 1) {
        std::vector<double> tail(n - 1);
        f32_row_dots(rows.data() + dim, n - 1, dim, v.data(), tail.data());
        CHECK(std::vector<double>(best.begin() + 1, best.end()) == tail);
      }
    }
  }
}
