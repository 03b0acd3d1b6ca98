#include "cli/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace dpaudit::cli {

Progress::Progress(std::string label, std::size_t total, bool quiet)
    : label_(std::move(label)), total_(total), active_(!quiet && total > 0 && ::isatty(2)) {}

Progress::~Progress() {
  if (active_ && last_percent_ >= 0) std::fprintf(stderr, "\n");
}

void Progress::update(std::size_t done) {
  if (!active_) return;
  const int percent = static_cast<int>(100 * done / total_);
  if (percent == last_percent_) return;
  last_percent_ = percent;
  std::fprintf(stderr, "\r%s: %zu/%zu (%d%%)", label_.c_str(), done, total_, percent);
  std::fflush(stderr);
}

}  // namespace dpaudit::cli
