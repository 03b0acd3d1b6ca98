// Seeded Gaussian samples for the tests: n draws of N(mean, sd^2) from Philox stream
// `stream` under key `seed` (random/philox_stream), the same on every machine.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "random/philox_stream.hpp"

inline std::vector<double> normals(std::size_t n, double mean, double sd, std::uint64_t seed,
                                   std::uint64_t stream) {
  dpaudit::PhiloxStream rng(seed, stream);
  std::vector<double> x(n);
  rng.fill_normal(x.data(), n);
  for (double& v : x) v = mean + sd * v;
  return x;
}
