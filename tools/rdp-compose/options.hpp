// rdp-compose's command line: the options declared on the CLI11 app, and their rules
// (which options go together) checked into compose.hpp's Options.
#pragma once
#include <string>

#include <CLI/CLI.hpp>

#include "compose.hpp"

namespace dpaudit::rdp_compose {

// The values as parsed, and the options, to see which were given.
struct CommandLine {
  Options options;  // the plain values land here
  std::string accountant = "rdp", sampling = "poisson", orders, cover = "backward",
              rule = "one-step";
  std::string events_path;
  double fail_above = 0;
  CLI::Option *sigma = nullptr, *q = nullptr, *steps = nullptr, *delta = nullptr, *eps = nullptr,
              *events = nullptr, *orders_opt = nullptr, *sampling_opt = nullptr, *fail = nullptr,
              *empirical = nullptr, *rounds = nullptr, *round_delta = nullptr, *cover_opt = nullptr,
              *floor = nullptr, *sigma_inf = nullptr, *lattice = nullptr, *threads = nullptr,
              *tradeoff = nullptr, *json = nullptr, *accountant_opt = nullptr, *epochs = nullptr,
              *batches = nullptr, *samples = nullptr, *seed = nullptr, *confidence = nullptr,
              *rule_opt = nullptr;
  CLI::Option* eps_delta = nullptr;
  ReleaseLine release_line;  // --release, --accumulate (release.hpp)
};

// Declares every option on `app`, bound to `line`.
void declare(CLI::App& app, CommandLine& line);

// The options after parsing, their combinations checked (UsageError naming the option).
Options validate(const CommandLine& line);

}  // namespace dpaudit::rdp_compose
