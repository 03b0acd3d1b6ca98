#include "random/ziggurat.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "core/x86_simd.hpp"
#include "random/philox.hpp"
#include "random/philox_rounds.hpp"

namespace dpaudit {

namespace {

constexpr double kTailStart = 3.6541528853610088;  // r (Marsaglia and Tsang 2000, 256 layers)
constexpr double kLayerArea = 0.00492867323399;    // v
constexpr std::size_t kLayers = 256;
constexpr std::size_t kChunk = 1024;  // words per batch of the fast path (in L1 with its numbers)

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
// The SIMD paths note the rejected lanes of a step (four words with AVX2, eight with AVX-512)
// without a branch: entry `mask` of kRejected.lanes holds the positions of the mask's set bits
// in 16-bit fields (lowest first), kRejected.count their number. Eight fields are always
// written, with one 16-byte store.
struct RejectedLanes {
  alignas(16) std::uint16_t lanes[256][8];
  std::uint8_t count[256];
  constexpr RejectedLanes() : lanes{}, count{} {
    for (unsigned mask = 0; mask < 256; ++mask)
      for (unsigned lane = 0; lane < 8; ++lane)
        if (mask >> lane & 1u) lanes[mask][count[mask]++] = static_cast<std::uint16_t>(lane);
  }
};
constexpr RejectedLanes kRejected;

inline std::size_t note_rejected(unsigned mask, std::size_t first, std::uint16_t* rejected,
                                 std::size_t count) {
  const __m128i lanes =
      _mm_add_epi16(_mm_load_si128(reinterpret_cast<const __m128i*>(kRejected.lanes[mask])),
                    _mm_set1_epi16(static_cast<short>(first)));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(rejected + count), lanes);
  return count + kRejected.count[mask];
}

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

// The same, eight words a step with AVX-512F: four entries per 512-bit register. The words'
// table offsets (layer times 16 bytes) are computed for the whole chunk first, sixteen to a
// register.

DPAUDIT_AVX512_CODE_BEGIN
DPAUDIT_TARGET("avx512f")
inline __m512d four_entries(const FastTables& s, const std::uint32_t* offset) {
  const char* base = reinterpret_cast<const char*>(s.data());
  auto at = [&](std::size_t k) { return reinterpret_cast<const double*>(base + offset[k]); };
  const __m256d low =
      _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_load_pd(at(0))), _mm_load_pd(at(2)), 1);
  const __m256d high =
      _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_load_pd(at(4))), _mm_load_pd(at(6)), 1);
  return _mm512_insertf64x4(_mm512_castpd256_pd512(low), high, 1);
}

DPAUDIT_TARGET("avx512f")
std::size_t fast_path_avx512(const std::uint32_t* words, std::size_t n, const FastTables& s,
                             double* out, std::uint16_t* rejected) {
  constexpr int kXorAnd = 0x78;  // vpternlog's truth table of a ^ (b & c)
  static_assert(sizeof(FastLayer) == 16, "offsets are layer * 16");
  const __m256i one = _mm256_set1_epi32(1);
  const __m512i sign_bit = _mm512_set1_epi64(static_cast<long long>(1ull << 63));
  const __m512i layer_bits = _mm512_set1_epi32(0xFF);
  alignas(64) std::uint32_t offset[kChunk];
  const std::size_t whole = std::min(n, kChunk) / 16 * 16;
  for (std::size_t k = 0; k < whole; k += 16)
    _mm512_store_si512(
        offset + k,
        _mm512_slli_epi32(_mm512_and_si512(_mm512_loadu_si512(words + k), layer_bits), 4));
  std::size_t count = 0, i = 0;
  for (; i < whole; i += 16) {
    for (std::size_t h = 0; h < 16; h += 8) {
      const __m256i w = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(words + i + h));
      const __m512d even = four_entries(s, offset + i + h),
                    odd = four_entries(s, offset + i + h + 1);
      const __m512d edge = _mm512_unpacklo_pd(even, odd), ratio = _mm512_unpackhi_pd(even, odd);
      const __m512d a = _mm512_cvtepi32_pd(_mm256_or_si256(_mm256_srli_epi32(w, 8), one));
      _mm512_storeu_si512(
          out + i + h,
          _mm512_ternarylogic_epi64(_mm512_castpd_si512(_mm512_mul_pd(a, edge)),
                                    _mm512_slli_epi64(_mm512_cvtepu32_epi64(w), 55),  // bit 8
                                    sign_bit, kXorAnd));
      const unsigned mask = _mm512_cmp_pd_mask(a, ratio, _CMP_NLT_UQ);
      count = note_rejected(mask, i + h, rejected, count);
    }
  }
  return finish_fast_path(words, i, n, s, out, rejected, count);
}
DPAUDIT_AVX512_CODE_END
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

