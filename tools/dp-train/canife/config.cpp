#include "canife/config.hpp"

#include <cmath>

#include "core/error.hpp"

namespace dpaudit::dp_train {

CanaryInit parse_canary_init(const std::string& name) {
  if (name == "random") return CanaryInit::random;
  if (name == "sample") return CanaryInit::sample;
  throw UsageError("unknown init '" + name + "' (random or sample)", "--init");
}

std::size_t CanifeConfig::total_rounds() const {
  return rounds ? rounds : static_cast<std::size_t>(std::ceil(1 / q - 1e-9));
}

void CanifeConfig::validate() const {
  if (model != "mlp" && model != "logreg")
    throw UsageError("canife crafts through dense models only: mlp or logreg", "--model");
  if (!(q > 0 && q <= 1)) throw UsageError("the sampling rate q must lie in (0, 1]", "--q");
  if (audit_every == 0 || audit_every >= total_rounds())
    throw UsageError("the audit period " + std::to_string(audit_every) + " must lie in [1, " +
                         std::to_string(total_rounds()) + "), the run's rounds",
                     "--audit-every");
  if (audit_rounds < 2) throw UsageError("an audit needs n >= 2 mock rounds", "--audit-rounds");
  if (design_pool == 0) throw UsageError("the design pool is empty", "--design-pool");
  if (craft.steps == 0) throw UsageError("crafting needs at least one design step", "--design-steps");
  if (out.empty()) throw UsageError("give the output folder", "--out");
}

Json CanifeConfig::to_json() const {
  return {{"task", task},
          {"model", model},
          {"hidden", hidden},
          {"level", "sample"},
          {"q", json_number(q)},
          {"rounds", total_rounds()},
          {"lr", json_number(lr)},
          {"clip", json_number(clip)},
          {"delta", json_number(delta)},
          {"audit_every", audit_every},
          {"audit_rounds", audit_rounds},
          {"design_pool", design_pool},
          {"design_steps", craft.steps},
          {"design_lr", json_number(craft.lr)},
          {"design_minibatch", craft.minibatch},
          {"loss", craft.loss == CanaryLoss::cov ? "cov" : "mean"},
          {"norm_constant", json_number(craft.norm_constant)},
          {"init", init == CanaryInit::random ? "random" : "sample"},
          {"seed", seed}};
}

}  // namespace dpaudit::dp_train
