#include "shuffle.hpp"

#include <algorithm>
#include <limits>
#include <ostream>
#include <string>

#include <fmt/format.h>

#include "accounting/shuffle_lower_bound.hpp"
#include "cli/tool.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "io/json.hpp"
#include "options.hpp"

namespace dpaudit::rdp_compose {

void declare_shuffle(CLI::App& app, CommandLine& c) {
  Options& o = c.options;
  c.epochs = app.add_option("--epochs", o.epochs,
                            "--sampling shuffle: the epochs E, each a fresh permutation, >= 1")
                 ->check(CLI::Range(1LL, std::numeric_limits<long long>::max()));
  c.batches = app.add_option("--batches", o.batches,
                             "--sampling shuffle: the batches B of an epoch, >= 1 (the Poisson "
                             "bound beside it: q = 1/B over E*B steps)")
                  ->check(CLI::Range(1LL, std::numeric_limits<long long>::max()));
}

void validate_shuffle(const CommandLine& c, Options& o) {
  const std::string mode = "with --sampling shuffle";
  cli::forbid_options({c.q, c.steps, c.eps, c.events, c.tradeoff, c.fail, c.empirical,
                       c.release_line.release_opt, c.release_line.accumulate},
                      mode);
  cli::require_options({c.sigma, c.epochs, c.batches, c.delta}, mode);
  if (o.epochs > std::numeric_limits<long long>::max() / o.batches)
    throw UsageError("the steps E*B of the Poisson comparison are beyond 2^63 - 1", "--epochs");
  if (!c.accountant_opt->count()) o.accounting.accountant = Accountant::pld;
  if (*o.accounting.accountant == Accountant::gdp)
    throw UsageError(
        "the Poisson bound beside the shuffled lower bound must be a bound: pld or rdp (GDP's "
        "CLT is an approximation)",
        "--accountant");
  if (*o.accounting.accountant != Accountant::pld)
    cli::forbid_options({c.lattice}, "without --accountant pld");
  o.mode = Mode::shuffle;
}

namespace {

struct Bounds {
  double lower, lattice;        // the shuffled mechanism's certified lower bound, its lattice
  RunEpsilon poisson;           // Poisson at q = 1/B over E B steps, by the accountant asked
  RunEpsilon no_amplification;  // E Gaussian mechanisms: an upper bound for shuffling
};

Bounds bounds(const Options& o) {
  const ShuffleLowerBound lb({o.sigma, o.batches, o.epochs});
  RunModel poisson;
  poisson.noise_multiplier = o.sigma;
  poisson.q = 1 / static_cast<double>(o.batches);
  poisson.steps = o.epochs * o.batches;
  RunModel epochs;
  epochs.sampling = Sampling::shuffle;
  epochs.noise_multiplier = o.sigma;
  epochs.participations = o.epochs;
  AccountantOptions gaussian = o.accounting;
  gaussian.accountant = Accountant::gaussian;
  return {lb.epsilon(o.delta), lb.lattice_spacing(), run_epsilon(poisson, o.delta, o.accounting),
          run_epsilon(epochs, o.delta, gaussian)};
}

std::string verdict(const Bounds& b) {
  if (b.lower > b.poisson.epsilon)
    return fmt::format(
        "the shuffled lower bound is larger: a pipeline that reports Poisson accounting for "
        "these shuffled batches understates its eps (at least {}, where Poisson gives at most "
        "{})",
        format_number(b.lower), format_number(b.poisson.epsilon));
  return "the Poisson bound is larger: this lower bound does not show that Poisson accounting "
         "understates eps here (nor that Poisson accounting holds for shuffled batches)";
}

}  // namespace

void shuffled(const Options& o, std::ostream& out, const Note& note) {
  const Bounds b = bounds(o);
  const std::string by = accountant_name(*o.accounting.accountant);
  if (o.json) {
    Json poisson{{"q", 1 / static_cast<double>(o.batches)}, {"steps", o.epochs * o.batches}};
    describe(o, b.poisson, poisson, note);
    poisson["eps"] = json_number(b.poisson.epsilon);
    out << json_line({{"sampling", "shuffle"},
                      {"adjacency", "zero-out"},
                      {"sigma", o.sigma},
                      {"batches", o.batches},
                      {"epochs", o.epochs},
                      {"delta", o.delta},
                      {"eps_lower", json_number(b.lower)},
                      {"lower_lattice", b.lattice},
                      {"accountant", by},
                      {"poisson", poisson},
                      {"eps_upper_no_amplification", json_number(b.no_amplification.epsilon)},
                      {"larger", b.lower > b.poisson.epsilon ? "shuffle_lower" : "poisson"},
                      {"poisson_understates", b.lower > b.poisson.epsilon}});
    return;
  }
  Json details;  // not printed: describe() for its notes
  describe(o, b.poisson, details, note);
  const std::string labels[] = {"shuffled, lower bound (Chua et al. 2024)",
                                fmt::format("Poisson q 1/{}, {} steps, upper bound ({})", o.batches,
                                            o.epochs * o.batches, by),
                                "shuffled, upper bound (no amplification)"};
  const double values[] = {b.lower, b.poisson.epsilon, b.no_amplification.epsilon};
  std::size_t width = 0;
  for (const std::string& label : labels) width = std::max(width, label.size());
  for (int i = 0; i < 3; ++i)
    out << fmt::format("{:<{}} {}\n", labels[i], width, format_number(values[i]));
  out << verdict(b) << "\n";
}

}  // namespace dpaudit::rdp_compose
