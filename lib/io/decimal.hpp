// A decimal w x 10^q to the nearest double, without std::from_chars, for the readers' fast
// paths (io/csv's parse_finite, io/label_score_rows; inline: the block reader calls it for
// every row). Where it answers, it answers as std::from_chars would: correctly rounded,
// ties to even.
#pragma once
#include <cmath>
#include <cstdint>

#include <fast_float/fast_float.h>

namespace dpaudit {

// (-1)^negative w 10^q for w < 10^19 (exact), when the result is zero or a normal double:
// fast_float's Eisel-Lemire step (Lemire 2021), which rounds correctly or says it cannot,
// and where it cannot, Clinger 1990's exact path where w <= 2^53 and |q| <= 22 (one
// correctly rounded operation). False (`value` then means nothing) for a subnormal, an overflow, an
// underflow to zero from w > 0, or a refusal of both: the caller then leaves the text to
// std::from_chars. (A bool, not a std::optional: GCC 12 builds and reloads the optional in
// memory, a store-forwarding stall that cost a third of the CSV reader's time.)
inline bool decimal_value(bool negative, std::uint64_t w, std::int64_t q, double& value) {
  if (w == 0) {
    value = negative ? -0.0 : 0.0;
    return true;
  }
  double v = 0;
  // Eisel-Lemire first, for every w: choosing by w's size would cost a mispredicted branch
  // on half of the 16- and 17-digit scores a file holds.
  const fast_float::adjusted_mantissa am =
      fast_float::compute_float<fast_float::binary_format<double>>(q, w);
  if (am.power2 >= 0) {
    fast_float::to_float(negative, am, v);
    value = v;
    return std::isnormal(v);  // not zero by underflow, subnormal or inf
  }
  if (w > (std::uint64_t{1} << 53) || q < -22 || q > 22) return false;
  static constexpr double kPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  v = q < 0 ? static_cast<double>(w) / kPowers[-q] : static_cast<double>(w) * kPowers[q];
  value = negative ? -v : v;
  return true;
}

// 10^k as a whole number, k <= 19.
inline std::uint64_t power_of_ten(unsigned k) {
  static constexpr std::uint64_t kPowers[] = {1,
                                              10,
                                              100,
                                              1000,
                                              10000,
                                              100000,
                                              1000000,
                                              10000000,
                                              100000000,
                                              1000000000,
                                              10000000000,
                                              100000000000,
                                              1000000000000,
                                              10000000000000,
                                              100000000000000,
                                              1000000000000000,
                                              10000000000000000,
                                              100000000000000000,
                                              1000000000000000000,
                                              10000000000000000000U};
  return kPowers[k];
}

}  // namespace dpaudit
