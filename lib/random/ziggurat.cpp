#include "random/ziggurat.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define DPAUDIT_ZIGGURAT_AVX2 1
#endif

#include "random/philox.hpp"

namespace dpaudit {

namespace {

constexpr double kTailStart = 3.6541528853610088;  // r (Marsaglia and Tsang 2000, 256 layers)
constexpr double kLayerArea = 0.00492867323399;    // v
constexpr std::size_t kLayers = 256;
constexpr std::size_t kChunk = 512;  // words per batch of the fast path

double density(double x) {
  return std::exp(-0.5 * x * x);
}

// The fast-path tables rescaled so that a candidate is one integer conversion and one
// multiplication: abscissa |u| = (2m+1) 2^-24 for the 23-bit m of a word.
struct ScaledTables {
  double edge[kLayers];   // edge[i] * 2^-24
  double ratio[kLayers];  // ratio[i] * 2^24
};

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

const ScaledTables& scaled_tables() {
  static const ScaledTables s = [] {
    ScaledTables r{};
    const ZigguratTables& t = ziggurat_tables();
    for (std::size_t i = 0; i < kLayers; ++i) {
      r.edge[i] = std::ldexp(t.edge[i], -24);
      r.ratio[i] = std::ldexp(t.ratio[i], 24);
    }
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
std::size_t fast_path(const std::uint32_t* words, std::size_t n, const ScaledTables& s, double* out,
                      std::uint16_t* rejected) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t w = words[i];
    const std::size_t layer = layer_of(w);
    const double a = abscissa_of(w);
    std::uint64_t bits;
    const double magnitude = a * s.edge[layer];
    std::memcpy(&bits, &magnitude, sizeof bits);
    bits ^= static_cast<std::uint64_t>(w & 0x100u) << 55;  // bit 8 -> the sign bit 63
    std::memcpy(out + i, &bits, sizeof bits);
    rejected[count] = static_cast<std::uint16_t>(i);
    count += !(a < s.ratio[layer]);
  }
  return count;
}

#ifdef DPAUDIT_ZIGGURAT_AVX2
// The same, four words at a time with AVX2 gathers from the tables; identical results
// (the same conversion, multiplication and comparison).
__attribute__((target("avx2"))) std::size_t fast_path_avx2(const std::uint32_t* words,
                                                           std::size_t n, const ScaledTables& s,
                                                           double* out, std::uint16_t* rejected) {
  const __m128i layer_mask = _mm_set1_epi32(0xFF), one = _mm_set1_epi32(1);
  const __m256i sign_bit = _mm256_set1_epi64x(0x100);
  const __m256d all = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
  std::size_t count = 0, i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m128i w = _mm_loadu_si128(reinterpret_cast<const __m128i*>(words + i));
    const __m128i layer = _mm_and_si128(w, layer_mask);
    const __m256d a = _mm256_cvtepi32_pd(_mm_or_si128(_mm_srli_epi32(w, 8), one));
    const __m256d edge = _mm256_mask_i32gather_pd(_mm256_setzero_pd(), s.edge, layer, all, 8);
    const __m256d ratio = _mm256_mask_i32gather_pd(_mm256_setzero_pd(), s.ratio, layer, all, 8);
    const __m256i sign =
        _mm256_slli_epi64(_mm256_and_si256(_mm256_cvtepu32_epi64(w), sign_bit), 55);
    _mm256_storeu_pd(out + i, _mm256_xor_pd(_mm256_mul_pd(a, edge), _mm256_castsi256_pd(sign)));
    unsigned mask = static_cast<unsigned>(_mm256_movemask_pd(_mm256_cmp_pd(a, ratio, _CMP_NLT_UQ)));
    for (; mask != 0; mask &= mask - 1)
      rejected[count++] = static_cast<std::uint16_t>(i + __builtin_ctz(mask));
  }
  const std::size_t tail = fast_path(words + i, n - i, s, out + i, rejected + count);
  for (std::size_t r = count; r < count + tail; ++r)
    rejected[r] = static_cast<std::uint16_t>(rejected[r] + i);
  return count + tail;
}
#endif

// The rest of the ziggurat for normal number `index` whose first candidate `word` was
// rejected: the wedge test (uniform height between f(x_i) and f(x_{i+1}) below f(x)),
// Marsaglia's (1964) tail method beyond r for the bottom layer, and new candidates,
// all from the blocks (index, attempt) of the stream.
double slow_path(std::uint64_t key, std::uint64_t stream_id, std::uint64_t index,
                 std::uint32_t word) {
  const ZigguratTables& t = ziggurat_tables();
  for (std::uint32_t attempt = 1;; ++attempt) {
    const std::size_t layer = layer_of(word);
    const double u = abscissa_of(word) * 0x1p-24;
    const double sign = sign_of(word);
    if (u < t.ratio[layer]) return sign * (u * t.edge[layer]);
    const PhiloxBlock b = philox_block(philox_counter(stream_id, index, attempt), key);
    const double uniform = uniform_from_words(b[1], b[2]);
    if (layer == 0) {
      const double x = -std::log(uniform) / kTailStart;
      const double y = -std::log((static_cast<double>(b[3]) + 0.5) * 0x1p-32);
      if (2 * y > x * x) return sign * (kTailStart + x);
    } else {
      const double x = u * t.edge[layer];
      const double f_outer = t.density[layer], f_inner = t.density[layer + 1];
      if (f_outer + uniform * (f_inner - f_outer) < density(x)) return sign * x;
    }
    word = b[0];
  }
}

}  // namespace

const ZigguratTables& ziggurat_tables() {
  static const ZigguratTables t = build_tables();
  return t;
}

void philox_normals(std::uint64_t key, std::uint64_t stream_id, std::uint64_t first, std::size_t n,
                    double* out) {
  const ScaledTables& s = scaled_tables();
  std::uint32_t words[kChunk];
  std::uint16_t rejected[kChunk];  // about 1.5% of the candidates
  for (std::size_t done = 0; done < n; done += kChunk) {
    const std::size_t len = std::min(kChunk, n - done);
    philox_words(key, stream_id, first + done, len, words);
#ifdef DPAUDIT_ZIGGURAT_AVX2
    static const bool avx2 = __builtin_cpu_supports("avx2");
    const std::size_t count = avx2 ? fast_path_avx2(words, len, s, out + done, rejected)
                                   : fast_path(words, len, s, out + done, rejected);
#else
    const std::size_t count = fast_path(words, len, s, out + done, rejected);
#endif
    for (std::size_t r = 0; r < count; ++r) {
      const std::size_t i = rejected[r];
      out[done + i] = slow_path(key, stream_id, first + done + i, words[i]);
    }
  }
}

}  // namespace dpaudit
