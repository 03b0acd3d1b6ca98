#include "random/ziggurat.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "random/philox.hpp"
#include "random/x86_simd.hpp"

namespace dpaudit {

namespace {

constexpr double kTailStart = 3.6541528853610088;  // r (Marsaglia and Tsang 2000, 256 layers)
constexpr double kLayerArea = 0.00492867323399;    // v
constexpr std::size_t kLayers = 256;
constexpr std::size_t kChunk = 512;  // words per batch of the fast path (in L1 with its numbers)

double density(double x) {
  return std::exp(-0.5 * x * x);
}

// The fast-path tables rescaled so that a candidate is one integer conversion and one
// multiplication: abscissa |u| = (2m+1) 2^-24 for the 23-bit m of a word. A layer's edge
// and ratio sit side by side, so that one 16-byte load brings both (the SIMD paths load
// them pair by pair: on CPUs where gathers are slow this halves the cost of a candidate).
struct alignas(16) FastLayer {
  double edge;   // edge[i] * 2^-24
  double ratio;  // ratio[i] * 2^24
};
using FastTables = std::array<FastLayer, kLayers>;

ZigguratTables build_tables() {
  // x_{i+1} = f^{-1}(f(x_i) + v / x_i): every layer has area v (Doornik 2005, Sec. 3).
  ZigguratTables t{};
  double f = density(kTailStart);
  t.edge[0] = kLayerArea / f;
  t.edge[1] = kTailStart;
  for (std::size_t i = 2; i < kLayers; ++i) {
    t.edge[i] = std::sqrt(-2 * std::log(kLayerArea / t.edge[i - 1] + f));
    f = density(t.edge[i]);
  }
  t.edge[kLayers] = 0;
  for (std::size_t i = 0; i < kLayers; ++i) t.ratio[i] = t.edge[i + 1] / t.edge[i];
  for (std::size_t i = 0; i <= kLayers; ++i) t.density[i] = density(t.edge[i]);
  return t;
}

const FastTables& fast_tables() {
  static const FastTables s = [] {
    FastTables r{};
    const ZigguratTables& t = ziggurat_tables();
    for (std::size_t i = 0; i < kLayers; ++i)
      r[i] = {std::ldexp(t.edge[i], -24), std::ldexp(t.ratio[i], 24)};
    return r;
  }();
  return s;
}

// A word as a candidate: layer = bits 0-7, sign = bit 8, m = bits 9-31.
std::size_t layer_of(std::uint32_t word) {
  return word & 0xFFu;
}
double abscissa_of(std::uint32_t word) {  // 2m + 1, exact in a double
  return static_cast<double>(static_cast<std::int32_t>((word >> 8) | 1u));
}
double sign_of(std::uint32_t word) {
  return (word & 0x100u) ? -1.0 : 1.0;
}

// First candidates of n words: out[i] is the signed value of word i, and the indices
// of the candidates outside their layer's inner rectangle (|u| >= x_{i+1} / x_i) go to
// rejected; returns how many. The sign is set by flipping the sign bit, without a
// branch (it is a coin toss), and the rejected index is always written, counted only
// when rejected (no branch either).
std::size_t fast_path(const std::uint32_t* words, std::size_t n, const FastTables& s, double* out,
                      std::uint16_t* rejected) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t w = words[i];
    const FastLayer& layer = s[layer_of(w)];
    const double a = abscissa_of(w);
    std::uint64_t bits;
    const double magnitude = a * layer.edge;
    std::memcpy(&bits, &magnitude, sizeof bits);
    bits ^= static_cast<std::uint64_t>(w & 0x100u) << 55;  // bit 8 -> the sign bit 63
    std::memcpy(out + i, &bits, sizeof bits);
    rejected[count] = static_cast<std::uint16_t>(i);
    count += !(a < layer.ratio);
  }
  return count;
}

// The SIMD paths note the rejected lanes of each group of four without a branch: entry
// `mask` of kRejected.lanes holds the positions of the mask's set bits in 16-bit fields
// (lowest first), kRejected.count their number. Four fields are always written.
struct RejectedLanes {
  std::uint64_t lanes[16];
  std::uint8_t count[16];
  constexpr RejectedLanes() : lanes{}, count{} {
    for (unsigned mask = 0; mask < 16; ++mask)
      for (unsigned lane = 0; lane < 4; ++lane)
        if (mask >> lane & 1u) lanes[mask] |= std::uint64_t{lane} << (16 * count[mask]++);
  }
};
constexpr RejectedLanes kRejected;

