// Progress on stderr for long work, only when stderr is a terminal and not --quiet.
#pragma once
#include <cstddef>
#include <string>

namespace dpaudit::cli {

class Progress {
 public:
  Progress(std::string label, std::size_t total, bool quiet);
  ~Progress();
  void update(std::size_t done);

 private:
  std::string label_;
  std::size_t total_;
  bool active_;
  int last_percent_ = -1;
};

}  // namespace dpaudit::cli
