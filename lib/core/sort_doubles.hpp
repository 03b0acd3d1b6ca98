// Sorting doubles ascending, by their IEEE-754 bits mapped to an unsigned order (Terdiman
// 2000's trick: negatives all bits flipped, the others with the sign bit set), for 4,096
// values or more:
// - VQSort (Blacher, Giesen, Sanders, Wassenberg, "Vectorized and performance-portable
//   Quicksort", 2022): a quicksort whose partitions, pivot samples and base-case sorting
//   networks run in vector registers, from Google Highway (hwy/contrib/sort, Debian's
//   libhwy-dev), which picks the widest instruction set the CPU has at run time;
// - an LSD radix sort (six passes of 11 bits over the keys) where that is below SSE4 (an x86
//   CPU or VM without SSE4.1/4.2, e.g. QEMU's default qemu64 model), where VQSort measured
//   slower (bench/eps_from_scores.md, 2026-11-26, last section);
// and std::sort below 4,096 values. The result is the ascending order std::sort gives, but
// for -0.0 and 0.0, which compare equal: from 4,096 values every -0.0 comes first (its key is
// the smaller), below std::sort leaves them as its partitions fall. Both long sorts give the
// same bits (distinct doubles have distinct keys). No NaN (it has no place in an ascending
// order).
#pragma once
#include <vector>

namespace dpaudit {

void sort_ascending(std::vector<double>& v);

}  // namespace dpaudit
