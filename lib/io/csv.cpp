#include "io/csv.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/format.hpp"

namespace dpaudit {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

}  // namespace

void split_csv_line(std::string_view line, std::vector<std::string_view>& out) {
  out.clear();
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    if (comma == std::string_view::npos) {
      out.push_back(trim(line.substr(start)));
      return;
    }
    out.push_back(trim(line.substr(start, comma - start)));
    start = comma + 1;
  }
}

std::optional<double> parse_finite(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
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
    : source_(path.empty() || path == "-" ? "stdin" : path) {
  if (path.empty() || path == "-") {
    in_ = &standard_input;
  } else {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
      throw DataError("is a directory, not a CSV file", source_);
    file_.open(path);
    if (!file_) throw DataError("cannot open file", source_);
    in_ = &file_;
  }
  do {
    if (!read_line()) throw DataError("empty input: no header line", source_);
  } while (trim(line_text_).empty());
  // Invisible in the 'missing column' message that would follow.
  if (line_text_.rfind("\xEF\xBB\xBF", 0) == 0)
    throw DataError("the header starts with a UTF-8 byte-order mark; save the CSV without it",
                    fmt::format("{}, row {}", source_, line_));
  std::vector<std::string_view> names;
  split_csv_line(line_text_, names);
  for (auto n : names) header_.emplace_back(n);
}

bool CsvReader::read_line() {
  if (!std::getline(*in_, line_text_)) return false;
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
