// Sorting doubles ascending, in linear time for long inputs: an LSD radix sort (six passes
// of 11 bits over the IEEE-754 bits mapped to an unsigned order, Terdiman 2000's trick), and
// std::sort below 4,096 values. The result is the ascending order std::sort gives, but for
// -0.0 and 0.0, which compare equal: the radix sort puts every -0.0 first, std::sort leaves
// them as its partitions fall. No NaN (it has no place in an ascending order).
#pragma once
#include <vector>

namespace dpaudit {

void sort_ascending(std::vector<double>& v);

}  // namespace dpaudit
