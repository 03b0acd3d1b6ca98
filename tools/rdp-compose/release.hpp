// rdp-compose's --release and --accumulate: what the model releases (every iterate, or only
// the final one: the last-iterate heuristic of Steinke et al. 2025 beside the all-iterates
// bound) and gradient accumulation over micro-batches (K ~ Binomial(M, q) per noisy step, a
// mixture of Gaussians: lib/accounting/pld_mixture.hpp). Declared, validated and computed here,
// apart from the other options.
#pragma once
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "accounting/event.hpp"

namespace dpaudit::rdp_compose {

struct Options;
struct CommandLine;

struct ReleaseOptions {
  bool final_only = false;  // --release final
  long long micro = 1;      // --accumulate M
  // Either: the body is release_epsilon's.
  bool active() const { return final_only || micro > 1; }
};

// The values as parsed, and the options, to see which were given.
struct ReleaseLine {
  std::string release = "all";
  long long micro = 1;
  CLI::Option *release_opt = nullptr, *accumulate = nullptr;
};

void declare_release(CLI::App& app, ReleaseLine& line);

// The rules: --accumulate with --accountant pld and Poisson sampling; --release final with one
// Poisson segment (--sigma, --q, --steps) and an accountant whose all-iterates number is a
// bound (pld, rdp); neither with --eps, --tradeoff, --empirical or --fail-above.
ReleaseOptions validate_release(const CommandLine& line, const Options& options);

// The events a curve (--tradeoff) accounts: with --release final the one last-iterate release,
// N(K, T s^2) against N(0, T s^2), K ~ Binomial(T M, q); with --accumulate M each segment's
// steps as mixtures of M micro-batches; else the segments.
std::vector<AccountingEvent> released_events(const Options& o,
                                             std::vector<AccountingEvent> segments);

// The run's eps at `delta` as the plain output prints it: with --release final the
// last-iterate heuristic, else the all-iterates bound (the mixture PLD's with --accumulate).
double released_epsilon(const Options& o, const std::vector<AccountingEvent>& segments,
                        double delta, const std::function<void(const std::string&)>& note);

// The eps of the run with its micro-batches, and with --release final the last-iterate
// heuristic beside it (text: one line each, the number first; --json: one object).
void release_epsilon(const Options& options, const std::vector<AccountingEvent>& events,
                     std::ostream& out, const std::function<void(const std::string&)>& note);

}  // namespace dpaudit::rdp_compose
