// Output that appears whole or not at all, and never replaces what a path points to.
//   "-" (or ""): stdout; writes are held in memory and printed on commit().
//   a regular file, or a path that does not exist yet: writes go to a temporary file
//     `.NAME.tmpPID` in the same folder, renamed over the path on commit(); a replaced
//     file keeps its permission bits. A symbolic link is followed first: the rename
//     happens beside the link's final target, which gets the content; the link stays.
//   anything else (a character device such as /dev/null, a FIFO, /dev/stdout or another
//     open file of /proc/self/fd): opened as it is, for appending, never truncated or
//     replaced; writes are held in memory and written on commit(), as for stdout.
//   a directory: a DataError naming it.
// Without commit() nothing is left, and SIGINT/SIGTERM/SIGHUP remove the temporary file
// too (io/remove_on_signal.hpp). Errors name the path as given; ENOSPC reads
// "disk full (PATH)".
// Holding::stream writes stdout and devices through as the data comes instead of
// holding it (an output too large for memory: canary-gen --npy); a file still appears
// whole. Only for output whose every check is done before the first byte: a write
// error still fails commit(), but what was written is out.
#pragma once
#include <memory>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>

#include "io/remove_on_signal.hpp"

namespace dpaudit {

class AtomicOutput {
 public:
  enum class Holding { whole, stream };
  explicit AtomicOutput(std::string path, Holding holding = Holding::whole);
  ~AtomicOutput();
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  std::ostream& stream();
  void commit();
  bool is_stdout() const { return path_ == "-" || path_.empty(); }
  // Streamed stdout or device whose reader has gone: a write failed with EPIPE (when
  // SIGPIPE is ignored; otherwise the signal ends the process first).
  bool reader_closed() const;

 private:
  void write_through(int fd);  // stream() writes to fd as the data comes
  std::string path_;           // as given: errors name it
  std::string target_;         // temporary-file mode: the file renamed over (links followed)
  std::string temp_path_;      // temporary-file mode: the file written
  int fd_ = -1;                // the temporary file, or the device written directly
  std::unique_ptr<std::streambuf>
      file_buffer_;  // writes through (temporary file, or streamed stdout/device)
  std::ostream file_{nullptr};
  std::ostringstream held_;  // stdout and devices: everything, until commit()
  std::unique_ptr<RemoveOnSignal> remove_on_signal_;
  bool committed_ = false;
};

// Writes `text` to `path` ("-": stdout) through an AtomicOutput and commits it: whole,
// or a DataError ("cannot write to stdout", "disk full (PATH)").
void write_whole(const std::string& path, const std::string& text);

// `path` with the symbolic links at its end followed to their final target, which may
// not exist yet; `path` itself when it is not a link. DataError for more than 40 links.
std::string follow_symlinks(const std::string& path);

}  // namespace dpaudit
