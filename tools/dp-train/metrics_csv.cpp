#include "metrics_csv.hpp"

#include "core/format.hpp"
#include "io/atomic_output.hpp"

namespace dpaudit::dp_train {

void write_metrics_csv(const std::string& path, const std::vector<RoundMetrics>& rows) {
  AtomicOutput out(path);
  std::ostream& s = out.stream();
  s << "round,train_loss,update_norm,clip,test_accuracy\n";
  for (const auto& r : rows) {
    s << r.round << ',';
    if (r.train_loss >= 0) s << format_number(r.train_loss);
    s << ',' << format_number(r.update_norm) << ',' << format_number(r.clip) << ',';
    if (r.test_accuracy >= 0) s << format_number(r.test_accuracy);
    s << '\n';
  }
  out.commit();
}

}  // namespace dpaudit::dp_train
