#include "canary/f32_rows.hpp"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "core/x86_simd.hpp"

namespace dpaudit {

namespace {

constexpr std::size_t kLanes = 8;  // LaneSum's
// Rows that stream past each block of v together: their 8 accumulator registers, v's 2 and
// the products fill AVX2's 16 (8 rows spill; measured no faster, bench/fedavg.md).
constexpr std::size_t kRows = 4;
// Entries of v a block: 256 KiB, kept in L2 while the rows stream past it from memory (the
// demo's whole v, 0.8 MB, would stay in L3 too; a model of millions of parameters would
// not). A multiple of kLanes.
constexpr std::size_t kBlock = 32768;

// Adds entry i's products of `rows` rows (row g starts at row[g]) with v to lane i % 8 of
// acc[g * 8 ...], for i in [first, len).
void tail_portable(const float* const* row, std::size_t rows, const double* v, std::size_t first,
                   std::size_t len, double* acc) {
  for (std::size_t g = 0; g < rows; ++g)
    for (std::size_t i = first; i < len; ++i) {
      const double product = static_cast<double>(row[g][i]) * v[i];
      acc[g * kLanes + i % kLanes] += product;
    }
}

template <std::size_t G>
void block_portable(const float* const* row, const double* v, std::size_t len, double* acc) {
  std::size_t i = 0;
  for (; i + kLanes <= len; i += kLanes)
    for (std::size_t g = 0; g < G; ++g)
      for (std::size_t l = 0; l < kLanes; ++l) {
        const double product = static_cast<double>(row[g][i + l]) * v[i + l];
        acc[g * kLanes + l] += product;
      }
  tail_portable(row, G, v, i, len, acc);
}

#ifdef DPAUDIT_X86_SIMD
// The same with AVX2: lanes 0-3 and 4-7 of each row in two registers; the G rows share
// each load of v, and their 2 G chains of additions hide the adder's latency.
template <std::size_t G>
DPAUDIT_TARGET("avx2")
void block_avx2(const float* const* row, const double* v, std::size_t len, double* acc) {
  __m256d lo[G], hi[G];
  for (std::size_t g = 0; g < G; ++g) {
    lo[g] = _mm256_loadu_pd(acc + g * kLanes);
    hi[g] = _mm256_loadu_pd(acc + g * kLanes + 4);
  }
  std::size_t i = 0;
  for (; i + kLanes <= len; i += kLanes) {
    const __m256d v0 = _mm256_loadu_pd(v + i), v1 = _mm256_loadu_pd(v + i + 4);
    for (std::size_t g = 0; g < G; ++g) {
      const __m256d a0 = _mm256_cvtps_pd(_mm_loadu_ps(row[g] + i));
      const __m256d a1 = _mm256_cvtps_pd(_mm_loadu_ps(row[g] + i + 4));
      lo[g] = _mm256_add_pd(lo[g], _mm256_mul_pd(a0, v0));
      hi[g] = _mm256_add_pd(hi[g], _mm256_mul_pd(a1, v1));
    }
  }
  for (std::size_t g = 0; g < G; ++g) {
    _mm256_storeu_pd(acc + g * kLanes, lo[g]);
    _mm256_storeu_pd(acc + g * kLanes + 4, hi[g]);
  }
  tail_portable(row, G, v, i, len, acc);
}
#endif

using BlockFn = void (*)(const float* const*, const double*, std::size_t, double*);

#ifdef DPAUDIT_X86_SIMD
template <std::size_t... G>
constexpr std::array<BlockFn, sizeof...(G)> avx2_blocks(std::index_sequence<G...>) {
  return {block_avx2<G + 1>...};
}
#endif
template <std::size_t... G>
constexpr std::array<BlockFn, sizeof...(G)> portable_blocks(std::index_sequence<G...>) {
  return {block_portable<G + 1>...};
}

// The block function for groups of g rows (1 <= g <= kRows).
BlockFn block_fn(std::size_t g, bool avx2) {
#ifdef DPAUDIT_X86_SIMD
  static constexpr auto kAvx2 = avx2_blocks(std::make_index_sequence<kRows>());
  if (avx2) return kAvx2[g - 1];
#else
  (void)avx2;
#endif
  static constexpr auto kPortable = portable_blocks(std::make_index_sequence<kRows>());
  return kPortable[g - 1];
}

bool use_avx2(RowSimd simd) {
#ifdef DPAUDIT_X86_SIMD
  static const bool avx2 = DPAUDIT_CPU_SUPPORTS("avx2");
  return simd == RowSimd::best && avx2;
#else
  (void)simd;
  return false;
#endif
}

}  // namespace

void f32_row_dots(const float* rows, std::size_t n, std::size_t dim, const double* v, double* out,
                  RowSimd simd) {
  const bool avx2 = use_avx2(simd);
  std::vector<double> acc(n * kLanes, 0.0);  // every row's lanes
  for (std::size_t begin = 0; begin < dim; begin += kBlock) {
    const std::size_t len = std::min(kBlock, dim - begin);
    for (std::size_t first = 0; first < n; first += kRows) {
      const std::size_t g = std::min(kRows, n - first);
      const float* row[kRows] = {};
      for (std::size_t k = 0; k < g; ++k) row[k] = rows + (first + k) * dim + begin;
      block_fn(g, avx2)(row, v + begin, len, acc.data() + first * kLanes);
    }
  }
  for (std::size_t r = 0; r < n; ++r) {
    const double* a = acc.data() + r * kLanes;
    out[r] = ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
  }
}

}  // namespace dpaudit
