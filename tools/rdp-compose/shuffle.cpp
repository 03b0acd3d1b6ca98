#include "shuffle.hpp"

#include <algorithm>
#include <limits>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "accounting/shuffle_lower_bound.hpp"
#include "cli/tool.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "io/json.hpp"
#include "options.hpp"
#include "stats/balls_in_bins_bound.hpp"

namespace dpaudit::rdp_compose {

void declare_epochs(CLI::App& app, CommandLine& c) {
  Options& o = c.options;
  c.epochs = app.add_option("--epochs", o.epochs,
                            "--sampling shuffle or balls-in-bins: the epochs E, each drawn afresh, "
                            ">= 1")
                 ->check(CLI::Range(1LL, std::numeric_limits<long long>::max()));
  c.batches = app.add_option("--batches", o.batches,
                             "--sampling shuffle or balls-in-bins: the batches B of an epoch, >= 1 "
                             "(the Poisson bound beside it: q = 1/B over E*B steps)")
                  ->check(CLI::Range(1LL, std::numeric_limits<long long>::max()));
  BallsInBinsOptions& b = o.balls_in_bins;
  c.samples =
      app.add_option("--samples", b.samples,
                     "--sampling balls-in-bins: the Monte Carlo's one-epoch samples a "
                     "direction, >= 1000 (default 1000000; cost about samples x B normals)")
          ->check(CLI::Range(std::uint64_t{1000}, std::numeric_limits<std::uint64_t>::max()));
  c.seed = app.add_option("--seed", b.seed,
                          "--sampling balls-in-bins: the Monte Carlo's seed (default 0; the same "
                          "output for any --threads)");
  c.confidence = app.add_option("--confidence", b.confidence,
                                "--sampling balls-in-bins: the probability over the samples that "
                                "the upper bound holds, in (0,1) (default 0.95)")
                     ->check(cli::open_unit_interval());
}

void validate_epochs(const CommandLine& c, Options& o) {
  const std::string mode = "with --sampling " + sampling_name(o.sampling);
  cli::forbid_options({c.q, c.steps, c.eps, c.events, c.tradeoff, c.fail, c.empirical,
                       c.release_line.release_opt, c.release_line.accumulate},
                      mode);
  cli::require_options({c.sigma, c.epochs, c.batches, c.delta}, mode);
  if (o.sampling == Sampling::shuffle) cli::forbid_options({c.samples, c.seed, c.confidence}, mode);
  if (o.epochs > std::numeric_limits<long long>::max() / o.batches)
    throw UsageError("the steps E*B of the Poisson comparison are beyond 2^63 - 1", "--epochs");
  if (!c.accountant_opt->count()) o.accounting.accountant = Accountant::pld;
  if (*o.accounting.accountant == Accountant::gdp)
    throw UsageError(
        "the Poisson bound beside the epochs' bounds must be a bound: pld or rdp (GDP's "
        "CLT is an approximation)",
        "--accountant");
  if (*o.accounting.accountant != Accountant::pld)
    cli::forbid_options({c.lattice}, "without --accountant pld");
  o.balls_in_bins.threads = o.accounting.threads;
  o.mode = o.sampling == Sampling::shuffle ? Mode::shuffle : Mode::balls_in_bins;
}

namespace {

// The two upper bounds beside an epochs' bound: Poisson at q = 1/B over E B steps, by the
// accountant asked, and E Gaussian mechanisms (no amplification).
struct Beside {
  RunEpsilon poisson, no_amplification;
};

Beside beside(const Options& o) {
  RunModel poisson;
  poisson.noise_multiplier = o.sigma;
  poisson.q = 1 / static_cast<double>(o.batches);
  poisson.steps = o.epochs * o.batches;
  RunModel epochs;
  epochs.sampling = o.sampling;
  epochs.noise_multiplier = o.sigma;
  epochs.participations = o.epochs;
  AccountantOptions gaussian = o.accounting;
  gaussian.accountant = Accountant::gaussian;
  return {run_epsilon(poisson, o.delta, o.accounting), run_epsilon(epochs, o.delta, gaussian)};
}

struct Bounds {
  double lower, lattice;  // the shuffled mechanism's certified lower bound, its lattice
  Beside beside;
};

Bounds bounds(const Options& o) {
  const ShuffleLowerBound lb({o.sigma, o.batches, o.epochs});
  return {lb.epsilon(o.delta), lb.lattice_spacing(), beside(o)};
}

// The Poisson bound's JSON object (its accountant's details and notes through describe()).
Json poisson_json(const Options& o, const RunEpsilon& poisson, const Note& note) {
  Json j{{"q", 1 / static_cast<double>(o.batches)}, {"steps", o.epochs * o.batches}};
  describe(o, poisson, j, note);
  j["eps"] = json_number(poisson.epsilon);
  return j;
}

// Rows "label value", the labels padded to one width.
void print_rows(const std::vector<std::pair<std::string, double>>& rows, std::ostream& out) {
  std::size_t width = 0;
  for (const auto& row : rows) width = std::max(width, row.first.size());
  for (const auto& [label, value] : rows)
    out << fmt::format("{:<{}} {}\n", label, width, format_number(value));
}

std::string poisson_label(const Options& o) {
  return fmt::format("Poisson q 1/{}, {} steps, upper bound ({})", o.batches, o.epochs * o.batches,
                     accountant_name(*o.accounting.accountant));
}

std::string verdict(const Bounds& b) {
  if (b.lower > b.beside.poisson.epsilon)
    return fmt::format(
        "the shuffled lower bound is larger: a pipeline that reports Poisson accounting for "
        "these shuffled batches understates its eps (at least {}, where Poisson gives at most "
        "{})",
        format_number(b.lower), format_number(b.beside.poisson.epsilon));
  return "the Poisson bound is larger: this lower bound does not show that Poisson accounting "
         "understates eps here (nor that Poisson accounting holds for shuffled batches)";
}

}  // namespace

void shuffled(const Options& o, std::ostream& out, const Note& note) {
  const Bounds b = bounds(o);
  const RunEpsilon& poisson = b.beside.poisson;
  if (o.json) {
    out << json_line(
        {{"sampling", "shuffle"},
         {"adjacency", "zero-out"},
         {"sigma", o.sigma},
         {"batches", o.batches},
         {"epochs", o.epochs},
         {"delta", o.delta},
         {"eps_lower", json_number(b.lower)},
         {"lower_lattice", b.lattice},
         {"accountant", accountant_name(*o.accounting.accountant)},
         {"poisson", poisson_json(o, poisson, note)},
         {"eps_upper_no_amplification", json_number(b.beside.no_amplification.epsilon)},
         {"larger", b.lower > poisson.epsilon ? "shuffle_lower" : "poisson"},
         {"poisson_understates", b.lower > poisson.epsilon}});
    return;
  }
  poisson_json(o, poisson, note);  // not printed: its notes
  print_rows({{"shuffled, lower bound (Chua et al. 2024)", b.lower},
              {poisson_label(o), poisson.epsilon},
              {"shuffled, upper bound (no amplification)", b.beside.no_amplification.epsilon}},
             out);
  out << verdict(b) << "\n";
}

void balls_in_bins(const Options& o, std::ostream& out, const Note& note) {
  const BallsInBinsOptions& mc = o.balls_in_bins;
  const BallsInBinsBound bound({o.sigma, o.batches, o.epochs}, mc);
  const double upper = bound.upper(o.delta), estimate = bound.estimate(o.delta);
  const Beside b = beside(o);
  if (o.json) {
    out << json_line(
        {{"sampling", "balls-in-bins"},
         {"adjacency", "add/remove"},
         {"sigma", o.sigma},
         {"batches", o.batches},
         {"epochs", o.epochs},
         {"delta", o.delta},
         {"eps_upper", json_number(upper)},
         {"confidence", mc.confidence},
         {"eps_upper_what",
          "an upper bound that holds with probability confidence over the Monte "
          "Carlo samples (Chua et al. 2025's pair, add/remove neighbours)"},
         {"eps_estimate", json_number(estimate)},
         {"eps_estimate_what", "the plain Monte Carlo estimate: no confidence, not a bound"},
         {"samples", mc.samples},
         {"seed", mc.seed},
         {"accountant", accountant_name(*o.accounting.accountant)},
         {"poisson", poisson_json(o, b.poisson, note)},
         {"eps_upper_no_amplification", json_number(b.no_amplification.epsilon)}});
    return;
  }
  poisson_json(o, b.poisson, note);  // not printed: its notes
  print_rows({{fmt::format("balls-in-bins, upper bound at confidence {} (Monte Carlo, {} samples, "
                           "seed {})",
                           mc.confidence, mc.samples, mc.seed),
               upper},
              {"balls-in-bins, Monte Carlo estimate (not a bound)", estimate},
              {poisson_label(o), b.poisson.epsilon},
              {"balls-in-bins, upper bound (no amplification)", b.no_amplification.epsilon}},
             out);
}

}  // namespace dpaudit::rdp_compose
