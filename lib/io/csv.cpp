#include "io/csv.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <iostream>

#include <unistd.h>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/format.hpp"
#include "io/decimal.hpp"

namespace dpaudit {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// The input's lines: `path` "-" or "" is `standard_input`, read a block at a time from
// descriptor 0 when it is std::cin (which nothing reads before: the tools read stdin once,
// through here); a directory or a file that cannot be opened is a DataError naming `source`.
LineReader open_lines(const std::string& path, const std::string& source,
                      std::istream& standard_input) {
  if (path.empty() || path == "-") {
    if (&standard_input == &std::cin) return LineReader(STDIN_FILENO, source);
    return LineReader(standard_input);
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw DataError("is a directory, not a CSV file", source);
  return LineReader(path, source);
}

// Decimal digits from `p` on, appended to `w` (which wraps past 19 digits: the caller counts
// them); returns the end of the digits. Eight at a time where eight are there (the SWAR
// steps of Lemire 2021's fast_float, on one 64-bit word).
const char* add_digits(const char* p, const char* end, std::uint64_t& w) {
  while (end - p >= 8) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);  // little-endian: the first character in the low byte
    const std::uint64_t high = v & 0xF0F0F0F0F0F0F0F0,
                        over = (v + 0x0606060606060606) & 0xF0F0F0F0F0F0F0F0;
    if ((high | (over >> 4)) != 0x3333333333333333) break;  // not eight digits
    v -= 0x3030303030303030;
    v = v * 10 + (v >> 8);  // pairs
    v = (((v & 0x000000FF000000FF) * 0x000F424000000064) +
         (((v >> 16) & 0x000000FF000000FF) * 0x0000271000000001)) >>
        32;
    w = w * 100000000 + static_cast<std::uint32_t>(v);
    p += 8;
  }
  for (; p != end && static_cast<unsigned>(*p - '0') < 10; ++p)
    w = w * 10 + static_cast<unsigned>(*p - '0');
  return p;
}

// The significant digits of [first, last), a run of digits with at most one '.': those
// after the leading zeros.
std::ptrdiff_t significant_digits(const char* first, const char* last) {
  while (first != last && (*first == '0' || *first == '.')) ++first;
  return (last - first) - (std::find(first, last, '.') != last ? 1 : 0);
}

// A decimal exponent's digits ([+-]d, at most 4 digits; more go to from_chars), or nullopt.
std::optional<std::int64_t> exponent_at(const char*& p, const char* end) {
  const bool negative = p != end && *p == '-';
  if (p != end && (*p == '-' || *p == '+')) ++p;
  std::uint64_t e = 0;
  const char* digits = p;
  p = add_digits(p, end, e);
  if (p == digits || p - digits > 4) return std::nullopt;
  return negative ? -static_cast<std::int64_t>(e) : static_cast<std::int64_t>(e);
}

// parse_finite's common case without std::from_chars, with the same result:
// [-]digits[.digits][(e|E)[+-]digits], at most 19 significant digits, a normal double or
// zero, converted by io/decimal's decimal_value. nullopt (anything else, or its rare refusal)
// leaves the text to std::from_chars.
std::optional<double> parse_common(std::string_view s) {
  const char *p = s.data(), *end = p + s.size();
  const bool negative = p != end && *p == '-';
  if (negative) ++p;
  const char* digits = p;
  std::uint64_t w = 0;
  p = add_digits(p, end, w);
  std::int64_t q = 0;
  if (p != end && *p == '.') {
    const char* fraction = ++p;
    p = add_digits(p, end, w);
    q = fraction - p;
    if (p - digits == 1) return std::nullopt;  // "." alone
  }
  if (p == digits || (p - digits > 19 && significant_digits(digits, p) > 19)) return std::nullopt;
  if (p != end && (*p == 'e' || *p == 'E')) {
    const auto e = exponent_at(++p, end);
    if (!e) return std::nullopt;
    q += *e;
  }
  double v = 0;
  if (p != end || !decimal_value(negative, w, q, v)) return std::nullopt;
  return v;
}

}  // namespace

