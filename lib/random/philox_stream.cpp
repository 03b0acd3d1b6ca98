#include "random/philox_stream.hpp"

#include <algorithm>

#include "random/philox.hpp"
#include "random/ziggurat.hpp"

namespace dpaudit {

PhiloxStream::PhiloxStream(std::uint64_t seed, std::uint64_t stream_id, std::uint64_t position)
    : seed_(seed), stream_id_(stream_id), position_(position) {}

std::uint32_t PhiloxStream::next_u32() {
  const PhiloxBlock b = philox_block(philox_counter(stream_id_, position_ / 4), seed_);
  return b[position_++ % 4];
}

std::uint64_t PhiloxStream::next_u64() {
  const std::uint64_t lo = next_u32();
  return (static_cast<std::uint64_t>(next_u32()) << 32) | lo;
}

double PhiloxStream::uniform() {
  const std::uint32_t lo = next_u32();
  return uniform_from_words(lo, next_u32());
}

double PhiloxStream::normal() {
  double x;
  fill_normal(&x, 1);
  return x;
}

void PhiloxStream::fill_normal(double* out, std::size_t n) {
  philox_normals(seed_, stream_id_, position_, n, out);
  position_ += n;
}

std::size_t uniform_below(PhiloxStream& rng, std::size_t n) {
  return std::min(n - 1, static_cast<std::size_t>(rng.uniform() * static_cast<double>(n)));
}

}  // namespace dpaudit
