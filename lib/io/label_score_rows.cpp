#include "io/label_score_rows.hpp"

#include <emmintrin.h>

#include <algorithm>
#include <cstdint>

#include "core/x86_simd.hpp"
#include "io/decimal.hpp"

namespace dpaudit {
namespace {

constexpr std::size_t kChunk = 4096;  // the newlines of a chunk fit in 16-bit offsets

__m128i load16(const char* p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}

std::uint32_t equal_mask(__m128i v, char c) {
  return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c))));
}

std::uint32_t digit_mask(__m128i v) {
  const __m128i x = _mm_sub_epi8(v, _mm_set1_epi8('0'));
  return static_cast<std::uint32_t>(
      _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(9)), x)));
}

// The offsets of the '\n' in [p, p + n), n <= kChunk, into `at` (which has room for 4 more
// than n: each 64 bytes write 4 whether or not they hold as many); reads up to 63 bytes
// past p + n. Returns their number.
std::size_t newlines(const char* p, std::size_t n, std::uint16_t* at) {
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; i += 64) {
    std::uint64_t m = 0;
    for (std::size_t j = 0; j < 4; ++j)
      m |= std::uint64_t{equal_mask(load16(p + i + 16 * j), '\n')} << (16 * j);
    if (n - i < 64) m &= (std::uint64_t{1} << (n - i)) - 1;
    // Four offsets whether or not there are as many (no branch on the usual count), then
    // the rest; popcount is a library call on the x86-64 baseline.
    std::uint16_t* o = at + k;
    for (int j = 0; j < 4; ++j) {
      o[j] = static_cast<std::uint16_t>(
          i + static_cast<std::size_t>(__builtin_ctzll(m | (1ULL << 63))));
      k += m != 0 ? 1 : 0;
      m &= m - 1;
    }
    for (; m != 0; m &= m - 1)
      at[k++] = static_cast<std::uint16_t>(i + static_cast<std::size_t>(__builtin_ctzll(m)));
  }
  return k;
}

// The whole number of the `len` <= 16 decimal digits that end at `end` (the 16 bytes before
// it are readable; those before the digits are ignored): pairs, then fours, then eights by
// multiply-adds in 16-bit lanes.
std::uint64_t digits_before(const char* end, unsigned len) {
  const __m128i index = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m128i keep =
      _mm_cmpgt_epi8(index, _mm_set1_epi8(static_cast<char>(15 - static_cast<int>(len))));
  const __m128i x = _mm_and_si128(_mm_subs_epu8(load16(end - 16), _mm_set1_epi8('0')), keep);
  const __m128i zero = _mm_setzero_si128(), tens = _mm_setr_epi16(10, 1, 10, 1, 10, 1, 10, 1);
  const __m128i pairs = _mm_packs_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(x, zero), tens),
                                        _mm_madd_epi16(_mm_unpackhi_epi8(x, zero), tens));
  const __m128i fours = _mm_madd_epi16(pairs, _mm_setr_epi16(100, 1, 100, 1, 100, 1, 100, 1));
  const __m128i eights = _mm_madd_epi16(_mm_packs_epi32(fours, fours),
                                        _mm_setr_epi16(10000, 1, 10000, 1, 10000, 1, 10000, 1));
  const auto high = static_cast<std::uint32_t>(_mm_cvtsi128_si32(eights));
  const auto low = static_cast<std::uint32_t>(_mm_cvtsi128_si32(_mm_srli_si128(eights, 4)));
  return std::uint64_t{high} * 100000000 + low;
}

// The score field of a row: its sign, and its text [s, s + length) after the sign.
struct ScoreField {
  bool negative;
  const char* s;
  unsigned length;
};

// The score field of the row [row, newline) when the row starts `0,` or `1,` and the field
// fits in 32 bytes after its sign; else false.
inline bool score_field(const char* row, const char* newline, ScoreField& f) {
  if ((row[0] != '0' && row[0] != '1') || row[1] != ',') return false;
  f.negative = row[2] == '-';
  f.s = row + 2 + (f.negative ? 1 : 0);
  if (newline < f.s || newline - f.s > 31) return false;
  f.length = static_cast<unsigned>(newline - f.s);
  return true;
}

