#include "canife/config.hpp"

#include <cmath>

#include "core/error.hpp"
#include "core/names.hpp"

namespace dpaudit::dp_train {

namespace {

constexpr Named<CanifeLevel> kLevels[] = {{"sample", CanifeLevel::sample},
                                          {"user", CanifeLevel::user}};
constexpr Named<CanaryInit> kInits[] = {{"random", CanaryInit::random},
                                        {"sample", CanaryInit::sample}};
// The sound accountants of a Poisson-sampled run (gdp is an approximation, gaussian is for
// shuffled participation).
constexpr Named<Accountant> kAccountants[] = {{"pld", Accountant::pld}, {"rdp", Accountant::rdp}};
constexpr Named<EpsHatRule> kEpsHatRules[] = {{"code-2023", EpsHatRule::code_2023},
                                              {"forward", EpsHatRule::forward},
                                              {"capped", EpsHatRule::capped},
                                              {"code-2022", EpsHatRule::code_2022}};

}  // namespace

CanifeLevel parse_canife_level(const std::string& name) {
  return parse_named(kLevels, name, "level", "--level");
}
CanaryInit parse_canary_init(const std::string& name) {
  return parse_named(kInits, name, "init", "--init");
}
Accountant parse_canife_accountant(const std::string& name) {
  return parse_named(kAccountants, name, "accountant", "--accountant");
}
EpsHatRule parse_eps_hat_rule(const std::string& name) {
  return parse_named(kEpsHatRules, name, "eps_hat rule", "--eps-hat");
}
std::string eps_hat_rule_name(EpsHatRule rule) {
  return name_of(kEpsHatRules, rule);
}

void CanifeConfig::validate() const {
  if (model != "mlp" && model != "logreg")
    throw UsageError("canife crafts through dense models only: mlp or logreg", "--model");
  if (!(q > 0 && q <= 1)) throw UsageError("the sampling rate q must lie in (0, 1]", "--q");
  // total_rounds() casts ceil(1/q) to size_t: refuse an epoch that no count of rounds holds.
  if (rounds == 0 && !(1 / q < 1e18))
    throw UsageError("one epoch at this q is over 1e18 rounds: give --rounds", "--q");
  // The accountant counts rounds as a signed 64-bit number: 2^64 - 1 read as -1.
  if (total_rounds() > (std::size_t{1} << 50))
    throw UsageError("at most 2^50 rounds", rounds ? "--rounds" : "--q");
  if (audit_every == 0 || audit_every >= total_rounds())
    throw UsageError("the audit period " + std::to_string(audit_every) + " must lie in [1, " +
                         std::to_string(total_rounds()) + "), the run's rounds",
                     "--audit-every");
  if (audit_rounds < 2) throw UsageError("an audit needs n >= 2 mock rounds", "--audit-rounds");
  // The model, its updates and the canary are floats (about 3.4e38), with room for sums.
  if (!(clip >= 1e-30 && clip <= 1e30))
    throw UsageError("the clip norm must lie in [1e-30, 1e30]", "--clip");
  if (design_pool == 0) throw UsageError("the design pool is empty", "--design-pool");
  if (craft.steps == 0)
    throw UsageError("crafting needs at least one design step", "--design-steps");
  if (out.empty()) throw UsageError("give the output folder", "--out");
  if (level == CanifeLevel::user) {
    if (user.local_epochs == 0) throw UsageError("need at least one local epoch", "--local-epochs");
    if (user.local_batch == 0)
      throw UsageError("local batch size must be at least 1", "--local-batch");
  }
}

Json CanifeConfig::to_json() const {
  Json j = {{"task", task},
            {"model", model},
            {"hidden", hidden},
            {"level", name_of(kLevels, level)},
            {"q", json_number(q)},
            {"rounds", total_rounds()},
            {"clip", json_number(clip)},
            {"delta", json_number(delta)},
            {"audit_every", audit_every},
            {"audit_rounds", audit_rounds},
            {"design_pool", design_pool},
            {"design_steps", craft.steps},
            {"design_lr", json_number(craft.lr)},
            {"design_minibatch", craft.minibatch},
            {"loss", to_string(craft.loss)},
            {"norm_constant", json_number(craft.norm_constant)},
            {"init", name_of(kInits, init)},
            {"seed", seed},
            {"accountant", accountant_name(accountant)},
            {"eps_hat", eps_hat_rule_name(eps_hat)}};
  if (level == CanifeLevel::sample) {
    j["lr"] = json_number(lr);
  } else {
    j["clients"] = user.clients;
    j["partition"] = user.partition;
    if (user.partition == "label-skew") j["alpha"] = json_number(user.alpha);
    j["local_epochs"] = user.local_epochs;
    j["local_batch"] = user.local_batch;
    j["client_lr"] = json_number(user.client_lr);
    j["server_lr"] = json_number(user.server_lr);
  }
  return j;
}

}  // namespace dpaudit::dp_train
