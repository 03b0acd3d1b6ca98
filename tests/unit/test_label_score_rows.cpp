#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "double_bits.hpp"
#include "io/csv.hpp"
#include "io/label_score_rows.hpp"
#include "io/line_reader.hpp"

using namespace dpaudit;

namespace {

// `text` with LineReader's padding before and after it, as the scanner reads it.
struct Padded {
  std::string buffer;
  explicit Padded(const std::string& text)
      : buffer(std::string(LineReader::kPadding, 'x') + text +
               std::string(LineReader::kPadding, 'x')) {}
  std::string_view text() const {
    return std::string_view(buffer).substr(LineReader::kPadding,
                                           buffer.size() - 2 * LineReader::kPadding);
  }
};

struct Scanned {
  RowScan scan;
  std::vector<double> in, out;
};

std::vector<std::uint64_t> bits_of(const std::vector<double>& v) {
  std::vector<std::uint64_t> b;
  for (double x : v) b.push_back(bits(x));
  return b;
}

// The scan with the CPU's best instruction sets, checked against the SSE2 baseline's: the
// same rows and bytes taken, the same bits (where the CPU has AVX-512 VBMI, its path).
Scanned scanned(const std::string& text, bool negate = false, bool cosines = false) {
  const Padded padded(text);
  Scanned s, baseline;
  s.scan = scan_label_score_rows(padded.text(), negate, cosines, s.in, s.out);
  baseline.scan = scan_label_score_rows(padded.text(), negate, cosines, baseline.in, baseline.out,
                                        RowScanIsa::baseline);
  const bool same = s.scan.rows == baseline.scan.rows && s.scan.bytes == baseline.scan.bytes &&
                    bits_of(s.in) == bits_of(baseline.in) &&
                    bits_of(s.out) == bits_of(baseline.out);
  if (!same) FAIL_CHECK("the VBMI scan differs from SSE2's on: " << text);
  return s;
}

}  // namespace

TEST_CASE("label_score_rows: the VBMI path is taken exactly where the CPU has its sets") {
  // Every other test compares the two paths; this one checks that the comparison is not of
  // SSE2 with itself on a CPU that has AVX-512 VBMI (the dispatch, or its build, broken).
#if defined(__x86_64__) && defined(__GNUC__)
  const bool cpu = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                   __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vbmi") &&
                   __builtin_cpu_supports("bmi2");
  CHECK(row_scan_has_vbmi() == cpu);
#else
  CHECK_FALSE(row_scan_has_vbmi());
#endif
  MESSAGE(std::string(row_scan_has_vbmi() ? "AVX-512 VBMI, each scan compared with SSE2's"
                                          : "SSE2 only: the VBMI path is not tested here"));
}

TEST_CASE("label_score_rows: plain rows to their class, in order, with their exact values") {
  const Scanned s = scanned("1,0.5\n0,-1.25\n1,3\n0,.5\n1,5.\n0,-0\n1,0.30000000000000004\n");
  CHECK(s.scan.rows == 7);
  CHECK(s.scan.bytes == 55);
  CHECK(s.in == std::vector<double>{0.5, 3, 5, 0.30000000000000004});
  REQUIRE(s.out.size() == 3);
  CHECK(s.out[0] == -1.25);
  CHECK(s.out[1] == 0.5);
  CHECK((s.out[2] == 0 && std::signbit(s.out[2])));  // "-0" is -0.0, as parse_finite reads it
}

