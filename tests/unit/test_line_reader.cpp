#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "io/line_reader.hpp"

using namespace dpaudit;

namespace {

std::vector<std::string> all_lines(LineReader& r) {
  std::vector<std::string> lines;
  std::string_view line;
  while (r.next(line)) lines.emplace_back(line);
  return lines;
}

// What std::getline gives for the same text: the reference the file path must match.
std::vector<std::string> getline_lines(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("LineReader: a file's lines are std::getline's, across blocks and past a block") {
  const std::string long_line(3 << 20, 'x');  // 3 MiB: the 1 MiB block doubles twice
  const std::vector<std::string> texts = {
      "",
      "\n",
      "a",
      "a\n",
      "a\nb",
      "label,score\n1,0.5\r\n\n0,-2\n",
      "x\n" + long_line + "\ny",
      std::string(2 << 20, '\n'),  // 2 Mi empty lines
  };
  const std::string path = "test_line_reader.txt";
  for (const std::string& text : texts) {
    { std::ofstream(path, std::ios::binary) << text; }
    LineReader file(path, path);
    const auto lines = all_lines(file);
    CHECK(lines == getline_lines(text));
    std::istringstream in(text);
    LineReader stream(in);
    CHECK(all_lines(stream) == lines);
    // An open descriptor (how stdin is read): the same lines, and it stays open.
    const int fd = ::open(path.c_str(), O_RDONLY);
    REQUIRE(fd >= 0);
    {
      LineReader descriptor(fd, "stdin");
      CHECK(all_lines(descriptor) == lines);
    }
    CHECK(::close(fd) == 0);
  }
  std::remove(path.c_str());
}

TEST_CASE("LineReader: a file that cannot be opened is a DataError naming the source") {
  try {
    LineReader r("no/such/file.csv", "scores.csv");
    FAIL("opened");
  } catch (const DataError& e) {
    CHECK(std::string(e.what()) == "cannot open file (scores.csv)");
  }
}

// The block reader's view (io/label_score_rows): whole lines, each with its '\n', padded
// with readable bytes; skip() takes them; what is left, and the last line without '\n', is
// next()'s.
TEST_CASE("LineReader: whole_lines hands out the whole lines read, then next() reads on") {
  const std::string path = "test_line_reader_whole.txt";
  std::string text;
  for (int i = 0; i < 100000; ++i) text += std::to_string(i) + "\n";  // past one 1 MiB block
  text += "last";
  { std::ofstream(path, std::ios::binary) << text; }
  LineReader r(path, path);
  std::string taken;
  std::string_view line;
  while (true) {
    const std::string_view lines = r.whole_lines();
    if (lines.empty()) break;
    CHECK(lines.back() == '\n');
    volatile char before = *(lines.data() - LineReader::kPadding);  // readable: no fault
    volatile char after = *(lines.data() + lines.size() + LineReader::kPadding - 1);
    (void)before;
    (void)after;
    const std::size_t first = lines.find('\n') + 1;  // one line by skip, one by next()
    taken += lines.substr(0, first);
    r.skip(first);
    if (!r.next(line)) break;
    taken += std::string(line) + "\n";
  }
  while (r.next(line))
    taken += std::string(line) + (taken.size() + line.size() < text.size() ? "\n" : "");
  CHECK(taken == text);
  std::istringstream stream(text);
  CHECK(LineReader(stream).whole_lines().empty());  // a stream: next() alone
  std::remove(path.c_str());
}
