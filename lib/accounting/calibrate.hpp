// Calibration: the smallest noise multiplier whose eps meets a target, for any
// accountant whose eps decreases in sigma (RDP, PLD, the headline of both).
#pragma once
#include <functional>

namespace dpaudit {

// Bisection on log sigma: bracket [lo, hi] with eps_at(lo) > eps >= eps_at(hi) by doubling
// or halving from sigma = 1, then halve until hi/lo - 1 < relative_tolerance; returns hi,
// which meets eps. UsageError when the bracket leaves [1e-4, 1e6].
double smallest_sigma(const std::function<double(double)>& eps_at, double eps,
                      double relative_tolerance);

}  // namespace dpaudit
