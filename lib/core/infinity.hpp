// Infinity, the legitimate epsilon of a mechanism with no privacy, as one named constant.
#pragma once
#include <limits>

namespace dpaudit {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace dpaudit
