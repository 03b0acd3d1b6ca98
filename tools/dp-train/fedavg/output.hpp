// dp-train fedavg's output folder: files are written into a staging folder beside
// --out, which becomes --out only when the whole run succeeded, so a failed run leaves
// no half-written output, and an interrupted run none either. An existing --out is
// never merged into: a non-empty one is refused unless `force`, which replaces it
// whole. No LibTorch here.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

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

// One line of metrics.csv: round,train_loss,update_norm,clip,test_accuracy (empty when
// the round was not evaluated).
struct RoundMetrics {
  std::size_t round = 0;
  double train_loss = 0;
  double update_norm = 0;
  double clip = 0;
  double test_accuracy = -1;  // < 0: not evaluated
};
void write_metrics_csv(const std::string& path, const std::vector<RoundMetrics>& rows);

// Peak resident memory of this process in MiB (getrusage).
double peak_memory_mb();

}  // namespace dpaudit::dp_train
