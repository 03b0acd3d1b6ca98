#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
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

}  // namespace

TEST_CASE("sort_ascending: std::sort's order below and above the radix cut (4096 values)") {
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
