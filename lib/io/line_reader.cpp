#include "io/line_reader.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.hpp"

namespace dpaudit {
namespace {

// A block of 1 MiB: read(2)'s cost per call is amortised, and it stays in the L2 cache.
constexpr std::size_t kBlockBytes = std::size_t{1} << 20;

}  // namespace

LineReader::LineReader(const std::string& path, const std::string& source)
    : source_(source),
      fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)),
      owns_fd_(true),
      block_(kBlockBytes + 2 * kPadding) {
  if (fd_ < 0) throw DataError("cannot open file", source_);
}

LineReader::LineReader(int fd, const std::string& source)
    : source_(source), fd_(fd), block_(kBlockBytes + 2 * kPadding) {}

LineReader::~LineReader() {
  if (owns_fd_ && fd_ >= 0) ::close(fd_);
}

bool LineReader::fill() {
  if (at_end_) return false;
  // The unread part moves to the front; a line longer than the block doubles it.
  std::memmove(block_.data() + kPadding, block_.data() + begin_, end_ - begin_);
  end_ -= begin_ - kPadding;
  scanned_ -= begin_ - kPadding;
  begin_ = kPadding;
  if (end_ == block_.size() - kPadding) block_.resize(2 * block_.size());
  while (true) {
    const ssize_t got = ::read(fd_, block_.data() + end_, block_.size() - kPadding - end_);
    if (got > 0) {
      end_ += static_cast<std::size_t>(got);
      return true;
    }
    if (got == 0) {
      at_end_ = true;
      return false;
    }
    if (errno != EINTR)
      throw DataError(std::string("read error: ") + std::strerror(errno), source_);
  }
}

bool LineReader::next(std::string_view& line) {
  if (in_) {
    if (!std::getline(*in_, text_)) return false;
    line = text_;
    return true;
  }
  while (true) {
    const char* data = block_.data();
    if (const void* nl = std::memchr(data + scanned_, '\n', end_ - scanned_)) {
      const auto at = static_cast<std::size_t>(static_cast<const char*>(nl) - data);
      line = std::string_view(data + begin_, at - begin_);
      begin_ = scanned_ = at + 1;
      return true;
    }
    scanned_ = end_;
    if (!fill()) break;
  }
  if (begin_ == end_) return false;
  line = std::string_view(block_.data() + begin_, end_ - begin_);  // the last, without '\n'
  begin_ = scanned_ = end_;
  return true;
}

std::string_view LineReader::whole_lines() {
  if (in_) return {};
  while (!std::memchr(block_.data() + scanned_, '\n', end_ - scanned_)) {
    scanned_ = end_;
    if (!fill()) return {};
  }
  const char* data = block_.data();
  const char* last = static_cast<const char*>(memrchr(data + begin_, '\n', end_ - begin_));
  return {data + begin_, static_cast<std::size_t>(last + 1 - (data + begin_))};
}

}  // namespace dpaudit
