// Philox4x32-10's constants (Salmon et al. 2011, Sec. 4; Random123's philox.h) and its
// rounds with AVX-512F, for the words of philox.cpp and the blocks of the rejected
// candidates that ziggurat.cpp finishes in registers.
//
// Eight blocks to a register: each counter word sits in the low half of a 64-bit lane,
// where mul_epu32 reads it, so a round is two multiplications, the two high halves shifted
// down and two three-way xors; the low halves are the products themselves (what lies above
// them in a lane is never read). Several groups of eight blocks are interleaved so that the
// multiplier's latency is hidden.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/x86_simd.hpp"

namespace dpaudit::philox_rounds {

constexpr std::uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;
constexpr std::uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;
constexpr int kRounds = 10;

#ifdef DPAUDIT_X86_SIMD
DPAUDIT_AVX512_CODE_BEGIN

// The counters of blocks [first_block, first_block + 8) of stream stream_id: c[k] holds
// counter word k of the eight blocks.
DPAUDIT_TARGET("avx512f")
inline void stream_counters_avx512(std::uint64_t stream_id, std::uint64_t first_block,
                                   __m512i c[4]) {
  const __m512i b = _mm512_add_epi64(_mm512_set1_epi64(static_cast<long long>(first_block)),
                                     _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0));
  c[0] = b;
  c[1] = _mm512_srli_epi64(b, 32);
  c[2] = _mm512_set1_epi64(static_cast<long long>(stream_id & 0xFFFFFFFFu));
  c[3] = _mm512_set1_epi64(static_cast<long long>(stream_id >> 32));
}

// The ten rounds of kGroups groups of eight blocks, in place: c[k][g] is word k of group g,
// counter before, output after (in the low halves).
template <std::size_t kGroups>
DPAUDIT_TARGET("avx512f")
inline
    __attribute__((always_inline)) void rounds_avx512(std::uint64_t key, __m512i (&c)[4][kGroups]) {
  constexpr int kXor3 = 0x96;  // vpternlog's truth table of a ^ b ^ c
  const __m512i mul0 = _mm512_set1_epi64(kMul0), mul1 = _mm512_set1_epi64(kMul1);
  std::uint32_t k0 = static_cast<std::uint32_t>(key), k1 = static_cast<std::uint32_t>(key >> 32);
#pragma GCC unroll 10
  for (int r = 0; r < kRounds; ++r) {
    const __m512i key0 = _mm512_set1_epi64(k0), key1 = _mm512_set1_epi64(k1);
#pragma GCC unroll 8
    for (std::size_t g = 0; g < kGroups; ++g) {
      // (c0,c1,c2,c3) -> (hi(M1 c2)^c1^k0, lo(M1 c2), hi(M0 c0)^c3^k1, lo(M0 c0))
      const __m512i p0 = _mm512_mul_epu32(c[0][g], mul0), p1 = _mm512_mul_epu32(c[2][g], mul1);
      c[0][g] = _mm512_ternarylogic_epi64(_mm512_srli_epi64(p1, 32), c[1][g], key0, kXor3);
      c[2][g] = _mm512_ternarylogic_epi64(_mm512_srli_epi64(p0, 32), c[3][g], key1, kXor3);
      c[1][g] = p1;
      c[3][g] = p0;
    }
    k0 += kWeyl0;
    k1 += kWeyl1;
  }
}

// The 32 words of a group's eight blocks (word k of block l in the low half of lane l of
// w[k]) written in stream order: paired into 64-bit lanes (w0 w1, w2 w3), then interleaved
// block by block.
DPAUDIT_TARGET("avx512f")
inline void store_words_avx512(__m512i w0, __m512i w1, __m512i w2, __m512i w3, std::uint32_t* out) {
  const __m512i pair = _mm512_set_epi32(30, 14, 28, 12, 26, 10, 24, 8, 22, 6, 20, 4, 18, 2, 16, 0);
  const __m512i low = _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0);
  const __m512i high = _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4);
  const __m512i w01 = _mm512_permutex2var_epi32(w0, pair, w1);
  const __m512i w23 = _mm512_permutex2var_epi32(w2, pair, w3);
  _mm512_storeu_si512(out, _mm512_permutex2var_epi64(w01, low, w23));
  _mm512_storeu_si512(out + 16, _mm512_permutex2var_epi64(w01, high, w23));
}
DPAUDIT_AVX512_CODE_END
#endif

}  // namespace dpaudit::philox_rounds
