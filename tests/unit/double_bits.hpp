// The bits of a double, for tests that compare values bit for bit (signed zeros, ties).
#pragma once
#include <cstdint>
#include <cstring>

inline std::uint64_t bits(double x) {
  std::uint64_t u;
  std::memcpy(&u, &x, 8);
  return u;
}
