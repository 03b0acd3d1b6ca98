// Sorting doubles ascending, in linear time for long smooth inputs: a bucket sort by value
// (4,096 equal intervals of [min, max], each bucket sorted in cache the same way, then by
// insertion), exact because the last comparisons are of the IEEE-754 bits mapped to an
// unsigned order (Terdiman 2000's trick); an LSD radix sort of those keys (six passes of 11
// bits) for data the buckets cannot spread (an infinite range, heavy tails, few distinct
// values), and std::sort below 4,096 values. The result is the ascending order std::sort
// gives, but for -0.0 and 0.0, which compare equal: every -0.0 comes first, where std::sort
// leaves them as its partitions fall. No NaN (it has no place in an ascending order).
#pragma once
#include <vector>

namespace dpaudit {

void sort_ascending(std::vector<double>& v);

}  // namespace dpaudit
