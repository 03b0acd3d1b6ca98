// rdp-compose --sampling shuffle: E epochs, each a uniform permutation cut into B batches, at
// noise multiplier SIGMA. Prints the certified lower bound on the shuffled mechanism's eps
// (lib/accounting/shuffle_lower_bound.hpp) beside the Poisson upper bound at q = 1/B over E B
// steps (what pipelines report for shuffled batches) and the upper bound without amplification
// (E Gaussian mechanisms), and says which of the first two is larger.
#pragma once
#include <iosfwd>

#include <CLI/CLI.hpp>

#include "compose.hpp"

namespace dpaudit::rdp_compose {

struct CommandLine;

// Declares --epochs and --batches.
void declare_shuffle(CLI::App& app, CommandLine& line);

// The rules of --sampling shuffle (UsageError naming the option); sets the mode, and the
// accountant of the Poisson bound (pld unless --accountant names rdp).
void validate_shuffle(const CommandLine& line, Options& options);

// The body of Mode::shuffle.
void shuffled(const Options& options, std::ostream& out, const Note& note);

}  // namespace dpaudit::rdp_compose