inline std::size_t note_rejected(unsigned mask, std::size_t first, std::uint16_t* rejected,
                                 std::size_t count) {
  const std::uint64_t lanes = kRejected.lanes[mask] + 0x0001000100010001u * first;
  std::memcpy(rejected + count, &lanes, sizeof lanes);
  return count + kRejected.count[mask];
}

// The table entry of word i, for a 16-byte load of its edge and ratio.
inline const double* entry(const FastTables& s, const std::uint32_t* words, std::size_t i) {
  return &s[layer_of(words[i])].edge;
}

// fast_path's tail after a SIMD path stopped at word `done`: the rejected indices it
// notes are shifted by `done`.
std::size_t finish_fast_path(const std::uint32_t* words, std::size_t done, std::size_t n,
                             const FastTables& s, double* out, std::uint16_t* rejected,
                             std::size_t count) {
  const std::size_t tail = fast_path(words + done, n - done, s, out + done, rejected + count);
  for (std::size_t r = count; r < count + tail; ++r)
    rejected[r] = static_cast<std::uint16_t>(rejected[r] + done);
  return count + tail;
}

#ifdef DPAUDIT_X86_SIMD
// The same, four words at a time with AVX2; identical results (the same conversion,
// multiplication and comparison). Two 16-byte entries per 256-bit register, unpacked
// into four edges and four ratios.
DPAUDIT_TARGET("avx2")
std::size_t fast_path_avx2(const std::uint32_t* words, std::size_t n, const FastTables& s,
                           double* out, std::uint16_t* rejected) {
  const __m128i one = _mm_set1_epi32(1);
  const __m256i sign_bit = _mm256_set1_epi64x(0x100);
  std::size_t count = 0, i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m128i w = _mm_loadu_si128(reinterpret_cast<const __m128i*>(words + i));
    const __m256d even =
        _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_load_pd(entry(s, words, i))),
                             _mm_load_pd(entry(s, words, i + 2)), 1);
    const __m256d odd =
        _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_load_pd(entry(s, words, i + 1))),
                             _mm_load_pd(entry(s, words, i + 3)), 1);
    const __m256d edge = _mm256_unpacklo_pd(even, odd), ratio = _mm256_unpackhi_pd(even, odd);
    const __m256d a = _mm256_cvtepi32_pd(_mm_or_si128(_mm_srli_epi32(w, 8), one));
    const __m256i sign =
        _mm256_slli_epi64(_mm256_and_si256(_mm256_cvtepu32_epi64(w), sign_bit), 55);
    _mm256_storeu_pd(out + i, _mm256_xor_pd(_mm256_mul_pd(a, edge), _mm256_castsi256_pd(sign)));
    const int mask = _mm256_movemask_pd(_mm256_cmp_pd(a, ratio, _CMP_NLT_UQ));
    count = note_rejected(static_cast<unsigned>(mask), i, rejected, count);
  }
  return finish_fast_path(words, i, n, s, out, rejected, count);
}

// The same, eight words at a time with AVX-512F: four entries per 512-bit register.
// GCC 12's AVX-512 intrinsics trip -W(maybe-)uninitialized on their own _mm512_undefined
// operands (GCC bug 105593, fixed in GCC 13).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#ifndef __clang__
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
DPAUDIT_TARGET("avx512f")
inline __m512d four_entries(const FastTables& s, const std::uint32_t* words, std::size_t i) {
  const __m256d low = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_load_pd(entry(s, words, i))),
                                           _mm_load_pd(entry(s, words, i + 2)), 1);
  const __m256d high =
      _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_load_pd(entry(s, words, i + 4))),
                           _mm_load_pd(entry(s, words, i + 6)), 1);
  return _mm512_insertf64x4(_mm512_castpd256_pd512(low), high, 1);
}

