// What dp-train's subcommands with an output folder share (fedavg, canife): files are
// written into a staging folder beside --out, which becomes --out only when the whole run
// succeeded, so a failed run leaves no half-written output, and an interrupted run none
// either. An existing --out is never merged into: a non-empty one is refused unless
// `force`, which replaces it whole. No LibTorch here.
#pragma once
#include <memory>
#include <string>

#include "io/remove_on_signal.hpp"

namespace dpaudit::dp_train {

class StagingDir {
 public:
  // Creates <target>.partial-<pid>. UsageError when `out` is a non-empty folder and
  // not `force`, DataError when it is not a folder; errors name `out` as given.
  StagingDir(const std::string& out, bool force);
  ~StagingDir();  // removes the staging folder unless committed
  StagingDir(const StagingDir&) = delete;
  StagingDir& operator=(const StagingDir&) = delete;
  std::string path(const std::string& file) const;  // a file inside the staging folder
  void commit();  // the staging folder becomes target (with force: replacing it whole)

 private:
  std::string out_, target_, staging_;
  std::unique_ptr<RemoveOnSignal> remove_on_signal_;  // SIGINT/SIGTERM remove the staging folder
  bool force_;
  bool committed_ = false;
};

// Peak resident memory of this process in MiB (getrusage).
double peak_memory_mb();

}  // namespace dpaudit::dp_train
