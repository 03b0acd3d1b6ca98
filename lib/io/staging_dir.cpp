#include "io/staging_dir.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/error.hpp"
#include "io/atomic_output.hpp"

namespace dpaudit {

namespace fs = std::filesystem;

namespace {

// The folder that becomes `out`: a symlinked --out stays a link, its target gets the files,
// staged beside it (the same file system, so the staging folder can be renamed onto it).
std::string target_of(const std::string& out) {
  fs::path t(out);
  if (t.filename().empty()) t = t.parent_path();  // "run/" -> "run"
  return follow_symlinks(t.string());
}

std::string staging_of(const std::string& target, long pid) {
  return target + ".partial-" + std::to_string(pid);
}

}  // namespace

void discard_staging(const std::string& out, long pid) {
  std::error_code ec;
  fs::remove_all(staging_of(target_of(out), pid), ec);
}

StagingDir::StagingDir(const std::string& out, bool force) : out_(out), force_(force) {
  target_ = target_of(out);
  std::error_code ec;
  const fs::file_status status = fs::status(target_, ec);
  if (fs::exists(status)) {
    if (!fs::is_directory(status)) throw DataError("exists and is not a folder", out_);
    const bool empty = fs::is_empty(target_, ec);
    if (ec) throw DataError("cannot read output folder: " + ec.message(), out_);
    if (!empty && !force)
      throw UsageError(Pattern{"output folder is not empty ({force} replaces it)"}, literal(out_));
  }
  staging_ = staging_of(target_, ::getpid());
  fs::remove_all(staging_, ec);
  remove_on_signal_ = std::make_unique<RemoveOnSignal>(staging_, RemoveOnSignal::Kind::folder);
  fs::create_directories(staging_, ec);
  if (ec) throw DataError("cannot create output folder: " + ec.message(), out_);
}

StagingDir::~StagingDir() {
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(staging_, ec);
}

std::string StagingDir::path(const std::string& file) const {
  return (fs::path(staging_) / file).string();
}

void StagingDir::write(const std::function<void()>& writes) const {
  try {
    writes();
  } catch (const Error& e) {
    // The message is `WHAT (WHERE)` with WHERE a staged path: the user's --out in its place.
    std::string message = e.what();
    const std::string shown =
        (fs::path(out_).filename().empty() ? fs::path(out_).parent_path() : fs::path(out_))
            .string();
    for (std::size_t at; (at = message.find(staging_)) != std::string::npos;)
      message.replace(at, staging_.size(), shown);
    throw Error(message, "", e.kind());
  }
}

void StagingDir::commit() {
  // rename(2) replaces a missing or empty folder; a non-empty one (--force) is swapped
  // with the staging folder in one step, so target is never missing, then removed.
  if (::rename(staging_.c_str(), target_.c_str()) != 0) {
    const int err = errno;
    if (err != ENOTEMPTY && err != EEXIST)
      throw DataError(std::string("cannot move the run into place: ") + std::strerror(err), out_);
    if (!force_)
      throw DataError(Pattern{"output folder is not empty ({force} replaces it)"},
                      literal(out_));  // filled meanwhile
    if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) != 0)
      throw DataError(std::string("cannot replace the output folder: ") + std::strerror(errno),
                      out_);
    std::error_code ec;
    fs::remove_all(staging_, ec);  // the replaced run
  }
  remove_on_signal_.reset();
  committed_ = true;
}

double peak_memory_mb() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::unique_ptr<AtomicOutput> open_timings(const std::string& path) {
  return path.empty() ? nullptr : std::make_unique<AtomicOutput>(path);
}

}  // namespace dpaudit
