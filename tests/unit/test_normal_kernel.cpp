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

TEST_CASE(
    "normal kernel: its numbers are philox_normals', the tails finished from the host's logs") {
  const normal_kernel::Tables t = normal_kernel_tables();
  const std::size_t n = std::size_t{1} << 21;
  const std::uint64_t key = 99, stream = 5, first = (std::uint64_t{1} << 40) + 13;
  std::vector<double> expected(n);
  std::vector<std::uint32_t> words(n);
  philox_normals(key, stream, first, n, expected.data());
  philox_words(key, stream, first, n, words.data());
  std::size_t rejected = 0, tails = 0, exps = 0, mismatches = 0, beyond_r_computed = 0;
  std::size_t tails_finished = 0, beyond_r_tails = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double x;
    if (normal_kernel::first_candidate(t, words[i], x)) {
      mismatches += bits_of(x) != bits_of(expected[i]);
      continue;
    }
    ++rejected;
    normal_kernel::Stop stop{};
    if (normal_kernel::finish_candidate(t, key, stream, first + i, words[i], x, stop)) {
      mismatches += bits_of(x) != bits_of(expected[i]);
      beyond_r_computed += std::abs(x) > t.edge[1];
      continue;
    }
    if (!stop.tail()) {
      ++exps;
      continue;
    }
    ++tails;
    double u, v;
    normal_kernel::tail_uniforms(stop, u, v);
    normal_kernel::Stop next{};
    if (normal_kernel::finish_tail(t, key, stream, first + i, stop, std::log(u), std::log(v), x,
                                   next)) {
      ++tails_finished;
      mismatches += bits_of(x) != bits_of(expected[i]);
      beyond_r_tails += std::abs(x) > t.edge[1];
    }
  }
  CHECK(mismatches == 0);
  CHECK(beyond_r_computed == 0);  // a number beyond r comes only from the tail
  // A candidate goes to the tail with probability (1 - x_1 / x_0) / 256 = 2.566e-4 (layer 0
  // outside its rectangle); later candidates add about 1e-6, exp's wedge heights as much.
  const double p_tail = (1 - t.ratio[0]) / 256;
  CHECK(p_tail == doctest::Approx(2.566e-4).epsilon(1e-3));
  const double mean = p_tail * double(n);
  CHECK(std::abs(double(tails) - mean) < 5 * std::sqrt(mean));
  CHECK(exps < 20);
  // Marsaglia's tail test accepts with probability sqrt(2 pi) e^{r^2/2} erfc(r/sqrt 2) r /
  // 2 = 0.938 (the tail's mass over its exponential envelope's), each accepted number beyond
  // r; a rejected one goes on to a later candidate, which finish_tail finishes too unless it
  // stops for libm again.
  CHECK(double(beyond_r_tails) / double(tails) > 0.90);  // 5 sd below 0.938 at ~540 tails
  CHECK(double(beyond_r_tails) / double(tails) < 0.97);
  CHECK(tails - tails_finished < 5);
  std::size_t beyond_r = 0;
  for (double x : expected) beyond_r += std::abs(x) > t.edge[1];
  CHECK(beyond_r - beyond_r_tails <= tails - tails_finished);
  // About 1.5% of the first candidates are rejected (the wedges and the tail).
  CHECK(double(rejected) / double(n) > 0.01);
  CHECK(double(rejected) / double(n) < 0.02);
}
