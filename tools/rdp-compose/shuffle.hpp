// rdp-compose --sampling shuffle and --sampling balls-in-bins: E epochs of B batches at noise
// multiplier SIGMA, every record in exactly one batch an epoch.
//   shuffle: each epoch a uniform permutation cut into the batches. Prints the certified lower
//     bound on the shuffled mechanism's eps (lib/accounting/shuffle_lower_bound.hpp) beside
//     the Poisson upper bound at q = 1/B over E B steps (what pipelines report for shuffled
//     batches) and the upper bound without amplification (E Gaussian mechanisms), and says
//     which of the first two is larger.
//   balls-in-bins: each record's batch drawn uniformly, independently of the others'. Prints
//     the Monte Carlo upper bound at the confidence asked and the plain Monte Carlo estimate
//     (lib/stats/balls_in_bins_bound.hpp) beside the same two bounds.
#pragma once
#include <iosfwd>

#include <CLI/CLI.hpp>

#include "compose.hpp"

namespace dpaudit::rdp_compose {

struct CommandLine;

// Declares --epochs, --batches, and balls-in-bins' --samples, --seed and --confidence.
void declare_epochs(CLI::App& app, CommandLine& line);

// The rules of --sampling shuffle and balls-in-bins (UsageError naming the option); sets the
// mode, and the accountant of the Poisson bound (pld unless --accountant names rdp).
void validate_epochs(const CommandLine& line, Options& options);

// The bodies of Mode::shuffle and Mode::balls_in_bins.
void shuffled(const Options& options, std::ostream& out, const Note& note);
void balls_in_bins(const Options& options, std::ostream& out, const Note& note);

}  // namespace dpaudit::rdp_compose