// The score of the row [row, newline) when it is `[01],[-]digits[.digits]` within 32 bytes
// of its sign, with at most 16 digits before the point and 19 in all, and decimal_value
// rounds it (into `value`); else false.
bool plain_score(const char* row, const char* newline, double& value) {
  ScoreField f;
  if (!score_field(row, newline, f)) return false;
  const char* s = f.s;
  const __m128i a = load16(s), b = load16(s + 16);
  const std::uint32_t digits = digit_mask(a) | digit_mask(b) << 16,
                      points = equal_mask(a, '.') | equal_mask(b, '.') << 16,
                      field = (1U << f.length) - 1, point = points & field;
  if (((digits | points) & field) != field || (point & (point - 1)) != 0) return false;
  const unsigned whole = point ? static_cast<unsigned>(__builtin_ctz(point)) : f.length,
                 fraction = point ? f.length - whole - 1 : 0;
  if (whole + fraction == 0 || whole > 16 || whole + fraction > 19) return false;
  // The fraction's last 16 digits and the up to 3 before them, both always (no branch).
  const unsigned low = std::min(fraction, 16U);
  const std::uint64_t after_point =
      digits_before(newline - 16, fraction - low) * power_of_ten(16) + digits_before(newline, low);
  const std::uint64_t w = digits_before(s + whole, whole) * power_of_ten(fraction) + after_point;
  return decimal_value(f.negative, w, -static_cast<std::int64_t>(fraction), value);
}

#if defined(DPAUDIT_X86_SIMD) && !defined(DPAUDIT_SIMD_EMULATED)
#define DPAUDIT_VBMI_ISA "avx512f,avx512bw,avx512vl,avx512vbmi,bmi2"

// plain_score with AVX-512 VBMI (Ice Lake and later, Zen 4): the field's 32 bytes checked in
// one register, and its digits, the point skipped, moved right-aligned into another by one
// byte permutation (vpermb), then converted together: pairs, fours, eights in 16- and 32-bit
// lanes, the three low eights combined (at most 19 digits: the highest eight is 0). The same
// rows, w and q as plain_score, so the same doubles.
DPAUDIT_TARGET(DPAUDIT_VBMI_ISA)
bool plain_score_vbmi(const char* row, const char* newline, double& value) {
  ScoreField f;
  if (!score_field(row, newline, f)) return false;
  const unsigned length = f.length;
  const __m256i text = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(f.s));
  const __m256i digit = _mm256_sub_epi8(text, _mm256_set1_epi8('0'));
  const std::uint32_t digits = _mm256_cmple_epu8_mask(digit, _mm256_set1_epi8(9)),
                      points = _mm256_cmpeq_epi8_mask(text, _mm256_set1_epi8('.')),
                      field = _bzhi_u32(~0U, length), point = points & field;
  if (((digits | points) & field) != field || (point & (point - 1)) != 0) return false;
  const unsigned whole = point ? static_cast<unsigned>(__builtin_ctz(point)) : length,
                 fraction = point ? length - whole - 1 : 0, total = whole + fraction;
  if (total == 0 || whole > 16 || total > 19) return false;
  // Byte j of the result takes the (31 - j)-th digit from the right: field byte
  // length - 1 - (31 - j), one further left for the digits before the point.
  const __m256i from_right =
      _mm256_setr_epi8(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13,
                       12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const __m256i at = _mm256_sub_epi8(_mm256_set1_epi8(static_cast<char>(length - 1)), from_right);
  const __mmask32 before_point = point ? _bzhi_u32(~0U, 32 - fraction) : 0,
                  used = ~_bzhi_u32(~0U, 32 - total);  // the top `total` bytes
  const __m256i index = _mm256_mask_sub_epi8(at, before_point, at, _mm256_set1_epi8(1));
  const __m256i x = _mm256_maskz_permutexvar_epi8(used, index, digit);
  const __m256i pairs = _mm256_maddubs_epi16(x, _mm256_set1_epi16(0x010A));       // 10, 1
  const __m256i fours = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x00010064));  // 100, 1
  // per 128-bit lane: its two eights (packus keeps the lanes apart)
  const __m256i eights =
      _mm256_madd_epi16(_mm256_packus_epi32(fours, fours), _mm256_set1_epi32(0x00012710));
  const __m128i upper = _mm256_extracti128_si256(eights, 1);
  const auto high = static_cast<std::uint32_t>(_mm256_extract_epi32(eights, 1)),
             middle = static_cast<std::uint32_t>(_mm_cvtsi128_si32(upper)),
             low = static_cast<std::uint32_t>(_mm_extract_epi32(upper, 1));
  const std::uint64_t w = (std::uint64_t{high} * 100000000 + middle) * 100000000 + low;
  return decimal_value(f.negative, w, -static_cast<std::int64_t>(fraction), value);
}
#endif

