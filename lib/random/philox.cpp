#include "random/philox.hpp"

#include <algorithm>

#include <Random123/philox.h>

#include "core/x86_simd.hpp"
#include "random/philox_rounds.hpp"

namespace dpaudit {

namespace {

using philox_rounds::kMul0;
using philox_rounds::kMul1;
using philox_rounds::kRounds;
using philox_rounds::kWeyl0;
using philox_rounds::kWeyl1;
constexpr std::size_t kLanes = 64;  // blocks computed side by side (structure of arrays)

// The counters of up to kLanes blocks, one array per counter word.
struct LaneCounters {
  alignas(64) std::uint32_t c0[kLanes], c1[kLanes], c2[kLanes], c3[kLanes];
  // kLanes consecutive blocks of a stream
  LaneCounters(std::uint64_t stream_id, std::uint64_t first_block) {
    for (std::size_t l = 0; l < kLanes; ++l) {
      const std::uint64_t b = first_block + l;
      c0[l] = static_cast<std::uint32_t>(b);
      c1[l] = static_cast<std::uint32_t>(b >> 32);
      c2[l] = static_cast<std::uint32_t>(stream_id);
      c3[l] = static_cast<std::uint32_t>(stream_id >> 32);
    }
  }
  // n <= kLanes arbitrary counters; the lanes after them up to a multiple of 16 are zero
  // (a SIMD register's worth, computed and not used), the rest is left unset
  LaneCounters(const PhiloxBlock* counters, std::size_t n) {
    for (std::size_t l = 0; l < (n + 15) / 16 * 16; ++l) {
      const PhiloxBlock c = l < n ? counters[l] : PhiloxBlock{};
      c0[l] = c[0];
      c1[l] = c[1];
      c2[l] = c[2];
      c3[l] = c[3];
    }
  }
};

// The blocks of the first `count` lanes (count <= kLanes; the SIMD forms below compute
// whole registers, at most kLanes), written block-major into out (4 words per lane). One
// round: (c0,c1,c2,c3) -> (hi(M1 c2)^c1^k0, lo(M1 c2), hi(M0 c0)^c3^k1, lo(M0 c0)); the
// key is bumped by the Weyl constants between rounds.
void philox_lanes_portable(std::uint64_t key, const LaneCounters& counters, std::size_t count,
                           std::uint32_t* out) {
  LaneCounters lanes = counters;
  std::uint32_t *c0 = lanes.c0, *c1 = lanes.c1, *c2 = lanes.c2, *c3 = lanes.c3;
  std::uint32_t k0 = static_cast<std::uint32_t>(key), k1 = static_cast<std::uint32_t>(key >> 32);
  for (int r = 0; r < kRounds; ++r) {
#pragma GCC unroll 1  // keep the lane loop whole so that it is vectorised, not unrolled
    for (std::size_t l = 0; l < count; ++l) {
      const std::uint64_t p0 = static_cast<std::uint64_t>(kMul0) * c0[l];
      const std::uint64_t p1 = static_cast<std::uint64_t>(kMul1) * c2[l];
      const std::uint32_t n0 = static_cast<std::uint32_t>(p1 >> 32) ^ c1[l] ^ k0;
      const std::uint32_t n2 = static_cast<std::uint32_t>(p0 >> 32) ^ c3[l] ^ k1;
      c0[l] = n0;
      c1[l] = static_cast<std::uint32_t>(p1);
      c2[l] = n2;
      c3[l] = static_cast<std::uint32_t>(p0);
    }
    k0 += kWeyl0;
    k1 += kWeyl1;
  }
  for (std::size_t l = 0; l < count; ++l) {
    out[4 * l] = c0[l];
    out[4 * l + 1] = c1[l];
    out[4 * l + 2] = c2[l];
    out[4 * l + 3] = c3[l];
  }
}

#ifdef DPAUDIT_X86_SIMD
// The same with AVX2: eight blocks per register, four registers interleaved so that the
// multiplier latency is hidden. mul_epu32 multiplies the even 32-bit lanes into 64-bit
// products, the odd lanes are shifted down first, and blends gather the low and high
// halves back into 32-bit lanes. A 4 x 8 transpose writes the blocks in order. This
// computes lanes [first, first + 8 kGroups).
template <std::size_t kGroups>
DPAUDIT_TARGET("avx2")
inline
    __attribute__((always_inline)) void philox_groups_avx2(std::uint64_t key,
                                                           const LaneCounters& lanes,
                                                           std::size_t first, std::uint32_t* out) {
  const __m256i mul0 = _mm256_set1_epi64x(kMul0), mul1 = _mm256_set1_epi64x(kMul1);
  __m256i c0[kGroups], c1[kGroups], c2[kGroups], c3[kGroups];
  for (std::size_t g = 0; g < kGroups; ++g) {
    c0[g] = _mm256_load_si256(reinterpret_cast<const __m256i*>(lanes.c0 + first + 8 * g));
    c1[g] = _mm256_load_si256(reinterpret_cast<const __m256i*>(lanes.c1 + first + 8 * g));
    c2[g] = _mm256_load_si256(reinterpret_cast<const __m256i*>(lanes.c2 + first + 8 * g));
    c3[g] = _mm256_load_si256(reinterpret_cast<const __m256i*>(lanes.c3 + first + 8 * g));
  }
  std::uint32_t k0 = static_cast<std::uint32_t>(key), k1 = static_cast<std::uint32_t>(key >> 32);
  for (int r = 0; r < kRounds; ++r) {
    const __m256i key0 = _mm256_set1_epi32(static_cast<int>(k0)),
                  key1 = _mm256_set1_epi32(static_cast<int>(k1));
    for (std::size_t g = 0; g < kGroups; ++g) {
      const __m256i even0 = _mm256_mul_epu32(c0[g], mul0);
      const __m256i odd0 = _mm256_mul_epu32(_mm256_srli_epi64(c0[g], 32), mul0);
      const __m256i even1 = _mm256_mul_epu32(c2[g], mul1);
      const __m256i odd1 = _mm256_mul_epu32(_mm256_srli_epi64(c2[g], 32), mul1);
      const __m256i hi0 = _mm256_blend_epi32(_mm256_srli_epi64(even0, 32), odd0, 0xAA);
      const __m256i hi1 = _mm256_blend_epi32(_mm256_srli_epi64(even1, 32), odd1, 0xAA);
      c0[g] = _mm256_xor_si256(_mm256_xor_si256(hi1, c1[g]), key0);
      c2[g] = _mm256_xor_si256(_mm256_xor_si256(hi0, c3[g]), key1);
      c1[g] = _mm256_blend_epi32(even1, _mm256_slli_epi64(odd1, 32), 0xAA);  // lo(M1 c2)
      c3[g] = _mm256_blend_epi32(even0, _mm256_slli_epi64(odd0, 32), 0xAA);  // lo(M0 c0)
    }
    k0 += kWeyl0;
    k1 += kWeyl1;
  }
  for (std::size_t g = 0; g < kGroups; ++g) {
    const __m256i t0 = _mm256_unpacklo_epi32(c0[g], c1[g]),
                  t1 = _mm256_unpackhi_epi32(c0[g], c1[g]);
    const __m256i t2 = _mm256_unpacklo_epi32(c2[g], c3[g]),
                  t3 = _mm256_unpackhi_epi32(c2[g], c3[g]);
    const __m256i b04 = _mm256_unpacklo_epi64(t0, t2), b15 = _mm256_unpackhi_epi64(t0, t2);
    const __m256i b26 = _mm256_unpacklo_epi64(t1, t3), b37 = _mm256_unpackhi_epi64(t1, t3);
    __m256i* o = reinterpret_cast<__m256i*>(out + 4 * (first + 8 * g));
    _mm256_storeu_si256(o, _mm256_permute2x128_si256(b04, b15, 0x20));
    _mm256_storeu_si256(o + 1, _mm256_permute2x128_si256(b26, b37, 0x20));
    _mm256_storeu_si256(o + 2, _mm256_permute2x128_si256(b04, b15, 0x31));
    _mm256_storeu_si256(o + 3, _mm256_permute2x128_si256(b26, b37, 0x31));
  }
}

// kLanes consecutive blocks of a stream, their counters made here, beside the rounds (made
// by the caller, with the groups not inlined, the words took a fifth longer).
DPAUDIT_TARGET("avx2")
void philox_stream_avx2(std::uint64_t key, std::uint64_t stream_id, std::uint64_t first_block,
                        std::uint32_t* out) {
  const LaneCounters lanes(stream_id, first_block);
  for (std::size_t first = 0; first < kLanes; first += 32)
    philox_groups_avx2<4>(key, lanes, first, out);
}

// The first `count` lanes of arbitrary counters, rounded up to 8: 8 at a time.
DPAUDIT_TARGET("avx2")
void philox_lanes_avx2(std::uint64_t key, const LaneCounters& lanes, std::size_t count,
                       std::uint32_t* out) {
  for (std::size_t first = 0; first < count; first += 8)
    philox_groups_avx2<1>(key, lanes, first, out);
}
#endif

#ifdef DPAUDIT_X86_SIMD
// The same with AVX-512, eight blocks to a register (philox_rounds.hpp).
DPAUDIT_AVX512_CODE_BEGIN
// Eight 32-bit words, each into the low half of a 64-bit lane.
DPAUDIT_TARGET("avx512f")
inline __m512i widen_avx512(const std::uint32_t* words) {
  return _mm512_cvtepu32_epi64(_mm256_load_si256(reinterpret_cast<const __m256i*>(words)));
}

// The counters of lanes [lane, lane + 8), one register per counter word: of arbitrary
// counters, or of a stream's consecutive blocks, made in registers.
struct ArbitraryCounters {
  const LaneCounters& lanes;
  DPAUDIT_TARGET("avx512f") void operator()(std::size_t lane, __m512i c[4]) const {
    c[0] = widen_avx512(lanes.c0 + lane);
    c[1] = widen_avx512(lanes.c1 + lane);
    c[2] = widen_avx512(lanes.c2 + lane);
    c[3] = widen_avx512(lanes.c3 + lane);
  }
};
struct StreamCounters {
  std::uint64_t stream_id, first_block;
  DPAUDIT_TARGET("avx512f") void operator()(std::size_t lane, __m512i c[4]) const {
    philox_rounds::stream_counters_avx512(stream_id, first_block + lane, c);
  }
};

// kGroups groups of eight blocks (philox_rounds.hpp) from `counters(lane, c)`, which sets
// the counters of lanes [lane, lane + 8), for lanes [first, first + 8 kGroups).
template <std::size_t kGroups, typename Counters>
DPAUDIT_TARGET("avx512f")
inline
    __attribute__((always_inline)) void philox_groups_avx512(std::uint64_t key, Counters counters,
                                                             std::size_t first,
                                                             std::uint32_t* out) {
  __m512i c[4][kGroups];
#pragma GCC unroll 8
  for (std::size_t g = 0; g < kGroups; ++g) {
    __m512i group[4];
    counters(first + 8 * g, group);
    for (int k = 0; k < 4; ++k) c[k][g] = group[k];
  }
  philox_rounds::rounds_avx512(key, c);
#pragma GCC unroll 8
  for (std::size_t g = 0; g < kGroups; ++g)
    philox_rounds::store_words_avx512(c[0][g], c[1][g], c[2][g], c[3][g],
                                      out + 4 * (first + 8 * g));
}

// kLanes consecutive blocks of a stream (as philox_stream_avx2).
DPAUDIT_TARGET("avx512f")
void philox_stream_avx512(std::uint64_t key, std::uint64_t stream_id, std::uint64_t first_block,
                          std::uint32_t* out) {
  for (std::size_t first = 0; first < kLanes; first += 32)
    philox_groups_avx512<4>(key, StreamCounters{stream_id, first_block}, first, out);
}

// The first `count` lanes of arbitrary counters, rounded up to 16: 16 at a time.
DPAUDIT_TARGET("avx512f")
void philox_lanes_avx512(std::uint64_t key, const LaneCounters& lanes, std::size_t count,
                         std::uint32_t* out) {
  for (std::size_t first = 0; first < count; first += 16)
    philox_groups_avx512<2>(key, ArbitraryCounters{lanes}, first, out);
}
DPAUDIT_AVX512_CODE_END
#endif

// The instruction set of a batch: the widest the CPU has up to `simd`.
enum class Isa { avx512, avx2, portable };
Isa isa_for(PhiloxSimd simd) {
#ifdef DPAUDIT_X86_SIMD
  static const bool avx512 = DPAUDIT_CPU_SUPPORTS("avx512f"), avx2 = DPAUDIT_CPU_SUPPORTS("avx2");
  if (simd == PhiloxSimd::best && avx512) return Isa::avx512;
  if (simd != PhiloxSimd::none && avx2) return Isa::avx2;
#else
  (void)simd;
#endif
  return Isa::portable;
}

// kLanes consecutive blocks of a stream into out (4 * kLanes words).
void philox_stream_lanes(std::uint64_t key, std::uint64_t stream_id, std::uint64_t first_block,
                         std::uint32_t* out, PhiloxSimd simd) {
  switch (isa_for(simd)) {
#ifdef DPAUDIT_X86_SIMD
    case Isa::avx512:
      return philox_stream_avx512(key, stream_id, first_block, out);
    case Isa::avx2:
      return philox_stream_avx2(key, stream_id, first_block, out);
#endif
    default:
      return philox_lanes_portable(key, LaneCounters(stream_id, first_block), kLanes, out);
  }
}

// The blocks of the first `count` lanes into out (4 words per lane; SIMD forms write whole
// registers, up to kLanes lanes, so out has room for 4 * kLanes words).
void philox_lanes(std::uint64_t key, const LaneCounters& lanes, std::size_t count,
                  std::uint32_t* out, PhiloxSimd simd) {
  switch (isa_for(simd)) {
#ifdef DPAUDIT_X86_SIMD
    case Isa::avx512:
      return philox_lanes_avx512(key, lanes, count, out);
    case Isa::avx2:
      return philox_lanes_avx2(key, lanes, count, out);
#endif
    default:
      return philox_lanes_portable(key, lanes, count, out);
  }
}

}  // namespace

PhiloxBlock philox_block(const PhiloxBlock& counter, std::uint64_t key) {
  r123::Philox4x32 gen;
  const r123::Philox4x32::ctr_type c = {{counter[0], counter[1], counter[2], counter[3]}};
  const r123::Philox4x32::key_type k = {
      {static_cast<std::uint32_t>(key), static_cast<std::uint32_t>(key >> 32)}};
  const auto r = gen(c, k);
  return {r[0], r[1], r[2], r[3]};
}

PhiloxBlock philox_counter(std::uint64_t stream_id, std::uint64_t block, std::uint32_t tag) {
  return {static_cast<std::uint32_t>(block), static_cast<std::uint32_t>(block >> 32) | (tag << 24),
          static_cast<std::uint32_t>(stream_id), static_cast<std::uint32_t>(stream_id >> 32)};
}

void philox_words(std::uint64_t key, std::uint64_t stream_id, std::uint64_t first_word,
                  std::size_t n, std::uint32_t* out, PhiloxSimd simd) {
  constexpr std::size_t kWords = 4 * kLanes, kFewWords = 16;
  if (n <= kFewWords) {  // a few words (scalar draws): only the blocks they need
    const std::uint64_t end = first_word + n;
    for (std::uint64_t w = first_word; w < end; w = (w / 4 + 1) * 4) {
      const PhiloxBlock b = philox_block(philox_counter(stream_id, w / 4), key);
      for (std::uint64_t v = w; v < std::min(end, (w / 4 + 1) * 4); ++v) *out++ = b[v % 4];
    }
    return;
  }
  std::uint32_t lanes[kWords];
  std::uint64_t block = first_word / 4;
  std::size_t skip = static_cast<std::size_t>(first_word % 4);
  while (n > 0) {
    if (skip == 0 && n >= kWords) {  // whole batches go straight to out
      philox_stream_lanes(key, stream_id, block, out, simd);
      out += kWords;
      n -= kWords;
    } else {
      philox_stream_lanes(key, stream_id, block, lanes, simd);
      const std::size_t take = std::min(n, kWords - skip);
      std::copy(lanes + skip, lanes + skip + take, out);
      out += take;
      n -= take;
      skip = 0;
    }
    block += kLanes;
  }
}

void philox_blocks(std::uint64_t key, const PhiloxBlock* counters, std::size_t n, PhiloxBlock* out,
                   PhiloxSimd simd) {
  alignas(64) std::uint32_t words[4 * kLanes];
  for (std::size_t done = 0; done < n; done += kLanes) {
    const std::size_t count = std::min(kLanes, n - done);
    philox_lanes(key, LaneCounters(counters + done, count), count, words, simd);
    for (std::size_t l = 0; l < count; ++l)
      out[done + l] = {words[4 * l], words[4 * l + 1], words[4 * l + 2], words[4 * l + 3]};
  }
}

std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t purpose) {
  const PhiloxBlock b = philox_block(philox_counter(0xFFFFFFFFu, purpose, 0xFF), seed);
  return (static_cast<std::uint64_t>(b[1]) << 32) | b[0];
}

}  // namespace dpaudit
