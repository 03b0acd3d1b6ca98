#include "adversaries/canife_canary.hpp"

#include "core/names.hpp"

namespace dpaudit {

namespace {

constexpr Named<CanaryLoss> kLosses[] = {{"cov", CanaryLoss::cov}, {"mean", CanaryLoss::mean}};

}  // namespace

CanaryLoss parse_canary_loss(const std::string& name) {
  return parse_named(kLosses, name, "loss", "{loss}");
}
std::string to_string(CanaryLoss loss) {
  return name_of(kLosses, loss);
}

}  // namespace dpaudit