// The scan with the row parser Parse (plain_score or plain_score_vbmi), inlined into each
// caller so that it is compiled for the caller's instruction sets.
template <bool (*Parse)(const char*, const char*, double&)>
__attribute__((always_inline)) inline RowScan scan_rows(std::string_view text, bool negate,
                                                        bool cosines, std::vector<double>& in,
                                                        std::vector<double>& out) {
  RowScan scan;
  std::uint16_t at[kChunk + 4];
  while (scan.bytes < text.size()) {
    const char* chunk = text.data() + scan.bytes;
    const std::size_t k = newlines(chunk, std::min(kChunk, text.size() - scan.bytes), at);
    if (k == 0) return scan;  // a line of 4 KiB or more
    // Room for every row in either class; the counts are set right below.
    const std::size_t n_in = in.size(), n_out = out.size();
    in.resize(n_in + k);
    out.resize(n_out + k);
    double* to[2] = {out.data() + n_out, in.data() + n_in};
    const char* row = chunk;
    std::size_t taken = 0;
    for (; taken < k; ++taken) {
      const char* newline = chunk + at[taken];
      double v = 0;
      if (!Parse(row, newline, v) || (cosines && !(v >= -1 && v <= 1))) break;
      const int label = row[0] - '0';
      *to[label]++ = negate ? -v : v;
      row = newline + 1;
    }
    in.resize(static_cast<std::size_t>(to[1] - in.data()));
    out.resize(static_cast<std::size_t>(to[0] - out.data()));
    scan.bytes += static_cast<std::size_t>(row - chunk);
    scan.rows += taken;
    if (taken < k) return scan;
  }
  return scan;
}

RowScan scan_baseline(std::string_view text, bool negate, bool cosines, std::vector<double>& in,
                      std::vector<double>& out) {
  return scan_rows<plain_score>(text, negate, cosines, in, out);
}

#ifdef DPAUDIT_VBMI_ISA
DPAUDIT_TARGET(DPAUDIT_VBMI_ISA)
RowScan scan_vbmi(std::string_view text, bool negate, bool cosines, std::vector<double>& in,
                  std::vector<double>& out) {
  return scan_rows<plain_score_vbmi>(text, negate, cosines, in, out);
}

bool cpu_has_vbmi() {
  static const bool has = DPAUDIT_CPU_SUPPORTS("avx512f") && DPAUDIT_CPU_SUPPORTS("avx512bw") &&
                          DPAUDIT_CPU_SUPPORTS("avx512vl") && DPAUDIT_CPU_SUPPORTS("avx512vbmi") &&
                          DPAUDIT_CPU_SUPPORTS("bmi2");
  return has;
}
#endif

}  // namespace

bool row_scan_has_vbmi() {
#ifdef DPAUDIT_VBMI_ISA
  return cpu_has_vbmi();
#else
  return false;
#endif
}

RowScan scan_label_score_rows(std::string_view text, bool negate, bool cosines,
                              std::vector<double>& in, std::vector<double>& out, RowScanIsa isa) {
#ifdef DPAUDIT_VBMI_ISA
  if (isa == RowScanIsa::best && cpu_has_vbmi()) return scan_vbmi(text, negate, cosines, in, out);
#else
  (void)isa;
#endif
  return scan_baseline(text, negate, cosines, in, out);
}

}  // namespace dpaudit

#undef DPAUDIT_VBMI_ISA
