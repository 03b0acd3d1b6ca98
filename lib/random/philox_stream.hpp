// Counter-based random streams: a stream is identified by (seed, stream_id), and its
// k-th number is a pure function of (seed, stream_id, k), so canary j, or the noise of
// coordinate i, comes out the same whatever the chunking, order or thread count.
//
// The stream is a sequence of Philox4x32-10 words (random/philox.hpp) read from a
// position: uniform() and next_u64() take two words, normal() one (the ziggurat of
// random/ziggurat.hpp, with its rare retries in derived sub-streams). fill_normal(n)
// gives exactly what n calls of normal() give, much faster.
#pragma once
#include <cstddef>
#include <cstdint>

namespace dpaudit {

class PhiloxStream {
 public:
  PhiloxStream(std::uint64_t seed, std::uint64_t stream_id, std::uint64_t position = 0);

  double uniform();  // in (0,1), 53-bit
  double normal();   // standard normal
  void fill_normal(double* out, std::size_t n);
  std::uint64_t next_u64();
  std::uint32_t next_u32();

  // Word position in the stream: the next number starts at this word.
  std::uint64_t position() const { return position_; }

 private:
  std::uint64_t seed_;
  std::uint64_t stream_id_;
  std::uint64_t position_;
};

// An index in [0, n), n >= 1, from one uniform(): floor(u n), capped at n - 1. Its bias is
// at most n 2^-53 per value (the shuffles and schedules of a training run use it).
std::size_t uniform_below(PhiloxStream& rng, std::size_t n);

}  // namespace dpaudit