DPAUDIT_TARGET("avx512f")
std::size_t fast_path_avx512(const std::uint32_t* words, std::size_t n, const FastTables& s,
                             double* out, std::uint16_t* rejected) {
  const __m256i one = _mm256_set1_epi32(1);
  const __m512i sign_bit = _mm512_set1_epi64(0x100);
  std::size_t count = 0, i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i w = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(words + i));
    const __m512d even = four_entries(s, words, i), odd = four_entries(s, words, i + 1);
    const __m512d edge = _mm512_unpacklo_pd(even, odd), ratio = _mm512_unpackhi_pd(even, odd);
    const __m512d a = _mm512_cvtepi32_pd(_mm256_or_si256(_mm256_srli_epi32(w, 8), one));
    const __m512i sign =
        _mm512_slli_epi64(_mm512_and_si512(_mm512_cvtepu32_epi64(w), sign_bit), 55);
    _mm512_storeu_si512(out + i,
                        _mm512_xor_si512(_mm512_castpd_si512(_mm512_mul_pd(a, edge)), sign));
    const unsigned mask = _mm512_cmp_pd_mask(a, ratio, _CMP_NLT_UQ);
    count = note_rejected(mask & 15u, i, rejected, count);
    count = note_rejected(mask >> 4, i + 4, rejected, count);
  }
  return finish_fast_path(words, i, n, s, out, rejected, count);
}
#pragma GCC diagnostic pop
#endif

using FastPath = std::size_t (*)(const std::uint32_t*, std::size_t, const FastTables&, double*,
                                 std::uint16_t*);

// The fast path for an instruction set: the widest the CPU has up to `simd`, as
// philox_words chooses (every one gives the same numbers).
FastPath fast_path_for(PhiloxSimd simd) {
#ifdef DPAUDIT_X86_SIMD
  static const bool avx512 = DPAUDIT_CPU_SUPPORTS("avx512f"), avx2 = DPAUDIT_CPU_SUPPORTS("avx2");
  if (simd == PhiloxSimd::best && avx512) return fast_path_avx512;
  if (simd != PhiloxSimd::none && avx2) return fast_path_avx2;
#else
  (void)simd;
#endif
  return fast_path;
}

// Whether height h < density(x), decided as that comparison decides it, for x in the
// layer above x_inner (f_inner = density(x_inner)), mostly without calling exp: f(x) =
// f_inner e^-d with d = (x^2 - x_inner^2) / 2 in [0, 0.8), which lies between the Taylor
// polynomials 1 - d + d^2/2 - d^3/6 and that + d^4/24 (times f_inner). A height below
// the one or above the other by more than 2^-40 f_inner is decided by them; the margin is
// a thousand times what can separate these sides from exp's result (exp within an ulp,
// the polynomials and d within a few ulps of f_inner), so the answer is exp's, bit for
// bit. About one height in 10,000 falls between them and takes exp.
bool below_density(double x, double x_inner, double f_inner, double h) {
  constexpr double kMargin = 0x1p-40;
  const double d = 0.5 * (x * x - x_inner * x_inner);
  const double lower = 1 - d * (1 - d * (0.5 - d * (1.0 / 6)));
  const bool below = h < f_inner * (lower - kMargin);
  const bool above = h > f_inner * (lower + d * d * d * d * (1.0 / 24) + kMargin);
  // One branch, rarely taken. `below` and `above` are coin tosses: the empty asm makes their
  // union one opaque value, so that the compiler does not branch on either (GCC branched on
  // `above`, mispredicted every other time).
  int decided = static_cast<int>(below) | static_cast<int>(above);
  asm("" : "+r"(decided));
  if (decided == 0) return h < density(x);
  return below;
}

