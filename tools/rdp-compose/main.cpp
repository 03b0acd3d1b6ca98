// rdp-compose: the analytic eps of the subsampled Gaussian mechanism (Poisson or without
// replacement), one segment or heterogeneous segments, by RDP (lib/accounting/rdp.hpp,
// the default), PLD (lib/accounting/pld.hpp, with RDP beside it:
// lib/accounting/analytic_epsilon.hpp) or GDP (lib/accounting/gdp.hpp).
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "accounting/analytic_epsilon.hpp"
#include "accounting/empirical_composition.hpp"
#include "accounting/gdp.hpp"
#include "accounting/pld.hpp"
#include "accounting/rdp.hpp"
#include "accounting/tradeoff_curve.hpp"
#include "cli/exit_status.hpp"
#include "cli/gate.hpp"
#include "cli/tool.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "io/atomic_output.hpp"
#include "io/csv.hpp"
#include "io/json.hpp"

namespace {

using namespace dpaudit;

const char* kExamples =
    "  rdp-compose --sigma 1.1 --q 0.01 --steps 10000 --delta 1e-5       # DP-SGD style run\n"
    "  rdp-compose --sigma 0.8 --q 1 --steps 1 --delta 1e-6               # one Gaussian "
    "mechanism\n"
    "  rdp-compose --eps 3 --q 0.01 --steps 10000 --delta 1e-5            # noise multiplier for "
    "eps 3\n"
    "  rdp-compose --events segments.csv --delta 1e-5 --json              # CSV sigma,q,steps per "
    "segment\n"
    "  rdp-compose --sigma 1 --q 0.02 --steps 500 --delta 1e-6 --orders 2,4,8,16,32\n"
    "  rdp-compose --sigma 0.7 --q 0.01 --steps 2000 --delta 1e-5 --fail-above 6   # CI gate: exit "
    "3 (7.06 > 6)\n"
    "  rdp-compose --sigma 1.1 --q 0.01 --steps 10000 --delta 1e-5 --sampling without-replacement\n"
    "  rdp-compose --accountant pld --sigma 2.2 --q 0.01 --steps 1000 --delta 1e-5 --sampling "
    "without-replacement --json\n"
    "  rdp-compose --accountant pld --sigma 0.8 --q 0.002133 --steps 469 --delta 1e-5 --json   # "
    "PLD interval + RDP\n"
    "  rdp-compose --accountant pld --eps 1 --q 0.01 --steps 10000 --delta 1e-5   # sigma by the "
    "PLD bound\n"
    "  rdp-compose --accountant pld --lattice 1e-4 --sigma 6.09 --q 0.000112 --steps 20102 --delta "
    "3.7e-6\n"
    "    # at dp_accounting's default discretisation: faster, a wider interval\n"
    "  rdp-compose --accountant gdp --sigma 1.1 --q 0.01 --steps 10000 --delta 1e-5   # CLT "
    "approximation\n"
    "  rdp-compose --accountant pld --sigma 2.2477 --q 0.1 --steps 100 --tradeoff curve.csv   # "
    "the f-DP curve it certifies\n"
    "  eps-from-scores run/scores.csv --per round --method canife |\n"
    "    rdp-compose --empirical - --q 0.0021333 --rounds 469 --round-delta 0.01 --delta 1e-5 "
    "--sigma-if-inf 0.2\n";

const char* kChordNote =
    "the RDP series of fractional orders lost its digits at this noise (A - 1 below 1e-10 of its "
    "terms): those "
    "orders use the chord between the neighbouring integer orders, a sound upper bound";

// Largest steps count read from CSV that converts exactly from a double.
constexpr double kMaxSteps = 9007199254740992.0;  // 2^53

std::vector<RdpEvent> read_events(const std::string& path, Sampling sampling) {
  CsvReader csv(path);
  const std::size_t sigma_col = csv.column("sigma"), q_col = csv.column("q"),
                    steps_col = csv.column("steps");
  std::vector<RdpEvent> events;
  long long total_steps = 0;  // reported by --json: its sum must not overflow
  while (csv.next()) {
    const double sigma = csv.number(sigma_col), q = csv.number(q_col),
                 steps = csv.number(steps_col);
    if (!(sigma > 0))
      throw DataError(fmt::format("sigma must be > 0, got {}", sigma), csv.where(sigma_col));
    if (!(q > 0 && q <= 1))
      throw DataError(fmt::format("q must be in (0,1], got {}", q), csv.where(q_col));
    if (!(steps >= 1 && steps <= kMaxSteps && steps == std::floor(steps)))
      throw DataError(fmt::format("steps must be a whole number in [1, 2^53], got {}", steps),
                      csv.where(steps_col));
    if (steps > static_cast<double>(std::numeric_limits<long long>::max() - total_steps))
      throw DataError("the steps of all rows add up beyond 2^63 - 1", csv.where(steps_col));
    total_steps += static_cast<long long>(steps);
    events.push_back({sigma, q, static_cast<long long>(steps), sampling});
  }
  if (events.empty()) throw DataError("no events: the CSV has a header but no rows", csv.source());
  return events;
}

// 000 Alg. 2's input: CSV round,epsilon (eps-from-scores --per round --method canife),
// eps "inf" allowed.
std::vector<AuditEpsilon> read_audits(const std::string& path, long long total_rounds) {
  CsvReader csv(path);
  const std::size_t round_col = csv.column("round"), eps_col = csv.column("epsilon");
  std::vector<AuditEpsilon> audits;
  while (csv.next()) {
    const double round = csv.number(round_col);
    if (!(round >= 0 && round == std::floor(round) && round < static_cast<double>(total_rounds)))
      throw DataError(fmt::format("round must be a whole number in [0, {}) (--rounds), got {}",
                                  total_rounds, round),
                      csv.where(round_col));
    if (!audits.empty() && static_cast<long long>(round) <= audits.back().round)
      throw DataError(
          fmt::format("rounds must increase, got {} after {}", round, audits.back().round),
          csv.where(round_col));
    const double e =
        csv.field(eps_col) == "inf" ? std::numeric_limits<double>::infinity() : csv.number(eps_col);
    if (!(e >= 0))
      throw DataError(fmt::format("eps_r must be >= 0, got {}", e), csv.where(eps_col));
    audits.push_back({static_cast<long long>(round), e});
  }
  if (audits.empty()) throw DataError("no audits: the CSV has a header but no rows", csv.source());
  return audits;
}

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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Analytic eps after STEPS steps of the subsampled Gaussian mechanism with noise multiplier "
      "SIGMA\n"
      "and sampling rate Q (Q = 1: the plain Gaussian mechanism), or after heterogeneous segments\n"
      "(--events), by one of three accountants (--accountant):\n"
      "  rdp (default): Renyi DP, integer and fractional orders (Mironov, Talwar & Zhang 2019), "
      "RDP ->\n"
      "    (eps, delta) by Canonne, Kamath & Steinke 2020, Prop. 12, as dp_accounting and Opacus;\n"
      "  pld: the privacy-loss distribution, an interval that contains the true eps (Doroshenko et "
      "al.\n"
      "    2022), printed as the smallest sound upper bound of PLD and RDP;\n"
      "  gdp: Gaussian DP, exact for Q = 1, otherwise the CLT of Bu et al. 2020 (an "
      "approximation).\n"
      "Supported: Poisson subsampling, and a fixed batch without replacement (--sampling; "
      "replace-one\n"
      "neighbours). Prints eps alone, or with --eps the smallest noise multiplier meeting it.",
      "rdp-compose"};
  dpaudit::cli::setup(app, kExamples);

  double sigma = 0, q = 0, delta = 0, eps = 0, fail_above = 0;
  long long steps = 0;
  std::string events_path, sampling_name = "poisson", accountant = "rdp";
  std::vector<double> orders = default_rdp_orders();
  int threads = 0;
  double lattice = 0;
  bool json = false;

  app.add_option(
         "--accountant", accountant,
         "rdp: Renyi DP; pld: privacy-loss distribution (interval; prints the smallest sound upper "
         "bound of PLD and RDP); gdp: Gaussian DP (CLT approximation unless Q = 1)")
      ->capture_default_str()
      ->check(CLI::IsMember({"rdp", "pld", "gdp"}));
  auto* sigma_opt =
      app.add_option("--sigma", sigma, "noise multiplier (noise stddev / clip norm), > 0")
          ->check(cli::positive());
  auto* q_opt =
      app.add_option("--q", q,
                     "sampling rate in (0,1]: Poisson rate, or batch size / N without replacement")
          ->check(cli::unit_interval_open_left());
  auto* steps_opt = app.add_option("--steps", steps, "number of steps, >= 1")
                        ->check(CLI::Range(1LL, std::numeric_limits<long long>::max()));
  auto* delta_opt =
      app.add_option("--delta", delta, "target delta in (0,1) (required, except with --tradeoff)")
          ->check(cli::open_unit_interval());
  auto* eps_opt = app.add_option("--eps", eps,
                                 "target eps > 0: print the smallest noise multiplier meeting it "
                                 "(with --q, --steps)")
                      ->check(cli::positive());
  auto* events_opt = app.add_option(
      "--events", events_path, "CSV with columns sigma,q,steps, one row per segment; - = stdin");
  std::string orders_list;
  auto* orders_opt =
      app.add_option(
             "--orders", orders_list,
             "comma-separated RDP orders in (1, 1e5] (default: 1.1..10.9 by 0.1, 11..63, 128, 256, "
             "512, 1024: the defaults of dp_accounting and Opacus)")
          ->check(valid_orders());
  auto* sampling_opt =
      app.add_option(
             "--sampling", sampling_name,
             "poisson: each record joins a step with probability Q (add/remove-one neighbours); "
             "without-replacement: a fixed batch of Q*N records (replace-one neighbours: a step's "
             "sum moves "
             "by up to twice the clip norm, so every accountant reads SIGMA/2 per unit "
             "sensitivity)")
          ->capture_default_str()
          ->check(CLI::IsMember({"poisson", "without-replacement"}));
  auto* fail_opt = app.add_option("--fail-above", fail_above,
                                  "exit 3 (and print nothing) when eps > X (inf: never)")
                       ->check(cli::epsilon());
  std::string empirical_path, cover_name = "backward";
  EmpiricalCompositionOptions empirical;
  auto* empirical_opt =
      app.add_option("--empirical", empirical_path,
                     "CSV round,epsilon of per-round empirical eps (000's eps_r; - = stdin): print "
                     "000 Alg. 2's eps_hat for the run (--q, --rounds, --round-delta, --delta)");
  auto* rounds_opt =
      app.add_option("--rounds", empirical.total_rounds, "--empirical: the run's rounds R")
          ->check(CLI::Range(1LL, std::numeric_limits<long long>::max()));
  auto* round_delta_opt =
      app.add_option("--round-delta", empirical.round_delta,
                     "--empirical: the delta of each eps_r (000: 1/n for n scores)")
          ->check(cli::open_unit_interval());
  auto* cover_opt =
      app.add_option(
             "--cover", cover_name,
             "--empirical: rounds each audit stands for: backward (since the previous audit, "
             "000's code) | forward (until the next, Alg. 2 as printed)")
          ->capture_default_str()
          ->check(CLI::IsMember({"backward", "forward"}));
  auto* floor_opt =
      app.add_option("--eps-floor", empirical.floor, "--empirical: GetNoise's floor on eps_r")
          ->capture_default_str()
          ->check(cli::positive());
  auto* sigma_inf_opt =
      app.add_option("--sigma-if-inf", empirical.sigma_if_inf,
                     "--empirical: the run's noise multiplier, for an infinite eps_r")
          ->check(cli::positive());
  auto* lattice_opt =
      app.add_option(
             "--lattice", lattice,
             "--accountant pld: the lattice spacing of the privacy loss, fixed (dp_accounting's "
             "value_discretization_interval; coarser: faster, a wider interval, still sound). "
             "Default: "
             "chosen from the run, an interval about 1e-4 of eps wide")
          ->check(cli::positive());
  auto* threads_opt =
      app.add_option(
             "--threads", threads,
             "threads over distinct segments (RDP, PLD); 0 = all cores (same output for any count)")
          ->capture_default_str()
          ->check(cli::thread_count());
  std::string tradeoff_path;
  auto* tradeoff_opt = app.add_option(
      "--tradeoff", tradeoff_path,
      "write FILE (- = stdout), CSV fpr,fnr: the vertices of the f-DP trade-off curve "
      "the accountant certifies (pld or rdp), the envelope of its (eps, delta) pairs, "
      "for eps-from-scores --against-curve; no --delta (every delta is in it)");
  auto* json_opt = app.add_flag(
      "--json", json,
      "print one JSON object: eps, the accountant's details (the PLD interval and the RDP "
      "value with --accountant pld), delta, and the inputs");

  return cli::run(app, argc, argv, [&]() -> int {
    const auto budget = fail_opt->count() ? std::optional(fail_above) : std::nullopt;
    const Sampling sampling =
        sampling_name == "poisson" ? Sampling::poisson : Sampling::without_replacement;
    if (orders_opt->count()) orders = parse_orders(orders_list);
    if (accountant == "gdp")
      cli::forbid_options({orders_opt, threads_opt}, "with --accountant gdp");
    if (accountant != "pld") cli::forbid_options({lattice_opt}, "without --accountant pld");
    if (tradeoff_opt->count())
      cli::forbid_options({delta_opt, json_opt, fail_opt},
                          "with --tradeoff (the curve holds every (eps, delta))");
    else
      cli::require_options({delta_opt}, "(or give --tradeoff)");
    AtomicOutput out("-");
    if (empirical_opt->count()) {
      // 000 Alg. 2: eps_r -> sigma_r -> RDP over the rounds each audit covers.
      cli::forbid_options({sigma_opt, steps_opt, eps_opt, events_opt, sampling_opt, orders_opt,
                           threads_opt, tradeoff_opt},
                          "with --empirical");
      cli::require_options({q_opt, rounds_opt, round_delta_opt}, "with --empirical");
      if (accountant != "rdp")
        throw UsageError("--empirical composes with RDP, as 000", "--accountant");
      empirical.q = q;
      empirical.delta = delta;
      empirical.cover = cover_name == "backward" ? AuditCover::backward : AuditCover::forward;
      const EmpiricalComposition e =
          compose_empirical(read_audits(empirical_path, empirical.total_rounds), empirical);
      cli::check_budget(budget, e.epsilon, "eps");
      Json report{{"eps_hat", json_number(e.epsilon)},
                  {"sigma_r", e.sigma},
                  {"rounds_covered", e.covered},
                  {"cover", cover_name},
                  {"q", q},
                  {"rounds", empirical.total_rounds},
                  {"round_delta", empirical.round_delta},
                  {"delta", delta}};
      report["running_eps_hat"] = Json::array();
      for (double v : e.running_eps) report["running_eps_hat"].push_back(json_number(v));
      out.stream() << (json ? json_line(report) : format_number(e.epsilon) + "\n");
      out.commit();
      return cli::kExitOk;
    }
    cli::forbid_options({rounds_opt, round_delta_opt, cover_opt, floor_opt, sigma_inf_opt},
                        "without --empirical");
    if (eps_opt->count()) {
      const std::string mode = "with --eps";
      cli::forbid_options({sigma_opt, events_opt, fail_opt, tradeoff_opt}, mode);
      cli::require_options({q_opt, steps_opt}, mode);
      if (accountant == "gdp" && q < 1)
        cli::note(
            app, "GDP's CLT is an approximation, not a bound: the noise it gives may be too small");
      PldOptions pld_options;
      pld_options.threads = threads;
      pld_options.lattice = lattice;
      const double s =
          accountant == "pld"   ? pld_sigma_for_epsilon(eps, q, steps, delta, pld_options, sampling)
          : accountant == "gdp" ? gdp_sigma_for_epsilon(eps, q, steps, delta, sampling)
                                : rdp_sigma_for_epsilon(eps, q, steps, delta, orders, sampling);
      out.stream() << (json ? json_line({{"sigma", s},
                                         {"eps", eps},
                                         {"q", q},
                                         {"steps", steps},
                                         {"delta", delta},
                                         {"sampling", sampling_name},
                                         {"accountant", accountant}})
                            : format_number(s) + "\n");
      out.commit();
      return cli::kExitOk;
    }
    std::vector<RdpEvent> events;
    if (events_opt->count()) {
      cli::forbid_options({sigma_opt, q_opt, steps_opt}, "with --events");
      events = read_events(events_path, sampling);
    } else {
      cli::require_options({sigma_opt, q_opt, steps_opt}, "(or give --events)");
      events = {{sigma, q, steps, sampling}};
    }
    if (tradeoff_opt->count()) {
      // The f-DP curve the accountant certifies (lib/accounting/tradeoff_curve.hpp).
      if (accountant == "gdp")
        throw UsageError(
            "--tradeoff writes a curve the accountant certifies: pld or rdp (GDP's CLT is an "
            "approximation, not a bound)",
            "--accountant");
      PldOptions pld_options;
      pld_options.threads = threads;
      pld_options.lattice = lattice;
      write_whole(
          tradeoff_path,
          tradeoff_curve_csv(accountant == "pld" ? pld_tradeoff_curve(events, pld_options)
                                                 : rdp_tradeoff_curve(events, orders, threads)));
      return cli::kExitOk;
    }
    long long total_steps = 0;
    for (const auto& e : events) total_steps += e.steps;
    Json report{{"accountant", accountant},
                {"delta", delta},
                {"segments", events.size()},
                {"steps", total_steps},
                {"sampling", sampling_name}};
    double printed = 0;
    if (accountant == "gdp") {
      const GdpMu g = gdp_mu(events);
      printed = gdp_epsilon(g.mu, delta);
      if (!g.exact)
        cli::note(app,
                  "GDP's central limit theorem is an approximation, not a bound (it can fall below "
                  "the true eps); "
                  "--accountant pld gives a bound");
      report["mu"] = json_number(g.mu);
      report["exact"] = g.exact;
    } else if (accountant == "pld") {
      const AnalyticEpsilon a = analytic_epsilon(events, delta, orders, threads, lattice);
      if (a.rdp.chord) cli::note(app, kChordNote);
      printed = a.headline;
      if (!a.pld_note.empty()) cli::note(app, a.pld_note);
      report["pld"] = a.pld ? Json{{"upper", json_number(a.pld->upper)},
                                   {"lower", json_number(a.pld->lower)},
                                   {"lattice", a.pld_lattice}}
                            : Json();
      report["rdp"] = {
          {"eps", json_number(a.rdp.epsilon)}, {"order", a.rdp.order}, {"orders", orders.size()}};
      report["headline"] = a.headline_accountant;
    } else {
      const RdpResult r = rdp_epsilon(events, delta, orders, threads);
      if (r.chord) cli::note(app, kChordNote);
      printed = r.epsilon;
      report["order"] = r.order;
      report["orders"] = orders.size();
    }
    cli::check_budget(budget, printed, "eps");
    report["eps"] = json_number(printed);
    out.stream() << (json ? json_line(report) : format_number(printed) + "\n");
    out.commit();
    return cli::kExitOk;
  });
}
