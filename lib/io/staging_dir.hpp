// What dp-train's subcommands with an output folder share (fedavg, canife): files are
// written into a staging folder beside --out, which becomes --out only when the whole run
// succeeded, so a failed run leaves no half-written output, and an interrupted run none
// either. An existing --out is never merged into: a non-empty one is refused unless
// `force`, which replaces it whole. No LibTorch here.
#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "io/atomic_output.hpp"
#include "io/remove_on_signal.hpp"

namespace dpaudit {

class StagingDir {
 public:
  // Creates <target>.partial-<pid>. UsageError when `out` is a non-empty folder and
  // not `force`, DataError when it is not a folder; errors name `out` as given.
  StagingDir(const std::string& out, bool force);
  ~StagingDir();  // removes the staging folder unless committed
  StagingDir(const StagingDir&) = delete;
  StagingDir& operator=(const StagingDir&) = delete;
  std::string path(const std::string& file) const;  // a file inside the staging folder
  // Runs `writes` (into path(...)); an error that names a staged file names it inside
  // --out as given instead ("disk full (run/metrics.csv)"), never the staging folder.
  void write(const std::function<void()>& writes) const;
  void commit();  // the staging folder becomes target (with force: replacing it whole)

 private:
  std::string out_, target_, staging_;
  std::unique_ptr<RemoveOnSignal> remove_on_signal_;  // SIGINT/SIGTERM remove the staging folder
  bool force_;
  bool committed_ = false;
};

// Removes the staging folder of `out` that process `pid` left: one killed by a signal that
// runs no handler (SIGKILL) cannot remove its own.
void discard_staging(const std::string& out, long pid);

// Peak resident memory of this process in MiB (getrusage).
double peak_memory_mb();

double seconds_since(std::chrono::steady_clock::time_point start);

// --timings FILE: the run's wall time and peak memory, which differ from run to run and
// so stay out of --out (byte-identical for the same --seed). Opened before the run, so a
// FILE that cannot be written fails first; nullptr when `path` is empty.
std::unique_ptr<AtomicOutput> open_timings(const std::string& path);

}  // namespace dpaudit
