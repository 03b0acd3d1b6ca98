// Scaling by a power of two, as the fits do to keep scores near 1e308 or subnormal ones
// finite and exact: x * 2^k is std::scalbn(x, k), one correctly rounded operation, but a
// plain multiplication where 2^k is a normal double (no library call per value; issue 26:
// scalbn took a third of gauss-fit's time at 10^7 scores). The same bits either way.
#pragma once
#include <cmath>

namespace dpaudit {

class PowerOfTwo {
 public:
  explicit PowerOfTwo(int k) : k_(k), factor_(k >= -1022 && k <= 1023 ? std::ldexp(1.0, k) : 0.0) {}
  double operator()(double x) const { return factor_ != 0 ? x * factor_ : std::scalbn(x, k_); }

 private:
  int k_;
  double factor_;  // 2^k where it is a normal double, else 0
};

}  // namespace dpaudit