void split_csv_line(std::string_view line, std::vector<std::string_view>& out) {
  out.clear();
  // One pass over the characters (a line of a scores file is ~20 of them; a memchr call per
  // field cost more than the scan); each field emplaced from its parts (push_back's
  // reference made the compiler store the view and load it back, a stall per field).
  const char* const end = line.data() + line.size();
  const char* start = line.data();
  while (true) {
    const char* stop = start;
    while (stop != end && *stop != ',') ++stop;
    const std::string_view field =
        trim(std::string_view(start, static_cast<std::size_t>(stop - start)));
    out.emplace_back(field.data(), field.size());
    if (stop == end) return;
    start = stop + 1;
  }
}

std::optional<double> parse_finite(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (auto v = parse_common(s)) return v;
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty() || !std::isfinite(v))
    return std::nullopt;
  return v;
}

bool is_whole_number(double x, double lowest) {
  return x >= lowest && x <= 9007199254740992.0 /* 2^53 */ && x == std::floor(x);
}

CsvReader::CsvReader(const std::string& path, std::istream& standard_input)
    : source_(path.empty() || path == "-" ? "stdin" : path),
      lines_(open_lines(path, source_, standard_input)) {
  do {
    if (!read_line()) throw DataError("empty input: no header line", source_);
  } while (trim(line_text_).empty());
  // Invisible in the 'missing column' message that would follow.
  if (line_text_.substr(0, 3) == "\xEF\xBB\xBF")
    throw DataError("the header starts with a UTF-8 byte-order mark; save the CSV without it",
                    fmt::format("{}, row {}", source_, line_));
  std::vector<std::string_view> names;
  split_csv_line(line_text_, names);
  for (auto n : names) header_.emplace_back(n);
}

bool CsvReader::read_line() {
  if (!lines_.next(line_text_)) return false;
  ++line_;
  return true;
}

std::optional<std::size_t> CsvReader::find_column(const std::string& name) const {
  std::optional<std::size_t> found;
  for (std::size_t i = 0; i < header_.size(); ++i) {
    if (header_[i] != name) continue;
    // Which of two 'label' columns is meant cannot be guessed.
    if (found)
      throw DataError(
          fmt::format("column {} appears more than once in the header", quote_input(name)),
          source_);
    found = i;
  }
  return found;
}

std::size_t CsvReader::column(const std::string& name) const {
  if (auto c = find_column(name)) return *c;
  throw DataError(fmt::format("missing column '{}' (header: {})", name,
                              cut_input(fmt::format("{}", fmt::join(header_, ",")))),
                  source_);
}

bool CsvReader::next() {
  do {
    if (!read_line()) return false;
  } while (trim(line_text_).empty());
  split_csv_line(line_text_, fields_);
  if (fields_.size() != header_.size())
    throw DataError(fmt::format("row has {} fields, header has {}", fields_.size(), header_.size()),
                    fmt::format("{}, row {}", source_, line_));
  return true;
}

std::string CsvReader::where(std::size_t col) const {
  return fmt::format("{}, row {}, column {}", source_, line_, quote_input(header_[col]));
}

double CsvReader::number(std::size_t col) const {
  if (auto v = parse_finite(fields_[col])) return *v;
  throw DataError(fmt::format("{} is not a finite number", quote_input(fields_[col])), where(col));
}

int CsvReader::label(std::size_t col) const {
  const std::string_view f = fields_[col];
  if (f == "0") return 0;
  if (f == "1") return 1;
  throw DataError(fmt::format("label {} is not 0 or 1", quote_input(f)), where(col));
}

std::uint64_t CsvReader::trial(std::size_t col) const {
  const double t = number(col);
  if (!is_whole_number(t))
    throw DataError(fmt::format("trial {} is not a whole number >= 0", format_number(t)),
                    where(col));
  return static_cast<std::uint64_t>(t);
}

}  // namespace dpaudit
