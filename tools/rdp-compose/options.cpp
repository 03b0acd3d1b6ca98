#include "options.hpp"

#include <limits>

#include "cli/tool.hpp"
#include "core/error.hpp"
#include "io/csv.hpp"
#include "shuffle.hpp"

namespace dpaudit::rdp_compose {

namespace {

// --orders: a comma-separated list of orders in (1, 1e5], every item present (cli::comma_items).
CLI::Validator valid_orders() {
  return CLI::Validator(
      [](std::string& list) -> std::string {
        for (const std::string& s : cli::comma_items(list)) {
          if (s.empty()) return "empty item in the list '" + list + "'";
          const auto v = parse_finite(s);
          if (!v) return "'" + s + "' is not a finite number";
          if (!(*v > 1 && *v <= 1e5)) return "order " + s + " is not in (1, 1e5]";
        }
        return "";
      },
      "in (1, 1e5]", "");
}

std::vector<double> parse_orders(const std::string& list) {
  std::vector<double> orders;
  for (const std::string& s : cli::comma_items(list)) orders.push_back(*parse_finite(s));
  return orders;
}

// The run: accountant, noise, rate, steps, delta, target eps, segments, orders, sampling, and
// the budget.
void declare_run(CLI::App& app, CommandLine& c) {
  Options& o = c.options;
  c.accountant_opt =
      app.add_option("--accountant", c.accountant,
                     "rdp: Renyi DP; pld: privacy-loss distribution (interval; prints the smallest "
                     "sound upper "
                     "bound of PLD and RDP); gdp: Gaussian DP (CLT approximation unless Q = 1)")
          ->capture_default_str()
          ->check(CLI::IsMember({"rdp", "pld", "gdp"}));
  c.sigma = app.add_option("--sigma", o.sigma, "noise multiplier (noise stddev / clip norm), > 0")
                ->check(cli::positive());
  c.q =
      app.add_option("--q", o.q,
                     "sampling rate in (0,1]: Poisson rate, or batch size / N without replacement")
          ->check(cli::unit_interval_open_left());
  c.steps = app.add_option("--steps", o.steps, "number of steps, >= 1")
                ->check(CLI::Range(1LL, std::numeric_limits<long long>::max()));
  c.delta =
      app.add_option("--delta", o.delta, "target delta in (0,1) (required, except with --tradeoff)")
          ->check(cli::open_unit_interval());
  c.eps = app.add_option("--eps", o.eps,
                         "target eps > 0: print the smallest noise multiplier meeting it "
                         "(with --q, --steps)")
              ->check(cli::positive());
  c.events = app.add_option("--events", c.events_path,
                            "CSV with columns sigma,q,steps, one row per segment; - = stdin");
  c.orders_opt =
      app.add_option(
             "--orders", c.orders,
             "comma-separated RDP orders in (1, 1e5] (default: 1.1..10.9 by 0.1, 11..63, 128, 256, "
             "512, 1024: the defaults of dp_accounting and Opacus)")
          ->check(valid_orders());
  c.sampling_opt =
      app.add_option(
             "--sampling", c.sampling,
             "poisson: each record joins a step with probability Q (add/remove-one neighbours); "
             "without-replacement: a fixed batch of Q*N records (replace-one neighbours: a step's "
             "sum moves "
             "by up to twice the clip norm, so every accountant reads SIGMA/2 per unit "
             "sensitivity); shuffle: --epochs of --batches, a certified lower bound beside the "
             "Poisson "
             "upper bound at q = 1/B (zero-out neighbours; --accountant pld by default); "
             "balls-in-bins: --epochs of --batches, each record in one uniformly drawn batch an "
             "epoch, a Monte Carlo upper bound at --confidence beside the Poisson bound")
          ->capture_default_str()
          ->check(CLI::IsMember({"poisson", "without-replacement", "shuffle", "balls-in-bins"}));
  c.fail = app.add_option("--fail-above", c.fail_above,
                          "exit 3 (and print nothing) when eps > X (inf: never)")
               ->check(cli::epsilon());
}

// --empirical and the options that go with it.
void declare_empirical(CLI::App& app, CommandLine& c) {
  EmpiricalCompositionOptions& e = c.options.empirical;
  c.empirical = app.add_option(
      "--empirical", c.options.empirical_path,
      "CSV round,epsilon of per-round empirical eps (Maddock et al. 2023's eps_r; - = stdin): "
      "print "
      "Maddock et al. 2023, Alg. 2's eps_hat for the run (--q, --rounds, --round-delta, --delta)");
  c.rounds = app.add_option("--rounds", e.total_rounds, "--empirical: the run's rounds R")
                 ->check(CLI::Range(1LL, std::numeric_limits<long long>::max()));
  c.round_delta =
      app.add_option("--round-delta", e.round_delta,
                     "--empirical: the delta of each eps_r (Maddock et al. 2023: 1/n for n scores)")
          ->check(cli::open_unit_interval());
  c.cover_opt =
      app.add_option(
             "--cover", c.cover,
             "--empirical: rounds each audit stands for: backward (since the previous audit, "
             "Maddock et al. 2023's code) | forward (until the next, Alg. 2 as printed)")
          ->capture_default_str()
          ->check(CLI::IsMember({"backward", "forward"}));
  c.rule_opt =
      app.add_option("--rule", c.rule,
                     "--empirical: how an eps_r becomes a noise: one-step (a single Gaussian step, "
                     "Alg. 2 and Maddock et al. 2023's code since February 2023) | segment (their "
                     "first public code, October 2022: the eps of its audit's whole segment of "
                     "rounds at --q; an infinite eps_r is skipped)")
          ->capture_default_str()
          ->check(CLI::IsMember({"one-step", "segment"}));
  c.floor = app.add_option("--eps-floor", e.floor, "--empirical: GetNoise's floor on eps_r")
                ->capture_default_str()
                ->check(cli::positive());
  c.sigma_inf = app.add_option("--sigma-if-inf", e.sigma_if_inf,
                               "--empirical: the run's noise multiplier, for an infinite eps_r")
                    ->check(cli::positive());
}

// The accountants' knobs and the outputs.
void declare_output(CLI::App& app, CommandLine& c) {
  Options& o = c.options;
  c.lattice =
      app.add_option(
             "--lattice", o.accounting.lattice,
             "--accountant pld: the lattice spacing of the privacy loss, fixed (dp_accounting's "
             "value_discretization_interval; coarser: faster, a wider interval, still sound). "
             "Default: "
             "chosen from the run, an interval about 1e-4 of eps wide")
          ->check(cli::positive());
  o.accounting.threads = 0;
  c.threads =
      app.add_option(
             "--threads", o.accounting.threads,
             "threads over distinct segments (RDP, PLD); 0 = all cores (same output for any count)")
          ->capture_default_str()
          ->check(cli::thread_count());
  c.tradeoff = app.add_option(
      "--tradeoff", o.tradeoff_path,
      "write FILE (- = stdout), CSV fpr,fnr: the vertices of the f-DP trade-off curve "
      "the accountant certifies (pld or rdp), the envelope of its (eps, delta) pairs, "
      "for eps-from-scores --against-curve; no --delta (every delta is in it)");
  c.eps_delta =
      app.add_option("--eps-delta", o.eps_delta_path,
                     "with --tradeoff: also write FILE, CSV delta,eps_upper (--release final: "
                     "delta,eps_heuristic, not a bound): eps at delta = "
                     "10^(-k/4), k = 4..40, as the plain output would print it (eps-from-scores "
                     "--eps-delta writes the measured one on the same grid)")
          ->needs(c.tradeoff);
  c.json = app.add_flag(
      "--json", o.json,
      "print one JSON object: eps, the accountant's details (the PLD interval and the RDP "
      "value with --accountant pld), delta, and the inputs");
}

// --empirical's rules; the options it needs.
void validate_empirical(const CommandLine& c, Options& o) {
  cli::forbid_options(
      {c.sigma, c.steps, c.eps, c.events, c.sampling_opt, c.orders_opt, c.threads, c.tradeoff},
      "with --empirical");
  cli::require_options({c.q, c.rounds, c.round_delta}, "with --empirical");
  if (*o.accounting.accountant != Accountant::rdp)
    throw UsageError("--empirical composes with RDP, as Maddock et al. 2023", "--accountant");
  o.mode = Mode::empirical;
  o.empirical.q = o.q;
  o.empirical.delta = o.delta;
  o.empirical.cover = c.cover == "backward" ? AuditCover::backward : AuditCover::forward;
  o.empirical.rule = c.rule == "segment" ? EmpiricalRule::segment : EmpiricalRule::one_step;
}

// The rules of the modes without --empirical.
void validate_run(const CommandLine& c, Options& o) {
  cli::forbid_options({c.rounds, c.round_delta, c.cover_opt, c.rule_opt, c.floor, c.sigma_inf},
                      "without --empirical");
  if (c.eps->count()) {
    const std::string mode = "with --eps";
    cli::forbid_options({c.sigma, c.events, c.fail, c.tradeoff}, mode);
    cli::require_options({c.q, c.steps}, mode);
    o.mode = Mode::calibrate;
    return;
  }
  if (c.events->count()) {
    cli::forbid_options({c.sigma, c.q, c.steps}, "with --events");
    o.events_path = c.events_path;
  } else {
    cli::require_options({c.sigma, c.q, c.steps}, "(or give --events)");
  }
  o.mode = c.tradeoff->count() ? Mode::tradeoff : Mode::epsilon;
}

}  // namespace

void declare(CLI::App& app, CommandLine& line) {
  declare_run(app, line);  // in the order --help lists them
  declare_epochs(app, line);
  declare_release(app, line.release_line);
  declare_empirical(app, line);
  declare_output(app, line);
}

Options validate(const CommandLine& c) {
  Options o = c.options;
  o.accounting.accountant = find_accountant(c.accountant);
  o.sampling = *find_sampling(c.sampling);
  if (c.orders_opt->count()) o.accounting.orders = parse_orders(c.orders);
  if (by_epochs(o.sampling)) {
    validate_epochs(c, o);
    return o;
  }
  cli::forbid_options({c.epochs, c.batches, c.samples, c.seed, c.confidence},
                      "without --sampling shuffle or balls-in-bins");
  if (c.fail->count()) o.fail_above = c.fail_above;
  const Accountant a = *o.accounting.accountant;
  if (a == Accountant::gdp) cli::forbid_options({c.orders_opt, c.threads}, "with --accountant gdp");
  if (a != Accountant::pld) cli::forbid_options({c.lattice}, "without --accountant pld");
  if (c.tradeoff->count())
    cli::forbid_options({c.delta, c.json, c.fail},
                        "with --tradeoff (the curve holds every (eps, delta))");
  else
    cli::require_options({c.delta}, "(or give --tradeoff)");
  if (c.empirical->count())
    validate_empirical(c, o);
  else
    validate_run(c, o);
  o.release = validate_release(c, o);
  return o;
}

}  // namespace dpaudit::rdp_compose
