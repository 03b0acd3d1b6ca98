// The lines of a file or a stream, for the CSV reader. A file opened by path, or a descriptor
// (standard input), is read with read(2) a block at a time (on a pipe, what has arrived: a
// line is seen as soon as it is complete, so a reader of a trainer that is still writing
// keeps up with it); a stream (a caller's string stream) line by line with std::getline. Either way
// a line ends at '\n', which the line leaves out, and the last line needs none.
#pragma once
#include <algorithm>
#include <cstddef>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace dpaudit {

class LineReader {
 public:
  // Opens `path`; DataError "cannot open file" naming `source` when it cannot.
  LineReader(const std::string& path, const std::string& source);
  // Reads the open descriptor `fd` (not closed here), named `source` in errors.
  LineReader(int fd, const std::string& source);
  explicit LineReader(std::istream& in) : in_(&in) {}
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line, valid until the next call; false at the end of the input. A read error
  // of the file is a DataError naming `source`.
  bool next(std::string_view& line);

  // For a reader that splits lines faster itself (io/label_score_rows): the whole lines of a
  // file that are read and not yet taken, each with its '\n', reading more when none is
  // (on a pipe, waiting only for one line to complete); empty at the end of the file, for a
  // stream, or when only the last line, without '\n', is left (next() then gives it).
  // kPadding readable bytes lie before and after it. Valid until the next call of either.
  std::string_view whole_lines();
  // Takes the first `bytes` of whole_lines() as read (whole lines).
  void skip(std::size_t bytes) {
    begin_ += bytes;
    scanned_ = std::max(scanned_, begin_);
  }
  static constexpr std::size_t kPadding = 64;

 private:
  bool fill();  // reads more of the file behind the unread part; false at its end
  std::string source_;
  int fd_ = -1;
  bool owns_fd_ = false;
  std::istream* in_ = nullptr;
  std::string text_;  // the stream's current line
  // The file's unread bytes are [begin_, end_), kPadding bytes after the block's start and
  // before its end.
  std::vector<char> block_;
  std::size_t begin_ = kPadding, end_ = kPadding,
              scanned_ = kPadding;  // [begin_, scanned_): no '\n'
  bool at_end_ = false;
};

}  // namespace dpaudit
