#include "release.hpp"

#include <cmath>
#include <limits>
#include <ostream>
#include <string>

#include "accounting/mixture_epsilon.hpp"
#include "accounting/run_accountant.hpp"
#include "cli/tool.hpp"
#include "compose.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "io/json.hpp"
#include "options.hpp"

namespace dpaudit::rdp_compose {

namespace {

const char* kHeuristic =
    "heuristic target, not a bound (Steinke et al. 2025, linear losses; Annamalai 2024 "
    "constructs a loss under which the final iterate leaks as much as all of them)";

Json interval_json(const std::optional<PldInterval>& i, double lattice) {
  if (!i) return Json();
  return {{"upper", json_number(i->upper)}, {"lower", json_number(i->lower)}, {"lattice", lattice}};
}

// The mixture's eps (lib/accounting/mixture_epsilon.hpp), its note passed on.
MixtureEpsilon mixture(const Options& o, const std::vector<AccountingEvent>& events,
                       const Note& note) {
  MixtureEpsilon m = mixture_epsilon(events, o.delta, o.accounting.threads, o.accounting.lattice);
  if (!m.note.empty()) note(m.note);
  return m;
}

// The all-iterates number: with micro-batches the mixture PLD's upper end, otherwise the run
// accountant's headline; its JSON (eps, accountant, the PLD interval where there is one).
Json all_iterates(const Options& o, const std::vector<AccountingEvent>& events, double& eps,
                  const Note& note) {
  if (o.release.micro > 1) {
    const MixtureEpsilon m = mixture(o, events, note);
    eps = m.epsilon;
    return {{"eps", json_number(eps)},
            {"accountant", "pld"},
            {"pld", interval_json(m.pld, m.pld_lattice)}};
  }
  const RunEpsilon r = run_epsilon(events, o.delta, o.accounting);
  if (!r.pld_note.empty()) note(r.pld_note);
  eps = r.epsilon;
  Json j{{"eps", json_number(eps)}, {"accountant", accountant_name(r.accountant)}};
  if (r.pld) j["pld"] = interval_json(r.pld, r.pld_lattice);
  return j;
}

}  // namespace

double released_epsilon(const Options& o, const std::vector<AccountingEvent>& segments,
                        double delta, const Note& note) {
  Options at = o;
  at.delta = delta;
  double eps = 0;
  if (o.release.final_only) return mixture(at, released_events(at, segments), note).epsilon;
  all_iterates(at, released_events(at, segments), eps, note);
  return eps;
}

void declare_release(CLI::App& app, ReleaseLine& c) {
  c.release_opt =
      app.add_option("--release", c.release,
                     "all: every iterate is released (the bound); final: only the final model, "
                     "and the last-iterate heuristic of Steinke et al. 2025 (N(0, STEPS SIGMA^2) "
                     "against N(K, STEPS SIGMA^2), K ~ Binomial(STEPS, Q): a target for a "
                     "final-model audit, not a bound) is printed below the all-iterates bound")
          ->capture_default_str()
          ->check(CLI::IsMember({"all", "final"}));
  c.accumulate =
      app.add_option("--accumulate", c.micro,
                     "gradient accumulation: each noisy step sums M micro-batches, each "
                     "Poisson-sampled at rate Q, so a record enters it K ~ Binomial(M, Q) times "
                     "(a mixture of Gaussians; --accountant pld)")
          ->capture_default_str()
          ->check(CLI::Range(1LL, std::numeric_limits<long long>::max()));
}

ReleaseOptions validate_release(const CommandLine& c, const Options& o) {
  ReleaseOptions r;
  r.final_only = c.release_line.release == "final";
  r.micro = c.release_line.micro;
  if (!r.active()) return r;
  const std::string mode = r.final_only ? "with --release final" : "with --accumulate";
  cli::forbid_options({c.eps, c.empirical, c.fail}, mode);
  if (o.sampling != Sampling::poisson)
    throw UsageError(mode.substr(5) + " needs --sampling poisson");
  const Accountant a = *o.accounting.accountant;
  if (c.tradeoff->count() && a != Accountant::pld)
    throw UsageError("--tradeoff " + mode +
                     " needs --accountant pld (the curve of a mixture of Gaussians)");
  if (r.micro > 1 && a != Accountant::pld)
    throw UsageError(
        "--accumulate needs --accountant pld (a mixture of Gaussians: only the PLD accounts it)");
  if (r.final_only) {
    cli::forbid_options({c.events}, mode);
    if (a == Accountant::gdp)
      throw UsageError(
          "--release final prints the all-iterates bound beside the heuristic: pld or rdp (GDP's "
          "CLT is an approximation)");
  }
  return r;
}

std::vector<AccountingEvent> released_events(const Options& o,
                                             std::vector<AccountingEvent> segments) {
  if (o.release.final_only) return {last_iterate_event(o.sigma, o.q, o.steps, o.release.micro)};
  for (AccountingEvent& e : segments) e.micro = o.release.micro;
  return segments;
}

void release_epsilon(const Options& o, const std::vector<AccountingEvent>& segments,
                     std::ostream& out, const Note& note) {
  std::vector<AccountingEvent> events = segments;
  long long total_steps = 0;
  for (AccountingEvent& e : events) {
    e.micro = o.release.micro;
    total_steps += e.steps;
  }
  double all = 0;
  Json report{{"delta", o.delta},
              {"micro_batches", o.release.micro},
              {"sampling", sampling_name(o.sampling)},
              {"segments", events.size()},
              {"steps", total_steps},
              {"all_iterates", all_iterates(o, events, all, note)}};
  if (!o.release.final_only) {  // the one number, its fields at the top
    for (const auto& [key, value] : report["all_iterates"].items()) report[key] = value;
    report.erase("all_iterates");
    out << (o.json ? json_line(report) : format_number(all) + "\n");
    return;
  }
  // The final model after T steps of M micro-batches.
  const MixtureEpsilon last = mixture(o, released_events(o, segments), note);
  report["release"] = "final";
  report["last_iterate"] = {{"eps", json_number(last.epsilon)},
                            {"pld", interval_json(last.pld, last.pld_lattice)},
                            {"what", kHeuristic}};
  const std::string bound =
      "upper bound (" + report["all_iterates"]["accountant"].get<std::string>() + ")";
  out << (o.json ? json_line(report)
                 : format_number(all) + " all iterates: " + bound + "\n" +
                       format_number(last.epsilon) +
                       " last iterate: heuristic target, not a bound (Steinke et al. 2025)\n");
}

}  // namespace dpaudit::rdp_compose
