#include <doctest/doctest.h>
#include <hwy/targets.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/sort_doubles.hpp"
#include "double_bits.hpp"

using namespace dpaudit;

namespace {

// sort_ascending against std::sort: the same values in the same order, bit for bit but for
// the zeros, whose -0.0 must all come first.
void check_sorts_like_std(std::vector<double> v) {
  std::vector<double> expected = v;
  std::sort(expected.begin(), expected.end());
  sort_ascending(v);
  REQUIRE(v.size() == expected.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] == 0 && expected[i] == 0) continue;
    REQUIRE_MESSAGE(bits(v[i]) == bits(expected[i]), "at " << i);
  }
  for (std::size_t i = 1; i < v.size(); ++i)
    CHECK_FALSE((v[i] == 0 && v[i - 1] == 0 && std::signbit(v[i]) && !std::signbit(v[i - 1])));
}

// std::sort's order with every -0.0 before every 0.0: the order sort_ascending gives from
// 4,096 values, whichever long sort runs.
std::vector<double> zeros_first(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const auto zeros = std::equal_range(v.begin(), v.end(), 0.0);
  const auto negative =
      std::count_if(zeros.first, zeros.second, [](double z) { return std::signbit(z); });
  std::fill(zeros.first, zeros.first + negative, -0.0);
  std::fill(zeros.first + negative, zeros.second, 0.0);
  return v;
}

// Highway's run-time dispatch held to one target while in scope (a test mock: the
// instruction sets the CPU lacks are never chosen), then given back.
struct OnlyTarget {
  explicit OnlyTarget(std::int64_t target) { hwy::SetSupportedTargetsForTest(target); }
  ~OnlyTarget() { hwy::SetSupportedTargetsForTest(0); }
  OnlyTarget(const OnlyTarget&) = delete;
  OnlyTarget& operator=(const OnlyTarget&) = delete;
};

}  // namespace

TEST_CASE("sort_ascending: std::sort's order below and above the long sorts' cut (4096 values)") {
  std::mt19937_64 gen(26);
  std::normal_distribution<double> normal;
  for (const std::size_t n : {0, 1, 2, 100, 4095, 4096, 100000}) {
    std::vector<double> v(n);
    for (double& x : v) x = normal(gen);
    check_sorts_like_std(v);
  }
}

TEST_CASE("sort_ascending: signs, zeros, ties, subnormals, extremes and infinities") {
  const double special[] = {0.0,
                            -0.0,
                            1.0,
                            -1.0,
                            std::numeric_limits<double>::denorm_min(),
                            -std::numeric_limits<double>::denorm_min(),
                            std::numeric_limits<double>::min(),
                            std::numeric_limits<double>::max(),
                            std::numeric_limits<double>::lowest(),
                            std::numeric_limits<double>::infinity(),
                            -std::numeric_limits<double>::infinity(),
                            1e-300,
                            -1e300};
  std::mt19937_64 gen(7);
  std::vector<double> v(20000);
  for (double& x : v) x = special[gen() % std::size(special)];  // many ties
  check_sorts_like_std(v);
  sort_ascending(v);
  CHECK(v.front() == -std::numeric_limits<double>::infinity());
  CHECK(v.back() == std::numeric_limits<double>::infinity());
  // Random bit patterns (NaNs left out): every exponent and both signs.
  for (double& x : v) {
    do {
      const std::uint64_t u = gen();
      std::memcpy(&x, &u, 8);
    } while (std::isnan(x));
  }
  check_sorts_like_std(v);
}

TEST_CASE("sort_ascending: shapes of scores, zeros and ties included") {
  std::mt19937_64 gen(11);
  std::normal_distribution<double> normal;
  std::cauchy_distribution<double> cauchy;
  const std::size_t n = 200000;
  // Each shape, from a score x ~ N(0, 1): smooth; rounded to 1e-3 (ties); ten clusters 1e-9
  // wide; values 2^-k (every exponent down to 2^-999); one outlier; two values; and heavy
  // tails below (bench/eps_from_scores/sort_shapes.cpp times the same shapes).
  const auto shapes = {
      +[](double x, std::size_t, std::mt19937_64&) { return x; },
      +[](double x, std::size_t, std::mt19937_64&) { return std::round(x * 1000) / 1000; },
      +[](double x, std::size_t, std::mt19937_64& g) { return double(g() % 10) + 1e-9 * x; },
      +[](double, std::size_t i, std::mt19937_64&) { return std::ldexp(1.0, -int(i % 1000)); },
      +[](double x, std::size_t i, std::mt19937_64&) { return i == 7 ? 1e300 : x; },
      +[](double x, std::size_t, std::mt19937_64&) { return double(x > 0); }};
  for (const auto shape : shapes) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = shape(normal(gen), i, gen);
    for (std::size_t i = 0; i < 50; ++i) v[gen() % n] = (i % 2) ? 0.0 : -0.0;
    check_sorts_like_std(v);
  }
  std::vector<double> tails(n);
  for (double& x : tails) x = cauchy(gen);
  check_sorts_like_std(tails);
}

