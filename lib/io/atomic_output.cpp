#include "io/atomic_output.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <vector>

#include "core/error.hpp"

namespace dpaudit {
namespace {

namespace fs = std::filesystem;

// The error of a failed system call on `path`, in the project's words.
DataError system_error(const std::string& what, int err, const std::string& path) {
  if (err == ENOSPC) return DataError("disk full", path);
  std::string reason = std::strerror(err);
  if (!reason.empty())
    reason[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(reason[0])));
  return DataError(what + ": " + reason, path);
}

// Writes all of data to fd; 0 or the errno of the failed write.
int write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return 0;
}

// A stream buffer writing through to a file descriptor that keeps the errno of the
// first failed write (std::ofstream only sets failbit, so "disk full" would be lost).
class FdBuffer : public std::streambuf {
 public:
  explicit FdBuffer(int fd) : fd_(fd), buffer_(1 << 16) { reset(); }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (sync() != 0) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (n < static_cast<std::streamsize>(buffer_.size())) return std::streambuf::xsputn(s, n);
    if (sync() != 0) return 0;  // a large block (an NPY body) skips the copy
    error_ = write_all(fd_, s, static_cast<std::size_t>(n));
    return error_ ? 0 : n;
  }
  int sync() override {
    if (error_ == 0) error_ = write_all(fd_, pbase(), static_cast<std::size_t>(pptr() - pbase()));
    reset();
    return error_ ? -1 : 0;
  }

 private:
  void reset() { setp(buffer_.data(), buffer_.data() + buffer_.size()); }
  int fd_;
  std::vector<char> buffer_;
  int error_ = 0;
};

// Whether the folder holding `link` is on procfs: its links (/proc/self/fd/1, behind
// /dev/stdout and /dev/fd/N) are open files of a process, to be written as they are.
bool on_procfs(const fs::path& link) {
  const fs::path dir = link.has_parent_path() ? link.parent_path() : fs::path(".");
  struct statfs info {};
  return ::statfs(dir.c_str(), &info) == 0 && info.f_type == PROC_SUPER_MAGIC;
}

// Follows the links at the end of `path`; sets *via_procfs when one is a procfs link.
fs::path resolve(const std::string& path, bool* via_procfs) {
  fs::path p(path);
  for (int links = 0;; ++links) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    if (links == 40) throw DataError("too many levels of symbolic links", path);
    if (via_procfs && on_procfs(p)) *via_procfs = true;
    std::error_code ec;
    const fs::path to = fs::read_symlink(p, ec);
    if (ec) throw system_error("cannot read symbolic link", ec.value(), path);
    p = to.is_absolute() ? to : p.parent_path() / to;
  }
}

}  // namespace

std::string follow_symlinks(const std::string& path) {
  return resolve(path, nullptr).string();
}

AtomicOutput::AtomicOutput(std::string path, Holding holding) : path_(std::move(path)) {
  const bool stream = holding == Holding::stream;
  if (is_stdout()) {
    if (stream) write_through(STDOUT_FILENO);
    return;
  }
  bool via_procfs = false;
  const fs::path target = resolve(path_, &via_procfs);
  struct stat st {};
  const bool exists = ::stat(path_.c_str(), &st) == 0;
  if (!exists && errno != ENOENT) throw system_error("cannot write output file", errno, path_);
  if (exists && S_ISDIR(st.st_mode)) throw DataError("is a directory, not an output file", path_);
  if (via_procfs || (exists && !S_ISREG(st.st_mode))) {
    // Opened now, so a device that cannot be written fails before the work starts.
    fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
    if (fd_ < 0) throw system_error("cannot write output file", errno, path_);
    if (stream) write_through(fd_);
    return;
  }
  target_ = target.string();
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  temp_path_ =
      (dir / ("." + target.filename().string() + ".tmp" + std::to_string(::getpid()))).string();
  remove_on_signal_ = std::make_unique<RemoveOnSignal>(temp_path_, RemoveOnSignal::Kind::file);
  ::unlink(temp_path_.c_str());  // a stale one of an earlier process with this pid
  fd_ = ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd_ < 0) throw system_error("cannot write output file", errno, path_);
  if (exists && ::fchmod(fd_, st.st_mode & 07777) != 0) {
    const int err = errno;
    // A throwing constructor runs no destructor: the temporary file goes here.
    ::close(fd_);
    ::unlink(temp_path_.c_str());
    throw system_error("cannot keep the permissions of", err, path_);
  }
  write_through(fd_);
}

void AtomicOutput::write_through(int fd) {
  file_buffer_ = std::make_unique<FdBuffer>(fd);
  file_.rdbuf(file_buffer_.get());
}

AtomicOutput::~AtomicOutput() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_path_.empty()) ::unlink(temp_path_.c_str());
}

std::ostream& AtomicOutput::stream() {
  return file_buffer_ ? file_ : held_;
}

bool AtomicOutput::reader_closed() const {
  return file_buffer_ && temp_path_.empty() &&
         static_cast<const FdBuffer&>(*file_buffer_).error() == EPIPE;
}

void AtomicOutput::commit() {
  if (committed_) return;
  if (file_buffer_ && temp_path_.empty()) {  // stdout or a device, streamed
    file_.flush();
    const int err = static_cast<const FdBuffer&>(*file_buffer_).error();
    if (err || !file_) {
      if (is_stdout()) throw DataError("cannot write to stdout");
      throw system_error("cannot write output", err ? err : EIO, path_);
    }
  } else if (is_stdout()) {
    const std::string s = held_.str();
    std::cout.write(s.data(), static_cast<std::streamsize>(s.size()));
    std::cout.flush();
    if (!std::cout) throw DataError("cannot write to stdout");
  } else if (temp_path_.empty()) {
    const std::string s = held_.str();
    if (const int err = write_all(fd_, s.data(), s.size()))
      throw system_error("cannot write output", err, path_);
  } else {
    file_.flush();
    const int err = static_cast<const FdBuffer&>(*file_buffer_).error();
    if (err || !file_) throw system_error("cannot write output", err ? err : EIO, path_);
    const int closed = ::close(fd_);
    fd_ = -1;
    if (closed != 0) throw system_error("cannot write output", errno, path_);
    if (::rename(temp_path_.c_str(), target_.c_str()) != 0)
      throw system_error("cannot rename the temporary file onto the output", errno, path_);
    remove_on_signal_.reset();  // after the rename: a signal in between finds nothing to remove
  }
  committed_ = true;
}

void write_whole(const std::string& path, const std::string& text) {
  AtomicOutput out(path);
  out.stream() << text;
  out.commit();
}

}  // namespace dpaudit
