// A decimal w x 10^q to the nearest double, without std::from_chars, for the readers' fast
// paths (io/csv's parse_finite, io/label_score_rows). Where it answers, it answers as
// std::from_chars would: correctly rounded, ties to even.
#pragma once
#include <cstdint>

namespace dpaudit {

// (-1)^negative w 10^q for w < 10^19 (exact), when the result is zero or a normal double:
// fast_float's Eisel-Lemire step (Lemire 2021), which rounds correctly or says it cannot,
// and where it cannot, Clinger 1990's exact path where w <= 2^53 and |q| <= 22 (one
// correctly rounded operation). False (and `value` unset) for a subnormal, an overflow, an
// underflow to zero from w > 0, or a refusal of both: the caller then leaves the text to
// std::from_chars. (A bool, not a std::optional: GCC 12 builds and reloads the optional in
// memory, a store-forwarding stall that cost a third of the CSV reader's time.)
bool decimal_value(bool negative, std::uint64_t w, std::int64_t q, double& value);

// 10^k as a whole number, k <= 19.
std::uint64_t power_of_ten(unsigned k);

}  // namespace dpaudit
