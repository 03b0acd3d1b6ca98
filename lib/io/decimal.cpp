#include "io/decimal.hpp"

#include <cmath>

#include <fast_float/fast_float.h>

namespace dpaudit {

bool decimal_value(bool negative, std::uint64_t w, std::int64_t q, double& value) {
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

std::uint64_t power_of_ten(unsigned k) {
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
