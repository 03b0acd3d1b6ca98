// CSV with a header line. Columns are found by name, not position; every error
// names the file, the row (line number) and the column.
#pragma once
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/line_reader.hpp"

namespace dpaudit {

class CsvReader {
 public:
  // `path` "-" or "" reads `standard_input` (named stdin in errors). Throws DataError for a
  // missing file or an empty input.
  explicit CsvReader(const std::string& path, std::istream& standard_input = std::cin);

  const std::vector<std::string>& header() const { return header_; }
  // A name that appears twice in the header is a DataError.
  std::optional<std::size_t> find_column(const std::string& name) const;
  // Like find_column, but a missing column is a DataError naming it and the file.
  std::size_t column(const std::string& name) const;

  // Advances to the next non-blank data row; false at the end. A row with the wrong
  // number of fields is a DataError.
  bool next();
  std::string_view field(std::size_t col) const { return fields_[col]; }
  // The field parsed as a finite double; text or NaN/Inf is a DataError.
  double number(std::size_t col) const;
  // The field as a 0/1 label.
  int label(std::size_t col) const;
  // The field as a trial id, a whole number >= 0; otherwise a DataError "trial X is not a
  // whole number >= 0" naming the row and column.
  std::uint64_t trial(std::size_t col) const;
  std::size_t line() const { return line_; }
  // For a reader that parses rows faster itself (io/label_score_rows): the whole lines after
  // the current row that are read and not yet taken (LineReader::whole_lines: empty for
  // stdin or a stream), and skip_lines to take the first `bytes` of them, `lines` lines,
  // as read; next() then reads on after them.
  std::string_view whole_lines() { return lines_.whole_lines(); }
  void skip_lines(std::size_t bytes, std::size_t lines) {
    lines_.skip(bytes);
    line_ += lines;
  }
  const std::string& source() const { return source_; }
  std::string where(std::size_t col) const;

 private:
  bool read_line();
  std::string source_;
  LineReader lines_;
  std::string_view line_text_;
  std::vector<std::string> header_;
  std::vector<std::string_view> fields_;
  std::size_t line_ = 0;
};

// Splits one line on commas, trimming spaces and a trailing '\r'.
void split_csv_line(std::string_view line, std::vector<std::string_view>& out);

// Parses a whole string as a finite double; nullopt for anything else.
std::optional<double> parse_finite(std::string_view s);

// Whether a number read as a double is a whole number in [lowest, 2^53]: up to 2^53 every
// whole number is exact, so it converts to an integer count, id or dimension unchanged.
bool is_whole_number(double x, double lowest = 0);

}  // namespace dpaudit