// The rejected candidates of a batch of chunks that remain after `attempt - 1` rounds: slot[r]
// is their number's place in the batch (number first + slot[r] of the stream), word[r] the
// candidate. A batch is finished once it holds kBatch candidates (several chunks' worth: the
// rounds then fill their registers and run long loops) or its last chunk is made. Sixteen
// spare entries past `count` let a SIMD round read whole registers.
constexpr std::size_t kBatch = 256;
struct Remaining {
  static constexpr std::size_t kCapacity = kBatch + kChunk;
  std::uint32_t slot[kCapacity + 16];
  std::uint32_t word[kCapacity + 16];
  std::size_t count = 0;
};

// One round of finish_rejected, one candidate at a time: the blocks (index, attempt) of all
// at once (philox_blocks, SIMD), then the wedge/tail test and next candidate (word 0 of the
// block) of each, without branches on the outcome. Keeps those that fail both.
void finish_round(std::uint64_t key, std::uint64_t stream_id, std::uint64_t first,
                  std::uint32_t attempt, Remaining& left, double* out, PhiloxSimd simd) {
  PhiloxBlock counters[Remaining::kCapacity], blocks[Remaining::kCapacity];
  const std::size_t count = left.count;
  for (std::size_t r = 0; r < count; ++r)
    counters[r] = philox_counter(stream_id, first + left.slot[r], attempt);
  philox_blocks(key, counters, count, blocks, simd);
  left.count = 0;
  for (std::size_t r = 0; r < count; ++r) {
    double wedge, next;
    const bool accepted = wedge_or_tail(left.word[r], blocks[r], wedge);
    const bool next_inside = inside_rectangle(blocks[r][0], next);
    out[left.slot[r]] = accepted ? wedge : next;  // rewritten later if neither
    left.slot[left.count] = left.slot[r];
    left.word[left.count] = blocks[r][0];
    left.count += !accepted && !next_inside;
  }
}

#ifdef DPAUDIT_X86_SIMD
DPAUDIT_AVX512_CODE_BEGIN
// An integer below 2^52 as a double, exactly: its bits in the mantissa of 2^52, less 2^52.
DPAUDIT_TARGET("avx512f")
inline __m512d small_integer_avx512(__m512i v) {
  return _mm512_sub_pd(
      _mm512_castsi512_pd(_mm512_or_si512(v, _mm512_set1_epi64(0x4330000000000000))),
      _mm512_set1_pd(0x1p52));
}

// The signed value (sign_of times |u| edge) and |u| of candidate words (in the low halves).
struct CandidatesAvx512 {
  __m512d value, u;
  __m512i layer;
};
DPAUDIT_TARGET("avx512f")
inline CandidatesAvx512 candidates_avx512(__m512i w, const double* edge) {
  const __m512i layer = _mm512_and_si512(w, _mm512_set1_epi64(0xFF));
  const __m512i abscissa = _mm512_or_si512(
      _mm512_and_si512(_mm512_srli_epi64(w, 8), _mm512_set1_epi64(0xFFFFFF)), _mm512_set1_epi64(1));
  const __m512d u = _mm512_mul_pd(small_integer_avx512(abscissa), _mm512_set1_pd(0x1p-24));
  const __m512i sign = _mm512_and_si512(_mm512_slli_epi64(w, 55),  // bit 8 -> the sign bit
                                        _mm512_set1_epi64(static_cast<long long>(1ull << 63)));
  const __m512d magnitude = _mm512_mul_pd(u, _mm512_i64gather_pd(layer, edge, 8));
  return {_mm512_castsi512_pd(_mm512_xor_si512(_mm512_castpd_si512(magnitude), sign)), u, layer};
}

// The blocks (index, attempt) of eight candidates at places slot[0, 8) of the batch:
// philox_counter(stream_id, first + slot, attempt) in philox_rounds' layout.
DPAUDIT_TARGET("avx512f")
inline void counters_avx512(std::uint64_t stream_id, std::uint64_t first, std::uint32_t attempt,
                            const std::uint32_t* slot, __m512i c[4]) {
  const __m512i index = _mm512_add_epi64(
      _mm512_set1_epi64(static_cast<long long>(first)),
      _mm512_cvtepu32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(slot))));
  c[0] = index;
  c[1] =
      _mm512_or_si512(_mm512_srli_epi64(index, 32), _mm512_set1_epi64(std::int64_t{attempt} << 24));
  c[2] = _mm512_set1_epi64(static_cast<long long>(stream_id & 0xFFFFFFFFu));
  c[3] = _mm512_set1_epi64(static_cast<long long>(stream_id >> 32));
}