// The rest of the ziggurat for a candidate `word` outside its layer's inner rectangle,
// given the block b of its (index, attempt) sub-stream: the wedge test (a uniform height
// between f(x_i) and f(x_{i+1}) below f(x)) or, for the bottom layer, Marsaglia's (1964)
// tail method beyond r. True when the candidate is accepted, with its number in x.
bool wedge_or_tail(std::uint32_t word, const PhiloxBlock& b, double& x) {
  const ZigguratTables& t = ziggurat_tables();
  const std::size_t layer = layer_of(word);
  const double u = abscissa_of(word) * 0x1p-24;
  const double sign = sign_of(word);
  const double uniform = uniform_from_words(b[1], b[2]);
  if (layer == 0) {
    const double beyond = -std::log(uniform) / kTailStart;
    const double y = -std::log((static_cast<double>(b[3]) + 0.5) * 0x1p-32);
    x = sign * (kTailStart + beyond);
    return 2 * y > beyond * beyond;
  }
  const double magnitude = u * t.edge[layer];
  const double f_outer = t.density[layer], f_inner = t.density[layer + 1];
  x = sign * magnitude;
  return below_density(magnitude, t.edge[layer + 1], f_inner,
                       f_outer + uniform * (f_inner - f_outer));
}

// A later candidate's first test (the fast path's, in the unscaled tables).
bool inside_rectangle(std::uint32_t word, double& x) {
  const ZigguratTables& t = ziggurat_tables();
  const std::size_t layer = layer_of(word);
  const double u = abscissa_of(word) * 0x1p-24;
  x = sign_of(word) * (u * t.edge[layer]);
  return u < t.ratio[layer];
}

// The candidates of a chunk that the fast path rejected (normal numbers first + slot),
// finished together: round `attempt` computes the blocks (index, attempt) of all that
// remain at once (philox_blocks, SIMD), and keeps those whose wedge/tail test and next
// candidate (word 0 of the block) fail too. Each number takes the same blocks and tests
// as it would alone, so none depends on another.
void finish_rejected(std::uint64_t key, std::uint64_t stream_id, std::uint64_t first,
                     const std::uint32_t* words, const std::uint16_t* rejected, std::size_t count,
                     double* out, PhiloxSimd simd) {
  std::uint16_t slot[kChunk];
  std::uint32_t word[kChunk];
  PhiloxBlock counters[kChunk], blocks[kChunk];
  for (std::size_t r = 0; r < count; ++r) {
    slot[r] = rejected[r];
    word[r] = words[rejected[r]];
  }
  for (std::uint32_t attempt = 1; count > 0; ++attempt) {
    for (std::size_t r = 0; r < count; ++r)
      counters[r] = philox_counter(stream_id, first + slot[r], attempt);
    philox_blocks(key, counters, count, blocks, simd);
    std::size_t left = 0;
    for (std::size_t r = 0; r < count; ++r) {  // without branches on the outcome
      double wedge, next;
      const bool accepted = wedge_or_tail(word[r], blocks[r], wedge);
      const bool next_inside = inside_rectangle(blocks[r][0], next);
      out[slot[r]] = accepted ? wedge : next;  // rewritten later if neither
      slot[left] = slot[r];
      word[left] = blocks[r][0];
      left += !accepted && !next_inside;
    }
    count = left;
  }
}

}  // namespace

const ZigguratTables& ziggurat_tables() {
  static const ZigguratTables t = build_tables();
  return t;
}

normal_kernel::Tables normal_kernel_tables() {
  normal_kernel::Tables k{};
  const ZigguratTables& t = ziggurat_tables();
  const FastTables& s = fast_tables();
  for (std::size_t i = 0; i < kLayers; ++i) {
    k.fast_edge[i] = s[i].edge;
    k.fast_ratio[i] = s[i].ratio;
    k.ratio[i] = t.ratio[i];
  }
  for (std::size_t i = 0; i <= kLayers; ++i) {
    k.edge[i] = t.edge[i];
    k.density[i] = t.density[i];
  }
  return k;
}

void philox_normals(std::uint64_t key, std::uint64_t stream_id, std::uint64_t first, std::size_t n,
                    double* out, PhiloxSimd simd) {
  const FastTables& s = fast_tables();
  const FastPath fast = fast_path_for(simd);
  alignas(64) std::uint32_t words[kChunk];
  std::uint16_t rejected[kChunk + 4];  // about 1.5% of the candidates; 4 spare for note_rejected
  for (std::size_t done = 0; done < n; done += kChunk) {
    const std::size_t len = std::min(kChunk, n - done);
    philox_words(key, stream_id, first + done, len, words, simd);
    const std::size_t count = fast(words, len, s, out + done, rejected);
    finish_rejected(key, stream_id, first + done, words, rejected, count, out + done, simd);
  }
}

}  // namespace dpaudit
