// Numbers print in the shortest form that reads back to the same double (fmt's
// "{}"), so pipes lose no precision; infinity prints as "inf".
#pragma once
#include <string>

#include <fmt/format.h>

namespace dpaudit {

inline std::string format_number(double x) { return fmt::format("{}", x); }

}  // namespace dpaudit