// finish_round for the candidates at r .. r + lanes - 1 of `left` (lanes <= 8; the rest of the
// eight computed and ignored), given their blocks, with AVX-512F, operation for operation:
// uniform_from_words, wedge_or_tail's wedge test with below_density's Taylor bounds, and
// inside_rectangle, eight at a time. Tails (layer 0) and heights the bounds leave undecided
// take wedge_or_tail itself. Those that fail both go to the end of `left` (at left.count <=
// r: entries already read) with their next words.
DPAUDIT_TARGET("avx512f,avx512vl")
void finish_lanes_avx512(const __m512i block[4], std::size_t r, unsigned lanes, Remaining& left,
                         double* out) {
  const ZigguratTables& t = ziggurat_tables();
  const __m512i low32 = _mm512_set1_epi64(0xFFFFFFFF);
  const __m256i slot = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(left.slot + r));
  const __m256i word32 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(left.word + r));
  const __m512i w = _mm512_cvtepu32_epi64(word32);
  // uniform_from_words(b1, b2): the 53-bit integer as the sum of its halves' exact doubles
  const __m512i bits = _mm512_srli_epi64(
      _mm512_or_si512(_mm512_slli_epi64(block[2], 32), _mm512_and_si512(block[1], low32)), 11);
  const __m512d whole = _mm512_add_pd(
      _mm512_mul_pd(small_integer_avx512(_mm512_srli_epi64(bits, 32)), _mm512_set1_pd(0x1p32)),
      small_integer_avx512(_mm512_and_si512(bits, low32)));
  const __m512d uniform =
      _mm512_mul_pd(_mm512_add_pd(whole, _mm512_set1_pd(0.5)), _mm512_set1_pd(0x1p-53));
  // the wedge test of wedge_or_tail and below_density
  const CandidatesAvx512 c = candidates_avx512(w, t.edge);
  const __m512i inner = _mm512_add_epi64(c.layer, _mm512_set1_epi64(1));
  const __m512d x_inner = _mm512_i64gather_pd(inner, t.edge, 8);
  const __m512d f_outer = _mm512_i64gather_pd(c.layer, t.density, 8);
  const __m512d f_inner = _mm512_i64gather_pd(inner, t.density, 8);
  const __m512d magnitude = _mm512_abs_pd(c.value);
  const __m512d h = _mm512_add_pd(f_outer, _mm512_mul_pd(uniform, _mm512_sub_pd(f_inner, f_outer)));
  const __m512d d = _mm512_mul_pd(
      _mm512_set1_pd(0.5),
      _mm512_sub_pd(_mm512_mul_pd(magnitude, magnitude), _mm512_mul_pd(x_inner, x_inner)));
  const __m512d one = _mm512_set1_pd(1), margin = _mm512_set1_pd(0x1p-40);
  const __m512d lower = _mm512_sub_pd(
      one,
      _mm512_mul_pd(
          d, _mm512_sub_pd(
                 one, _mm512_mul_pd(d, _mm512_sub_pd(_mm512_set1_pd(0.5),
                                                     _mm512_mul_pd(d, _mm512_set1_pd(1.0 / 6)))))));
  const __m512d d4 = _mm512_mul_pd(_mm512_mul_pd(_mm512_mul_pd(_mm512_mul_pd(d, d), d), d),
                                   _mm512_set1_pd(1.0 / 24));
  const unsigned below =
      _mm512_cmp_pd_mask(h, _mm512_mul_pd(f_inner, _mm512_sub_pd(lower, margin)), _CMP_LT_OQ);
  const unsigned above = _mm512_cmp_pd_mask(
      h, _mm512_mul_pd(f_inner, _mm512_add_pd(_mm512_add_pd(lower, d4), margin)), _CMP_GT_OQ);
  const unsigned tail = _mm512_cmpeq_epi64_mask(c.layer, _mm512_setzero_si512());
  // the next candidate, word 0 of the block: inside_rectangle
  const CandidatesAvx512 next = candidates_avx512(block[0], t.edge);
  const unsigned inside =
      _mm512_cmp_pd_mask(next.u, _mm512_i64gather_pd(next.layer, t.ratio, 8), _CMP_LT_OQ);
  const unsigned valid = (1u << lanes) - 1;
  unsigned accepted = below;
  __m512d value = c.value;
  if (const unsigned odd = (tail | ~(below | above)) & valid; odd != 0) {
    alignas(64) double lane_value[8];
    alignas(64) std::uint64_t b[4][8];
    alignas(32) std::uint32_t lane_word[8];
    _mm512_store_pd(lane_value, value);
    for (std::size_t k = 0; k < 4; ++k) _mm512_store_si512(b[k], block[k]);
    _mm256_store_si256(reinterpret_cast<__m256i*>(lane_word), word32);
    for (unsigned rest = odd; rest != 0; rest &= rest - 1) {
      const int l = __builtin_ctz(rest);
      const PhiloxBlock lane_block = {
          static_cast<std::uint32_t>(b[0][l]), static_cast<std::uint32_t>(b[1][l]),
          static_cast<std::uint32_t>(b[2][l]), static_cast<std::uint32_t>(b[3][l])};
      const bool yes = wedge_or_tail(lane_word[l], lane_block, lane_value[l]);
      accepted = (accepted & ~(1u << l)) | (static_cast<unsigned>(yes) << l);
    }
    value = _mm512_load_pd(lane_value);
  }
  alignas(64) double chosen[8];  // rewritten later where neither is accepted
  alignas(32) std::uint32_t at[8];
  _mm512_store_pd(chosen,
                  _mm512_mask_blend_pd(static_cast<std::uint8_t>(accepted), next.value, value));
  _mm256_store_si256(reinterpret_cast<__m256i*>(at), slot);
  for (unsigned l = 0; l < lanes; ++l) out[at[l]] = chosen[l];
  const auto fail = static_cast<std::uint8_t>(~(accepted | inside) & valid);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(left.slot + left.count),
                      _mm256_maskz_compress_epi32(fail, slot));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(left.word + left.count),
                      _mm256_maskz_compress_epi32(fail, _mm512_cvtepi64_epi32(block[0])));
  left.count += static_cast<std::size_t>(__builtin_popcount(fail));
}

