// Philox4x32-10, the counter-based generator of Salmon, Moraes, Dror and Shaw,
// "Parallel random numbers: as easy as 1, 2, 3" (SC 2011): a 128-bit counter and a
// 64-bit key go through ten rounds of multiply-xor; every output block is a pure
// function of (key, counter). The scalar form is Random123's philox4x32; the batch
// form below computes many blocks at once with SIMD and is tested equal to it.
//
// A stream (key, stream_id) is the sequence of 32-bit words whose word w is entry
// w % 4 of the block with counter (b low, b high, stream_id low, stream_id high),
// b = w / 4. Block indices below 2^56 belong to the stream proper; the top byte of
// counter word 1 is free for derived sub-streams (see ziggurat.cpp).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

namespace dpaudit {

using PhiloxBlock = std::array<std::uint32_t, 4>;

// One Philox4x32-10 block (Random123's philox4x32).
PhiloxBlock philox_block(const PhiloxBlock& counter, std::uint64_t key);

// The counter of block `block` of stream `stream_id`, with `tag` in the top byte of
// word 1 (0 for the stream itself).
PhiloxBlock philox_counter(std::uint64_t stream_id, std::uint64_t block, std::uint32_t tag = 0);

// Instruction sets for the batch form; every one gives the same words. `best` picks the
// widest the CPU has; a set the CPU lacks falls back to the next narrower one.
enum class PhiloxSimd { best, avx2, none };

// Words [first_word, first_word + n) of stream (key, stream_id) into out.
void philox_words(std::uint64_t key, std::uint64_t stream_id, std::uint64_t first_word,
                  std::size_t n, std::uint32_t* out, PhiloxSimd simd = PhiloxSimd::best);

// The blocks at n arbitrary counters, as philox_block gives them, many at once.
void philox_blocks(std::uint64_t key, const PhiloxBlock* counters, std::size_t n, PhiloxBlock* out,
                   PhiloxSimd simd = PhiloxSimd::best);

// A 64-bit key for a purpose-specific use of a user seed (e.g. the noise of a
// mechanism), so that streams drawn for different purposes from the same --seed never
// coincide: the first two words of block `purpose` of stream 2^32-1, tag 255, key `seed`.
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t purpose);

// 53-bit uniform in (0,1) from two words: ((hi:lo) >> 11 + 1/2) / 2^53.
inline double uniform_from_words(std::uint32_t lo, std::uint32_t hi) {
  const std::uint64_t bits = (static_cast<std::uint64_t>(hi) << 32) | lo;
  return (static_cast<double>(bits >> 11) + 0.5) * 0x1p-53;
}

}  // namespace dpaudit