TEST_CASE("sort_ascending: every instruction set's VQSort and the radix sort give the same bits") {
  // Each target this CPU has (AVX-512, AVX2, SSE4: VQSort; below SSE4, EMU128 included: the
  // radix sort), sizes from the 4,096 cut (4,095 is std::sort's, the first test case) and VQSort's
  // own (its sorting networks take up to 16 rows of vectors; partitions of a few vectors' worth at
  // the ends), shapes with ties, zeros of both signs, sorted and reversed runs, and random bits
  // (every exponent).
  std::vector<std::int64_t> targets;
  for (std::int64_t t = hwy::SupportedTargets(); t != 0; t &= t - 1) targets.push_back(t & -t);
  if (!(hwy::SupportedTargets() & HWY_EMU128)) targets.push_back(HWY_EMU128);
  std::mt19937_64 gen(2022);
  std::normal_distribution<double> normal;
  const std::size_t sizes[] = {4096, 4097, 4099, 4224, 8191, 65536 + 3, 100000};
  const char* shapes[] = {"normal",   "rounded",   "two values", "sorted",
                          "reversed", "one value", "bits",       "zeros"};
  for (const std::size_t n : sizes) {
    for (int shape = 0; shape < 8; ++shape) {
      std::vector<double> v(n);
      for (std::size_t i = 0; i < n; ++i) {
        const double x = normal(gen);
        switch (shape) {
          case 1:
            v[i] = std::round(x * 100) / 100;
            break;
          case 2:
            v[i] = double(x > 0);
            break;
          case 3:
            v[i] = double(i) - 2000;
            break;
          case 4:
            v[i] = 2000 - double(i);
            break;
          case 5:
            v[i] = 0.5;
            break;
          case 6:
            do {
              const std::uint64_t u = gen();
              std::memcpy(&v[i], &u, 8);
            } while (std::isnan(v[i]));
            break;
          case 7:
            v[i] = (gen() & 1) ? -0.0 : 0.0;
            break;
          default:
            v[i] = x;
        }
      }
      for (std::size_t i = 0; i < 20; ++i) v[gen() % n] = (i % 2) ? 0.0 : -0.0;
      const std::vector<double> want = zeros_first(v);
      for (const std::int64_t target : targets) {
        std::vector<double> got = v;
        {
          const OnlyTarget only(target);
          sort_ascending(got);
        }
        REQUIRE_MESSAGE(std::memcmp(got.data(), want.data(), n * sizeof(double)) == 0,
                        std::string(hwy::TargetName(target))
                            << ", n " << n << ", " << std::string(shapes[shape]));
      }
    }
  }
  // A fixed case, its values asserted: 5,000 of i % 7 - 3 but -0.0 for one 0 and the
  // infinities for a 1 and a 2: -0.0 first among the zeros, the infinities at the ends.
  std::vector<double> v(5000);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = double(int(i % 7) - 3);
  v[10] = -0.0;
  v[11] = std::numeric_limits<double>::infinity();
  v[12] = -std::numeric_limits<double>::infinity();
  for (const std::int64_t target : targets) {
    std::vector<double> got = v;
    {
      const OnlyTarget only(target);
      sort_ascending(got);
    }
    CHECK(got[0] == -std::numeric_limits<double>::infinity());
    CHECK(got[1] == -3.0);
    CHECK(got.back() == std::numeric_limits<double>::infinity());
    const auto zero = std::find(got.begin(), got.end(), 0.0) - got.begin();
    CHECK(zero == 2145);  // -inf, then 715 of -3, 715 of -2 and 714 of -1
    CHECK(std::signbit(got[zero]));
    CHECK_FALSE(std::signbit(got[zero + 1]));
  }
}