TEST_CASE("label_score_rows: stops before any row it does not take as plain") {
  // Each is left to CsvReader (which accepts some, with the same value, and refuses others
  // with its message): the scan takes the row before it and nothing from it on.
  for (const char* line : {"\n",
                           " 1,0.5",
                           "1, 0.5",
                           "1,0.5 ",
                           "1,0.5\r",
                           "2,0.5",
                           "01,0.5",
                           "1,+0.5",
                           "1,1e5",
                           "1,1E-5",
                           "1,0.5,3",
                           "1,.",
                           "1,-",
                           "1,",
                           "1",
                           "1,-.",
                           "1,nan",
                           "1,inf",
                           "1,1..2",
                           "1,1.2.3",
                           "1,0x1p3",
                           "1,--1",
                           "1,0.0000000000000000001",               // 20 digits
                           "1,12345678901234567.5",                 // 17 before the point
                           "1,1234567890123456789012345678901"}) {  // past 32 bytes
    const Scanned s = scanned(std::string("1,0.25\n") + line + "\n0,0.75\n");
    CHECK_MESSAGE(s.scan.rows == 1, line);
    CHECK_MESSAGE(s.scan.bytes == 7, line);
    CHECK(s.in == std::vector<double>{0.25});
    CHECK(s.out.empty());
  }
}

TEST_CASE("label_score_rows: --negate and the cosine range") {
  const Scanned negated = scanned("1,0.5\n0,-2\n", true);
  CHECK(negated.in == std::vector<double>{-0.5});
  CHECK(negated.out == std::vector<double>{2});
  const Scanned cosines = scanned("1,0.5\n0,-1\n1,1\n0,1.5\n1,0.25\n", false, true);
  CHECK(cosines.scan.rows == 3);  // 1.5 is CsvReader's to refuse
  CHECK(cosines.in == std::vector<double>{0.5, 1});
  CHECK(cosines.out == std::vector<double>{-1});
}

TEST_CASE("label_score_rows: across its 4 KiB chunks, 10,000 rows") {
  std::string text;
  std::vector<double> in, out;
  for (int i = 0; i < 10000; ++i) {
    const double x = (i % 7 - 3) * 0.125 + i;
    text += fmt::format("{},{}\n", i % 3 == 0 ? 1 : 0, x);
    (i % 3 == 0 ? in : out).push_back(x);
  }
  const Scanned s = scanned(text);
  CHECK(s.scan.rows == 10000);
  CHECK(s.scan.bytes == text.size());
  CHECK(s.in == in);
  CHECK(s.out == out);
}

TEST_CASE("label_score_rows: every score it takes is parse_finite's, bit for bit") {
  std::mt19937_64 gen(26);
  std::normal_distribution<double> normal;
  std::size_t taken = 0, plain = 0;
  for (int i = 0; i < 100000; ++i) {
    // Shortest (Python's repr, fmt), 17 significant digits, fixed with 1 to 19 decimals, at
    // scales from 1e-6 to 1e12.
    const double x = normal(gen) * std::pow(10.0, static_cast<int>(gen() % 19) - 6);
    for (const std::string& score : {fmt::format("{}", x), fmt::format("{:.17g}", x),
                                     fmt::format("{:.{}f}", x, 1 + static_cast<int>(gen() % 19))}) {
      const Scanned s = scanned("1," + score + "\n");
      const auto reference = parse_finite(score);
      const std::size_t sign = score[0] == '-' ? 1 : 0, point = score.find('.');
      const std::size_t digits = score.size() - sign - (point == std::string::npos ? 0 : 1),
                        whole = point == std::string::npos ? digits : point - sign;
      const bool is_plain =
          score.find_first_of("eE") == std::string::npos && digits <= 19 && whole <= 16;
      plain += is_plain ? 1 : 0;
      if (s.scan.rows == 0) {
        CHECK_MESSAGE((!is_plain || !reference || *reference == 0 || !std::isnormal(*reference)),
                      "not taken: " << score);
        continue;
      }
      ++taken;
      REQUIRE_MESSAGE(reference, score);
      REQUIRE_MESSAGE(bits(s.in.at(0)) == bits(*reference), score);
    }
  }
  CHECK(taken > 150000);  // most of the 300,000 are plain
  CHECK(taken == plain);  // every plain one but the rare refusal of both fast paths
}
