// dp-train's metrics.csv, a row per round (fedavg's and canife's; the output folder itself is
// staging_dir.hpp's).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace dpaudit::dp_train {

// One line of metrics.csv: round,train_loss,update_norm,clip,test_accuracy (empty when
// the round was not evaluated).
struct RoundMetrics {
  std::size_t round = 0;
  double train_loss = -1;  // < 0: not computed (canife's sample level)
  double update_norm = 0;
  double clip = 0;
  double test_accuracy = -1;  // < 0: not evaluated
};
void write_metrics_csv(const std::string& path, const std::vector<RoundMetrics>& rows);

}  // namespace dpaudit::dp_train
