// `dp-train ldp`'s command line: its options, read into LdpOptions, and their checks once
// parsed.
#pragma once
#include <string>

#include <CLI/CLI.hpp>

#include "games/torch/ldp_sgd_game.hpp"

namespace dpaudit::dp_train {

struct LdpOptions {
  LdpGameConfig game;
  std::string crafter, distinguisher = "white-box", out = "-";
  std::string trial_range;  // --trial-range A:B as given (empty: all K trials)
  bool json = false;
};

// Declares the options on `sub`, read into `options`.
void declare_ldp_options(CLI::App& sub, LdpOptions& options);

// Once parsed: the crafter and distinguisher names and the trial range into options.game,
// then its checks (a UsageError names the option: eps/L <= 0, K or n < 1, options the crafter
// does not use, a trial range that is not a non-empty part of [0, K)).
void complete_ldp_options(LdpOptions& options);

}  // namespace dpaudit::dp_train
