#include "io/atomic_output.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <random>

#include "core/error.hpp"

namespace dpaudit {

AtomicOutput::AtomicOutput(std::string path, bool binary) : path_(std::move(path)) {
  if (is_stdout()) return;
  std::filesystem::path target(path_);
  std::string dir = target.parent_path().string();
  if (dir.empty()) dir = ".";
  temp_path_ = dir + "/." + target.filename().string() + ".tmp" + std::to_string(::getpid());
  file_.open(temp_path_, binary ? std::ios::out | std::ios::binary | std::ios::trunc
                                : std::ios::out | std::ios::trunc);
  if (!file_) throw DataError("cannot write output file", path_);
}

AtomicOutput::~AtomicOutput() {
  if (!committed_ && !temp_path_.empty()) {
    file_.close();
    std::remove(temp_path_.c_str());
  }
}

std::ostream& AtomicOutput::stream() {
  if (is_stdout()) return buffer_;
  return file_;
}

void AtomicOutput::commit() {
  if (committed_) return;
  if (is_stdout()) {
    const std::string s = buffer_.str();
    std::cout.write(s.data(), static_cast<std::streamsize>(s.size()));
    std::cout.flush();
    if (!std::cout) throw DataError("cannot write to stdout");
  } else {
    file_.flush();
    if (!file_) throw DataError("write failed", path_);
    file_.close();
    if (std::rename(temp_path_.c_str(), path_.c_str()) != 0)
      throw DataError("cannot rename temporary file onto output", path_);
  }
  committed_ = true;
}

void ensure_directory(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    throw DataError("cannot create output folder", dir);
}

}  // namespace dpaudit
