#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "random/philox.hpp"
#include "random/philox_stream.hpp"
#include "random/ziggurat.hpp"

using namespace dpaudit;

namespace {
double normal_cdf(double x) {
  return 0.5 * std::erfc(-x / std::sqrt(2.0));
}
std::uint64_t key_of(std::uint32_t lo, std::uint32_t hi) {
  return (static_cast<std::uint64_t>(hi) << 32) | lo;
}
std::uint64_t splitmix64(std::uint64_t& state) {  // Steele, Lea and Flood 2014
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
}  // namespace

TEST_CASE("Philox4x32-10 known answers (Random123's kat_vectors)") {
  CHECK(philox_block({0, 0, 0, 0}, 0) ==
        PhiloxBlock{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});
  CHECK(philox_block({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
                     key_of(0xffffffff, 0xffffffff)) ==
        PhiloxBlock{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd});
  CHECK(philox_block({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
                     key_of(0xa4093822, 0x299f31d0)) ==
        PhiloxBlock{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1});
}

TEST_CASE("batched Philox words (AVX-512, AVX2, portable) equal the scalar blocks at any offset") {
  const std::uint64_t key = 0x0123456789abcdefULL, stream = 0xfedcba9876543210ULL;
  for (std::uint64_t first : {0ull, 1ull, 3ull, 63ull, 1000001ull, (1ull << 40) + 2}) {
    for (std::size_t n : {1u, 5u, 16u, 17u}) {  // few words take scalar blocks
      std::vector<std::uint32_t> few(n);
      philox_words(key, stream, first, n, few.data());
      for (std::size_t i = 0; i < n; ++i)
        CHECK(few[i] ==
              philox_block(philox_counter(stream, (first + i) / 4), key)[(first + i) % 4]);
    }
    std::vector<std::uint32_t> words(601), avx2(601), portable(601);
    philox_words(key, stream, first, words.size(), words.data());
    philox_words(key, stream, first, avx2.size(), avx2.data(), PhiloxSimd::avx2);
    philox_words(key, stream, first, portable.size(), portable.data(), PhiloxSimd::none);
    CHECK(words == portable);
    CHECK(avx2 == portable);
    for (std::size_t i = 0; i < words.size(); ++i) {
      const std::uint64_t w = first + i;
      CHECK(words[i] == philox_block(philox_counter(stream, w / 4), key)[w % 4]);
    }
  }
}

TEST_CASE("Philox blocks at arbitrary counters equal the scalar blocks, any count and ISA") {
  std::uint64_t state = 5;
  std::vector<PhiloxBlock> counters(130);
  for (PhiloxBlock& c : counters)
    c = {static_cast<std::uint32_t>(splitmix64(state)), static_cast<std::uint32_t>(state),
         static_cast<std::uint32_t>(state >> 32), static_cast<std::uint32_t>(state >> 7)};
  for (PhiloxSimd simd : {PhiloxSimd::best, PhiloxSimd::avx2, PhiloxSimd::none}) {
    for (std::size_t n : {1u, 7u, 8u, 9u, 16u, 17u, 33u, 64u, 65u, 130u}) {
      std::vector<PhiloxBlock> blocks(n);
      philox_blocks(0x0123456789abcdefULL, counters.data(), n, blocks.data(), simd);
      for (std::size_t i = 0; i < n; ++i)
        CHECK(blocks[i] == philox_block(counters[i], 0x0123456789abcdefULL));
    }
  }
}

TEST_CASE("ziggurat tables: every layer has area v and the top layer closes at 0") {
  const ZigguratTables& t = ziggurat_tables();
  const double v = 0.00492867323399;  // r and v: Marsaglia and Tsang 2000, 256 layers
  auto f = [](double x) { return std::exp(-0.5 * x * x); };
  CHECK(t.edge[1] == 3.6541528853610088);
  // bottom layer: rectangle r f(r) plus the tail integral sqrt(pi/2) erfc(r/sqrt 2) = v
  CHECK(t.edge[1] * f(t.edge[1]) + std::sqrt(M_PI / 2) * std::erfc(t.edge[1] / std::sqrt(2.0)) ==
        doctest::Approx(v).epsilon(1e-9));
  CHECK(t.edge[0] * f(t.edge[1]) == doctest::Approx(v).epsilon(1e-12));
  CHECK(t.edge[100] * (f(t.edge[101]) - f(t.edge[100])) == doctest::Approx(v).epsilon(1e-9));
  // top layer x_255 (1 - f(x_255)) = v up to the 12 digits of Marsaglia-Tsang's constants
  CHECK(t.edge[255] * (1 - f(t.edge[255])) == doctest::Approx(v).epsilon(1e-6));
  CHECK(t.edge[256] == 0);
}

TEST_CASE("normal numbers: moments, Kolmogorov-Smirnov, tail mass") {
  const std::size_t n = 1 << 20;
  std::vector<double> x(n);
  PhiloxStream(42, 7).fill_normal(x.data(), n);
  double sum = 0, sq = 0, fourth = 0;
  std::size_t beyond_r = 0;
  for (double v : x) {
    sum += v;
    sq += v * v;
    fourth += v * v * v * v;
    beyond_r += std::abs(v) > 3.6541528853610088;
  }
  const double mean = sum / n, var = sq / n - mean * mean;
  CHECK(std::abs(mean) < 4 / std::sqrt(double(n)));           // sd of the mean 1/sqrt(n)
  CHECK(std::abs(var - 1) < 4 * std::sqrt(2.0 / n));          // sd of the variance sqrt(2/n)
  CHECK(std::abs(fourth / n - 3) < 4 * std::sqrt(96.0 / n));  // E x^4 = 3, Var x^4 = 96
  // P(|x| > r) = erfc(r / sqrt 2) = 2.5799e-4: the tail path is exercised and correct
  const double tail = std::erfc(3.6541528853610088 / std::sqrt(2.0)) * n;
  CHECK(std::abs(beyond_r - tail) < 5 * std::sqrt(tail));
  std::sort(x.begin(), x.end());
  double ks = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double c = normal_cdf(x[i]);
    ks = std::max({ks, c - double(i) / n, double(i + 1) / n - c});
  }
  CHECK(ks < 1.63 / std::sqrt(double(n)));  // KS critical value at level 0.01
}

TEST_CASE("number k of a stream is a pure function of (seed, stream, k)") {
  std::vector<double> whole(5000), parts(5000), one_by_one(5000);
  PhiloxStream(9, 3).fill_normal(whole.data(), whole.size());
  PhiloxStream chunked(9, 3);
  for (std::size_t done = 0, len = 1; done < parts.size(); done += len, len = len * 3 + 1)
    chunked.fill_normal(parts.data() + done, std::min(len, parts.size() - done));
  PhiloxStream single(9, 3);
  for (double& v : one_by_one) v = single.normal();
  CHECK(whole == parts);
  CHECK(whole == one_by_one);
  std::vector<double> tail(100);
  PhiloxStream(9, 3, 4900).fill_normal(tail.data(), tail.size());
  CHECK(std::equal(tail.begin(), tail.end(), whole.begin() + 4900));
  std::vector<double> other(100);
  PhiloxStream(9, 4, 4900).fill_normal(other.data(), other.size());
  CHECK(other != tail);
}

// The normal numbers of windows (key, stream, first, n) with every instruction set: the best
// set's bits folded into a 64-bit FNV-1a hash, and the numbers where a set differs from the
// scalar one counted.
namespace {
struct StreamCheck {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  std::size_t mismatches = 0;
  void window(std::uint64_t key, std::uint64_t stream, std::uint64_t first, std::size_t n) {
    std::vector<double> best(n), avx2(n), none(n);
    philox_normals(key, stream, first, n, best.data(), PhiloxSimd::best);
    philox_normals(key, stream, first, n, avx2.data(), PhiloxSimd::avx2);
    philox_normals(key, stream, first, n, none.data(), PhiloxSimd::none);
    for (std::size_t i = 0; i < n; ++i) {
      mismatches += std::memcmp(&best[i], &none[i], sizeof(double)) != 0;
      mismatches += std::memcmp(&avx2[i], &none[i], sizeof(double)) != 0;
      std::uint64_t bits;
      std::memcpy(&bits, &best[i], sizeof bits);
      hash = (hash ^ bits) * 0x100000001b3ull;
    }
  }
};
}  // namespace

// 300 windows drawn by splitmix64 (starts up to 2^20, every seventh beyond 2^40, lengths
// below 5,000: odd starts and lengths, about 11,000 rejected first candidates, wedges, tails
// and later attempts among them). The hash is what the implementation before the fused SIMD
// paths gave (this loop linked with commit caabb1d's library: AVX2 gathers, one rejected
// candidate at a time), so every instruction set keeps that stream bit for bit.
TEST_CASE("normal numbers: every instruction set gives the same stream, bit for bit") {
  std::uint64_t state = 26;
  StreamCheck check;
  for (int t = 0; t < 300; ++t) {
    const std::uint64_t key = splitmix64(state), stream = splitmix64(state) >> (t % 3 * 24);
    std::uint64_t first = splitmix64(state) % (1u << 20);
    if (t % 7 == 0) first += std::uint64_t{1} << 40;
    check.window(key, stream, first, splitmix64(state) % 5000);
  }
  CHECK(check.mismatches == 0);
  CHECK(check.hash == 0xf62b0661e9180cb7ull);
}

// Four long windows (100,000 to 300,000 numbers, starts up to 2^44): each call finishes its
// rejected candidates in several batches, each batch over several chunks. The hash is what
// commit 87e32ed's library gives (the windows' loop linked with its philox.cpp and
// ziggurat.cpp), whose finish took one chunk at a time.
TEST_CASE("normal numbers: long windows, the rejected candidates finished in batches") {
  std::uint64_t state = 27;
  StreamCheck check;
  for (int t = 0; t < 4; ++t) {
    const std::uint64_t key = splitmix64(state), stream = splitmix64(state);
    const std::uint64_t first = splitmix64(state) >> 20;
    check.window(key, stream, first, 100000 + splitmix64(state) % 200000);
  }
  CHECK(check.mismatches == 0);
  CHECK(check.hash == 0xc0d95610fbbd9e30ull);
}

TEST_CASE("uniform and integer draws") {
  PhiloxStream s(1, 0);
  const std::uint32_t w0 = philox_block({0, 0, 0, 0}, 1)[0], w1 = philox_block({0, 0, 0, 0}, 1)[1];
  CHECK(s.next_u64() == ((std::uint64_t(w1) << 32) | w0));
  CHECK(s.position() == 2);
  double sum = 0;
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    const double u = s.uniform();
    REQUIRE(u > 0);
    REQUIRE(u < 1);
    sum += u;
  }
  CHECK(std::abs(sum / n - 0.5) < 4 * std::sqrt(1.0 / 12 / n));
  CHECK(uniform_from_words(0, 0) == 0x1p-54);
  CHECK(uniform_from_words(0xffffffff, 0xffffffff) == 1 - 0x1p-54);
}

TEST_CASE("derived seeds separate purposes") {
  CHECK(derive_seed(7, 1) != derive_seed(7, 2));
  CHECK(derive_seed(7, 1) != derive_seed(8, 1));
  CHECK(derive_seed(7, 1) != 7);
  CHECK(derive_seed(7, 1) == derive_seed(7, 1));
}

TEST_CASE("uniform_below: floor(u n) of the stream's next uniform, within [0, n)") {
  PhiloxStream a(11, 3), b(11, 3);
  for (std::size_t n : {1u, 2u, 7u, 10u, 1000003u}) {
    for (int k = 0; k < 200; ++k) {
      const double u = b.uniform();
      const std::size_t i = uniform_below(a, n);
      CHECK(i == static_cast<std::size_t>(u * static_cast<double>(n)));
      CHECK(i < n);
    }
  }
  // Ten values spread evenly: 100,000 draws below 10 give each about 10,000 (5 sd: 474).
  PhiloxStream c(5, 0);
  std::size_t counts[10] = {};
  for (int k = 0; k < 100000; ++k) ++counts[uniform_below(c, 10)];
  for (std::size_t v : counts) CHECK(std::abs(static_cast<double>(v) - 10000.0) < 474.0);
}