// finish_round with AVX-512F, sixteen candidates at a time: two groups of eight, whose blocks
// philox_rounds computes side by side (hiding the multiplier's latency).
DPAUDIT_TARGET("avx512f,avx512vl")
void finish_round_avx512(std::uint64_t key, std::uint64_t stream_id, std::uint64_t first,
                         std::uint32_t attempt, Remaining& left, double* out) {
  const std::size_t count = left.count;
  std::fill(left.slot + count, left.slot + count + 16, 0u);
  std::fill(left.word + count, left.word + count + 16, 0u);
  left.count = 0;
  for (std::size_t r = 0; r < count; r += 16) {
    __m512i c[4][2];
    for (std::size_t g = 0; g < 2; ++g) {
      __m512i one[4];
      counters_avx512(stream_id, first, attempt, left.slot + r + 8 * g, one);
      for (std::size_t k = 0; k < 4; ++k) c[k][g] = one[k];
    }
    philox_rounds::rounds_avx512(key, c);
    for (std::size_t g = 0; g < 2 && r + 8 * g < count; ++g) {
      const __m512i block[4] = {c[0][g], c[1][g], c[2][g], c[3][g]};
      finish_lanes_avx512(block, r + 8 * g,
                          static_cast<unsigned>(std::min<std::size_t>(8, count - r - 8 * g)), left,
                          out);
    }
  }
}
DPAUDIT_AVX512_CODE_END
#endif

// The candidates of a batch that the fast path rejected, finished together round by round
// (round `attempt` takes the blocks (index, attempt) of those that remain), with AVX-512F
// where `simd` allows it. Each number takes the same blocks and tests as it would alone, so
// none depends on another. Leaves `left` empty.
void finish_rejected(std::uint64_t key, std::uint64_t stream_id, std::uint64_t first,
                     Remaining& left, double* out, PhiloxSimd simd) {
#ifdef DPAUDIT_X86_SIMD
  static const bool avx512 = DPAUDIT_CPU_SUPPORTS("avx512f") && DPAUDIT_CPU_SUPPORTS("avx512vl");
  if (simd == PhiloxSimd::best && avx512) {
    for (std::uint32_t attempt = 1; left.count > 0; ++attempt)
      finish_round_avx512(key, stream_id, first, attempt, left, out);
    return;
  }
#endif
  for (std::uint32_t attempt = 1; left.count > 0; ++attempt)
    finish_round(key, stream_id, first, attempt, left, out, simd);
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
  std::uint16_t rejected[kChunk + 8];  // about 1.5% of the candidates; 8 spare for the SIMD paths
  Remaining left;
  std::size_t batch = 0;  // where the batch of `left` begins
  for (std::size_t done = 0; done < n; done += kChunk) {
    const std::size_t len = std::min(kChunk, n - done);
    philox_words(key, stream_id, first + done, len, words, simd);
    const std::size_t count = fast(words, len, s, out + done, rejected);
    for (std::size_t r = 0; r < count; ++r) {
      left.slot[left.count + r] = static_cast<std::uint32_t>(done - batch + rejected[r]);
      left.word[left.count + r] = words[rejected[r]];
    }
    left.count += count;
    if (left.count >= kBatch || done + len == n) {
      finish_rejected(key, stream_id, first + batch, left, out + batch, simd);
      batch = done + len;
    }
  }
}

}  // namespace dpaudit
