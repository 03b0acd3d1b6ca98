// The rows of a scores CSV whose header is `label,score` (eps-from-scores' common input,
// 10^7 rows a run), parsed a block at a time without CsvReader's fields: the newlines of
// 4 KiB found 64 bytes at a time, then each row's digits converted in SIMD lanes (with
// AVX-512 VBMI where the CPU has it: all of a row's digits at once; else 16 at a time with
// SSE2, the x86-64 baseline) and the decimal rounded by io/decimal. Rows it cannot take as
// plain are left to CsvReader, which reads them with its checks and messages.
#pragma once
#include <cstddef>
#include <string_view>
#include <vector>

namespace dpaudit {

struct RowScan {
  std::size_t bytes = 0;  // taken from the front of the text
  std::size_t rows = 0;   // lines taken (each ends in '\n')
};

// Reads rows `L,S\n` from the front of `text`, whole lines with LineReader::kPadding readable
// bytes before and after them: L is 0 or 1 and S a plain decimal, [-]digits[.digits] with
// at least one digit and at most 19 in all, whose value is zero or a normal double (and lies
// in [-1, 1] with `cosines`). S, negated with `negate`, goes to `in` (L = 1) or `out` (L = 0).
// Stops before the first line that is not such a row (a blank line, spaces, a '\r', an
// exponent, a '+', a label or score to refuse, ...): the caller's CsvReader reads it next.
// A score's value is parse_finite's (io/csv.hpp) for the same text, bit for bit.
// Both instruction sets take the same rows and give the same bits; `baseline` holds the scan
// to SSE2 (for the tests that compare the two).
enum class RowScanIsa { best, baseline };
RowScan scan_label_score_rows(std::string_view text, bool negate, bool cosines,
                              std::vector<double>& in, std::vector<double>& out,
                              RowScanIsa isa = RowScanIsa::best);
// Whether RowScanIsa::best takes the AVX-512 VBMI path on this CPU.
bool row_scan_has_vbmi();

}  // namespace dpaudit
