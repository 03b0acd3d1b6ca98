// Configuration of `dp-train canife`: the game's (lib/games/canife_config.hpp), the noise
// (given, or calibrated for a target eps by the accountant), and the outputs.
#pragma once
#include <string>

#include "accounting/run_accountant.hpp"
#include "games/canife_config.hpp"
#include "io/json.hpp"
#include "ranks.hpp"

namespace dpaudit::dp_train {

CanifeLevel parse_canife_level(
    const std::string& name);  // "sample" | "user", UsageError naming --level
CanaryInit parse_canary_init(
    const std::string& name);  // "random" | "sample", UsageError naming --init
// "pld" | "rdp", UsageError naming --accountant.
Accountant parse_canife_accountant(const std::string& name);

// Which composition of the audits is the run's eps_hat (--eps-hat): Maddock et al.'s code since
// February 2023 (backward covering), Alg. 2's forward covering, the same with an infinite eps_r
// read as the n scores' cap, or the recipe of their first public code (October 2022).
enum class EpsHatRule { code_2023, forward, capped, code_2022 };
// "code-2023" | "forward" | "capped" | "code-2022", UsageError naming --eps-hat.
EpsHatRule parse_eps_hat_rule(const std::string& name);
std::string eps_hat_rule_name(EpsHatRule rule);

struct CanifeConfig : CanifeGameConfig {
  double noise_multiplier = 0;  // z; 0 with eps > 0: calibrated for the whole run
  double eps = 0;
  Accountant accountant = Accountant::pld;  // calibration and the analytic headline
  EpsHatRule eps_hat = EpsHatRule::code_2023;
  bool quiet = false;
  std::string out;
  bool force = false;
  std::string
      timings;  // --timings FILE: wall times and peak memory (not deterministic, so not in --out)
  RankOptions ranks;  // the user level over several processes; not in run.json

  // Throws UsageError before any work for an inconsistent configuration.
  void validate() const;
  Json to_json() const;
};

}  // namespace dpaudit::dp_train
