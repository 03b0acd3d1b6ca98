#include "calibration.hpp"

#include "core/error.hpp"

namespace dpaudit::dp_train {

double sigma_for_eps(const std::function<double()>& calibrate) {
  try {
    return calibrate();
  } catch (const UsageError& e) {
    throw UsageError(e.what(), "--eps");
  }
}

}  // namespace dpaudit::dp_train
