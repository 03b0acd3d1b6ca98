#include "compose.hpp"

#include <ostream>
#include <vector>

#include "accounting/accounting_csv.hpp"
#include "cli/gate.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "io/atomic_output.hpp"
#include "io/csv.hpp"
#include "io/json.hpp"
#include "shuffle.hpp"
#include "stats/empirical_curve.hpp"

namespace dpaudit::rdp_compose {

namespace {

const char* kChordNote =
    "the RDP series of fractional orders lost its digits at this noise (A - 1 below 1e-10 of its "
    "terms): those "
    "orders use the chord between the neighbouring integer orders, a sound upper bound";

Accountant accountant_of(const Options& o) {
  return *o.accounting.accountant;
}

void print(const Options& o, const Json& report, double number, std::ostream& out) {
  out << (o.json ? json_line(report) : format_number(number) + "\n");
}

// Maddock et al. 2023 (CANIFE), Alg. 2: eps_r -> sigma_r -> RDP over the rounds each audit
// covers.
void empirical(const Options& o, std::istream& in, std::ostream& out) {
  CsvReader csv(o.empirical_path, in);
  const EmpiricalComposition e =
      compose_empirical(read_audit_epsilons(csv, o.empirical.total_rounds), o.empirical);
  cli::check_budget(o.fail_above, e.epsilon, "eps");
  Json report{{"eps_hat", json_number(e.epsilon)},
              {"sigma_r", e.sigma},
              {"rounds_covered", e.covered},
              {"cover", o.empirical.cover == AuditCover::backward ? "backward" : "forward"},
              {"q", o.q},
              {"rounds", o.empirical.total_rounds},
              {"round_delta", o.empirical.round_delta},
              {"delta", o.delta}};
  report["running_eps_hat"] = Json::array();
  for (double v : e.running_eps) report["running_eps_hat"].push_back(json_number(v));
  print(o, report, e.epsilon, out);
}

void calibrate(const Options& o, std::ostream& out, const Note& note) {
  if (accountant_of(o) == Accountant::gdp && o.q < 1)
    note("GDP's CLT is an approximation, not a bound: the noise it gives may be too small");
  RunModel model;
  model.sampling = o.sampling;
  model.q = o.q;
  model.steps = o.steps;
  const double s = run_noise_multiplier(model, o.eps, o.delta, o.accounting);
  print(o,
        {{"sigma", s},
         {"eps", o.eps},
         {"q", o.q},
         {"steps", o.steps},
         {"delta", o.delta},
         {"sampling", sampling_name(o.sampling)},
         {"accountant", accountant_name(accountant_of(o))}},
        s, out);
}

std::vector<AccountingEvent> segments(const Options& o, std::istream& in) {
  if (!o.events_path) return {{o.sigma, o.q, o.steps, o.sampling}};
  CsvReader csv(*o.events_path, in);
  return read_accounting_events(csv, o.sampling);
}

// --eps-delta: eps at each delta of stats/empirical_curve.hpp's grid, as the plain output
// would print it there (the empirical file of eps-from-scores --eps-delta has the same rows).
// The column says what the number is: delta,eps_upper (a bound) or, with --release final,
// delta,eps_heuristic (the last-iterate target, not a bound).
void eps_delta(const Options& o, const std::vector<AccountingEvent>& events, const Note& note) {
  std::string csv = o.release.final_only ? "delta,eps_heuristic\n" : "delta,eps_upper\n";
  for (double delta : delta_grid())
    csv +=
        format_number(delta) + "," + format_number(released_epsilon(o, events, delta, note)) + "\n";
  write_whole(o.eps_delta_path, csv);
}

void tradeoff(const Options& o, const std::vector<AccountingEvent>& events, std::ostream& out,
              const Note& note) {
  if (accountant_of(o) == Accountant::gdp)
    throw UsageError(
        "--tradeoff writes a curve the accountant certifies: pld or rdp (GDP's CLT is an "
        "approximation, not a bound)",
        "--accountant");
  const std::string csv =
      tradeoff_curve_csv(run_tradeoff_curve(released_events(o, events), o.accounting));
  if (!o.eps_delta_path.empty()) eps_delta(o, events, note);
  if (o.tradeoff_path.empty() || o.tradeoff_path == "-")
    out << csv;
  else
    write_whole(o.tradeoff_path, csv);
}

}  // namespace

void describe(const Options& o, const RunEpsilon& r, Json& report, const Note& note) {
  const auto orders = o.accounting.orders.size();
  if (r.gdp) {
    if (!r.gdp->exact)
      note(
          "GDP's central limit theorem is an approximation, not a bound (it can fall below the "
          "true eps); --accountant pld gives a bound");
    report["mu"] = json_number(r.gdp->mu);
    report["exact"] = r.gdp->exact;
    return;
  }
  if (r.rdp->chord) note(kChordNote);
  if (accountant_of(o) == Accountant::rdp) {
    report["order"] = r.rdp->order;
    report["orders"] = orders;
    return;
  }
  if (!r.pld_note.empty()) note(r.pld_note);
  report["pld"] = r.pld ? Json{{"upper", json_number(r.pld->upper)},
                               {"lower", json_number(r.pld->lower)},
                               {"lattice", r.pld_lattice}}
                        : Json();
  report["rdp"] = {
      {"eps", json_number(r.rdp->epsilon)}, {"order", r.rdp->order}, {"orders", orders}};
  report["headline"] = accountant_name(r.accountant);
}

namespace {

// What the gate's eps is: a bound or not, and the accountant that gave it (the headline's: pld's
// may be rdp's).
std::string what_eps_is(const RunEpsilon& r) {
  const std::string by = "by the " + accountant_name(r.accountant) + " accountant";
  if (r.gdp) return (r.gdp->exact ? "exact, " : "an approximation, not a bound, ") + by;
  return "upper bound, " + by;
}

void epsilon(const Options& o, const std::vector<AccountingEvent>& events, std::ostream& out,
             const Note& note) {
  long long total_steps = 0;
  for (const auto& e : events) total_steps += e.steps;
  Json report{{"accountant", accountant_name(accountant_of(o))},
              {"delta", o.delta},
              {"segments", events.size()},
              {"steps", total_steps},
              {"sampling", sampling_name(o.sampling)}};
  const RunEpsilon r = run_epsilon(events, o.delta, o.accounting);
  // The gate first: its line says what eps is, and is then the only line on stderr.
  cli::check_budget(o.fail_above, r.epsilon, "eps", what_eps_is(r));
  describe(o, r, report, note);
  report["eps"] = json_number(r.epsilon);
  print(o, report, r.epsilon, out);
}

}  // namespace

void compose(const Options& options, std::istream& in, std::ostream& out, const Note& note) {
  switch (options.mode) {
    case Mode::empirical:
      return empirical(options, in, out);
    case Mode::calibrate:
      return calibrate(options, out, note);
    case Mode::tradeoff:
      return tradeoff(options, segments(options, in), out, note);
    case Mode::epsilon:
      if (options.release.active())
        return release_epsilon(options, segments(options, in), out, note);
      return epsilon(options, segments(options, in), out, note);
    case Mode::shuffle:
      return shuffled(options, out, note);
    case Mode::balls_in_bins:
      return balls_in_bins(options, out, note);
  }
}

}  // namespace dpaudit::rdp_compose
