#include <doctest/doctest.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include <fmt/format.h>

#include "double_bits.hpp"
#include "io/decimal.hpp"

using namespace dpaudit;

namespace {

// w 10^q as std::from_chars reads "we q" (the reference: correctly rounded, ties to even).
double by_from_chars(bool negative, std::uint64_t w, std::int64_t q) {
  const std::string text = fmt::format("{}{}e{}", negative ? "-" : "", w, q);
  double v = 0;
  std::from_chars(text.data(), text.data() + text.size(), v);
  return v;
}

}  // namespace

TEST_CASE("decimal_value: exact values, ties to even, signed zero") {
  double v = 0;
  REQUIRE(decimal_value(false, 5, -1, v));
  CHECK(v == 0.5);
  REQUIRE(decimal_value(true, 125, -2, v));
  CHECK(v == -1.25);
  REQUIRE(decimal_value(false, 1, 22, v));
  CHECK(v == 1e22);
  REQUIRE(decimal_value(true, 0, 5, v));
  CHECK((v == 0 && std::signbit(v)));
  REQUIRE(decimal_value(false, 0, -400, v));
  CHECK((v == 0 && !std::signbit(v)));
  // 2^53 + 1 and 2^53 + 3 lie halfway between two doubles: to the even one.
  REQUIRE(decimal_value(false, 9007199254740993, 0, v));
  CHECK(v == 9007199254740992.0);
  REQUIRE(decimal_value(false, 9007199254740995, 0, v));
  CHECK(v == 9007199254740996.0);
  // 17 and 19 digits (past Clinger's 2^53: Eisel-Lemire), the largest and the least normal.
  REQUIRE(decimal_value(true, 12345678901234567, -17, v));
  CHECK(v == -0.12345678901234567);
  REQUIRE(decimal_value(false, 1234567890123456789, 0, v));
  CHECK(v == 1234567890123456789.0);
  REQUIRE(decimal_value(false, 17976931348623157, 292, v));
  CHECK(v == 1.7976931348623157e308);
  REQUIRE(decimal_value(false, 22250738585072014, -324, v));
  CHECK(v == 2.2250738585072014e-308);
}

TEST_CASE("decimal_value: subnormal, overflow and underflow are left to std::from_chars") {
  double v = 7;
  CHECK(!decimal_value(false, 49406564584124654, -340, v));  // the least subnormal
  CHECK(!decimal_value(false, 22250738585072011, -324, v));  // just below the least normal
  CHECK(!decimal_value(false, 1, 309, v));                   // inf
  CHECK(!decimal_value(true, 18, 307, v));                   // -inf
  CHECK(!decimal_value(false, 1, -400, v));                  // zero by underflow
}

TEST_CASE("decimal_value agrees with std::from_chars bit for bit on random decimals") {
  std::mt19937_64 gen(26);
  int answered = 0;
  for (int i = 0; i < 200000; ++i) {
    const unsigned digits = 1 + static_cast<unsigned>(gen() % 19);
    const std::uint64_t w = gen() % power_of_ten(digits);
    const auto q = static_cast<std::int64_t>(gen() % 700) - 350;
    const bool negative = gen() % 2 == 1;
    double v = 0;
    if (!decimal_value(negative, w, q, v)) continue;
    ++answered;
    REQUIRE_MESSAGE(bits(v) == bits(by_from_chars(negative, w, q)), w << "e" << q);
  }
  CHECK(answered > 140000);  // it answers every normal result but the rare refusal
}

TEST_CASE("power_of_ten") {
  CHECK(power_of_ten(0) == 1);
  CHECK(power_of_ten(16) == 10000000000000000);
  CHECK(power_of_ten(19) == 10000000000000000000U);
}
