// What every harness shares: the fuzzer's bytes as a file the readers can open (an
// in-memory file, /proc/self/fd/N, so the NPY reader's size checks see its real size),
// and the rule that a reader may throw only dpaudit's errors.
#pragma once
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <streambuf>
#include <string>

namespace dpaudit::fuzz {

class InputFile {
 public:
  InputFile(const std::uint8_t* data, std::size_t size) : fd_(::memfd_create("fuzz-input", 0)) {
    if (fd_ < 0 || ::write(fd_, data, size) != static_cast<ssize_t>(size)) std::abort();
  }
  ~InputFile() { ::close(fd_); }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  int fd_;
};

// Sends std::cout and std::cerr nowhere (the tools' output and error lines are not what
// a harness checks) and clears a failed std::cout, before each input.
inline void silence_standard_streams() {
  class Discard : public std::streambuf {
   protected:
    int_type overflow(int_type c) override { return traits_type::not_eof(c); }
    std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
  };
  static Discard discard;
  std::cout.rdbuf(&discard);
  std::cerr.rdbuf(&discard);
  std::cout.clear();
}

}  // namespace dpaudit::fuzz
