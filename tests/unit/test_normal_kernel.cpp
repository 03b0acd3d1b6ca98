// random/normal_kernel.hpp, the GPU scorer's per-number code, compiled for the host: every
// number it computes is philox_normals' bit for bit, and it defers exactly the tails.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "random/normal_kernel.hpp"
#include "random/philox.hpp"
#include "random/ziggurat.hpp"

using namespace dpaudit;

namespace {

std::uint64_t bits_of(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

}  // namespace

TEST_CASE("normal kernel: its Philox blocks are philox_block's") {
  for (std::uint64_t stream : {0ULL, 7ULL, 0x123456789ULL}) {
    for (std::uint64_t block : {0ULL, 1ULL, 0xFFFFFFFFULL, (1ULL << 40) + 3}) {
      for (std::uint32_t tag : {0u, 1u, 255u}) {
        std::uint32_t c[4];
        normal_kernel::philox_counter(stream, block, tag, c);
        const PhiloxBlock expected =
            philox_block(philox_counter(stream, block, tag), 0xFEDCBA9876543210ULL);
        normal_kernel::philox(c, 0xFEDCBA9876543210ULL);
        CHECK(PhiloxBlock{c[0], c[1], c[2], c[3]} == expected);
      }
    }
  }
}

TEST_CASE("normal kernel: the numbers it computes are philox_normals', and it defers the tails") {
  const normal_kernel::Tables t = normal_kernel_tables();
  const std::size_t n = std::size_t{1} << 21;
  const std::uint64_t key = 99, stream = 5, first = (std::uint64_t{1} << 40) + 13;
  std::vector<double> expected(n);
  std::vector<std::uint32_t> words(n);
  philox_normals(key, stream, first, n, expected.data());
  philox_words(key, stream, first, n, words.data());
  std::size_t deferred = 0, rejected = 0, mismatches = 0, beyond_r_computed = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double x;
    bool done = normal_kernel::first_candidate(t, words[i], x);
    if (!done) {
      ++rejected;
      done = normal_kernel::finish_candidate(t, key, stream, first + i, words[i], x);
    }
    if (!done) {
      ++deferred;
      continue;
    }
    mismatches += bits_of(x) != bits_of(expected[i]);
    beyond_r_computed += std::abs(x) > t.edge[1];
  }
  CHECK(mismatches == 0);
  CHECK(beyond_r_computed == 0);  // a number beyond r comes only from the tail: deferred
  // A candidate goes to the tail with probability (1 - x_1 / x_0) / 256 = 2.566e-4 (layer 0
  // outside its rectangle); later candidates and exp's wedge heights add about 1e-6.
  const double p_tail = (1 - t.ratio[0]) / 256;
  CHECK(p_tail == doctest::Approx(2.566e-4).epsilon(1e-3));
  const double mean = p_tail * double(n);
  CHECK(std::abs(double(deferred) - mean) < 5 * std::sqrt(mean));
  // About 1.5% of the first candidates are rejected (the wedges and the tail).
  CHECK(double(rejected) / double(n) > 0.01);
  CHECK(double(rejected) / double(n) < 0.02);
}
