#include "tool.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "accounting/tradeoff_curve.hpp"
#include "cli/gate.hpp"
#include "cli/output.hpp"
#include "cli/tool.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "io/atomic_output.hpp"
#include "io/csv.hpp"
#include "io/scores_reader.hpp"
#include "output.hpp"
#include "stats/empirical_curve.hpp"
#include "stats/estimate.hpp"

namespace dpaudit::eps_from_scores {
namespace {

const char* kTool = "eps-from-scores";

// The library's parameters as flags: option_flag's, but for the three named otherwise.
ParameterSpelling flag_spelling(const Options& o) {
  return [&o](const std::string& name) -> std::string {
    if (name == "budget") return "--fail-above";
    if (name == "negated") return "--negate";
    if (name == "details") return o.json ? "--json" : o.report ? "--report" : "--json and --report";
    return cli::option_flag(name);
  };
}

// --guesses K or K+:K- (whole numbers).
std::pair<std::size_t, std::size_t> parse_guesses(const std::string& text) {
  const auto whole = [&](const std::string& s) {
    if (s.empty() || s.size() > 15 || s.find_first_not_of("0123456789") != std::string::npos)
      throw UsageError(fmt::format("'{}' is not K or K+:K- (whole numbers)", text), "--guesses");
    return std::size_t(std::stoull(s));
  };
  const auto colon = text.find(':');
  if (colon == std::string::npos) return {whole(text), 0};
  return {whole(text.substr(0, colon)), whole(text.substr(colon + 1))};
}

// --tpr-at: comma-separated false-positive rates in [0,1], every item present ("0.1,,1"
// is an error, not two targets) and none repeated (each is a JSON key).
std::vector<double> parse_fpr_targets(const std::string& list) {
  std::vector<double> targets;
  for (const std::string& item : cli::comma_items(list)) {
    const auto v = parse_finite(item);
    if (!v || !(*v >= 0 && *v <= 1))
      throw UsageError(
          fmt::format("'{}' is not a false-positive rate in [0,1] (in '{}')", item, list),
          "--tpr-at");
    if (std::find(targets.begin(), targets.end(), *v) != targets.end())
      throw UsageError(fmt::format("{} is listed twice", item), "--tpr-at");
    targets.push_back(*v);
  }
  return targets;
}

// The request with its parsed texts, validated: every rule that needs no data.
EstimateRequest validated_request(const Options& o) {
  EstimateRequest r = o.request;
  if (o.decisions) r.input = EstimateInput::decisions;
  r.against_curve = o.against_curve.has_value();
  r.budget = o.fail_above.has_value();
  r.details = o.json || o.report;
  // The rules see these two as given; their texts are parsed after the rules, as ever (the
  // guesses after the scores are read).
  if (o.tpr_at) r.tpr_at.emplace();
  if (o.guesses) r.guesses.emplace();
  validate(r);
  if (o.tpr_at) r.tpr_at = parse_fpr_targets(*o.tpr_at);
  const Estimator* e = find_estimator(r.method_name());  // none: the curve test
  const bool rate_based = !e || e->method;
  if (rate_based && !o.in_npy.empty() && o.out_npy.empty() && !r.has_null())
    throw UsageError("--in needs --out (or --null-dim)");
  return r;
}

// The files as data errors name them: "stdin" for "-", several joined by ", ".
std::string source_names(const std::vector<std::string>& files) {
  std::vector<std::string> names;
  for (const std::string& f : files) names.push_back(f == "-" ? "stdin" : f);
  return fmt::format("{}", fmt::join(names, ", "));
}

// The data the request's input names, read.
void read_data(const Options& o, EstimateRequest& r, std::istream& in) {
  const std::vector<std::string>& files = o.decisions ? *o.decisions : o.scores;
  r.source = source_names(!o.in_npy.empty() ? std::vector<std::string>{o.in_npy} : files);
  if (o.against_curve) {
    const bool stdin_scores = o.in_npy.empty() && std::count(files.begin(), files.end(), "-") > 0;
    if (*o.against_curve == "-" && (o.in_npy == "-" || stdin_scores))
      throw UsageError("the scores and the curve cannot both be stdin");
    r.curve_data = read_tradeoff_curve(*o.against_curve);
  }
  const bool null = r.has_null();
  const ScoreReadOptions read{r.negated, !null, null, r.null_dim.value_or(0)};
  if (r.input == EstimateInput::decisions)
    r.decisions = read_decisions_csv(*o.decisions, in);
  else if (r.input == EstimateInput::rounds)
    r.rounds = score_sets(read_scores_csv_by_round(o.scores, read, in));
  else
    r.scores = ScoreSet(!o.in_npy.empty() ? read_scores_npy(o.in_npy, o.out_npy, read)
                                          : read_scores_csv(o.scores, read, in));
}

// --roc-band and --eps-delta (stats/empirical_curve.hpp), at --alpha; each file whole.
void write_curves(const Options& o, const EstimateRequest& r) {
  if (!o.roc_band && !o.eps_delta) return;
  const std::vector<BandPoint> band = roc_band(r.scores, r.alpha);
  if (o.roc_band) {
    std::string text = "threshold,fpr,tpr,fpr_hi,tpr_lo\n";
    for (const BandPoint& p : band)
      text += fmt::format("{},{},{},{},{}\n", format_number(p.threshold), format_number(p.fpr),
                          format_number(p.tpr), format_number(p.fpr_hi), format_number(p.tpr_lo));
    write_whole(*o.roc_band, text);
  }
  if (o.eps_delta) {
    std::string text = "delta,eps_lo\n";
    for (double delta : delta_grid())
      text +=
          fmt::format("{},{}\n", format_number(delta), format_number(band_epsilon(band, delta)));
    write_whole(*o.eps_delta, text);
  }
}

RunDescription described(const EstimateRequest& r, const Estimate& e) {
  RunDescription run;
  run.method_name = e.method;
  run.thresholds = e.thresholds;
  run.one_sided = r.one_sided;
  run.negated = r.negated;
  run.alpha = r.alpha;
  run.null = e.null;
  run.guarantee = e.guarantee;
  return run;
}

int estimate_and_print(const Options& o, std::istream& in, std::ostream& out, std::ostream& err) {
  EstimateRequest r = validated_request(o);
  read_data(o, r, in);
  if (o.guesses) r.guesses = parse_guesses(*o.guesses);
  const Estimate e = estimate(r);
  if (!o.quiet)  // after the estimate: an error is then the only line on stderr
    for (const std::string& n : e.notes)
      cli::note(err, kTool, render_parameters(n, flag_spelling(o)));
  const RunDescription run = described(r, e);
  const auto* test = std::get_if<CurveTestResult>(&e.result);
  if (test && o.fail_on_refute && test->refuted)
    throw cli::Refusal(curve_refutation(*test, run, *o.against_curve), r.source);
  // The budget, else the note on what the number is when it is not a plain bound or
  // estimate for every mechanism (the budget's line says it instead), then the output.
  const auto note = guarantee_note(e.guarantee, "this epsilon");
  if (!test)
    cli::check_budget(o.fail_above, e.epsilon, "epsilon",
                      note ? guarantee_name(e.guarantee.kind) + ", assumes " +
                                 assumption_name(e.guarantee.assumes)
                           : "",
                      r.source);
  if (note && !o.quiet) cli::note(err, kTool, render_parameters(*note, flag_spelling(o)));
  write_curves(o, r);
  cli::write_output(
      o.output,
      estimate_text(e, run, cli::output_format(o.json, o.report), o.against_curve.value_or("")),
      out);
  return 0;
}

}  // namespace

int run(const Options& options, std::istream& in, std::ostream& out, std::ostream& err) {
  return cli::guarded(
      kTool, err,
      [&] {
        return options.sequential ? run_sequential(*options.sequential, in, out, err)
                                  : estimate_and_print(options, in, out, err);
      },
      flag_spelling(options));
}

}  // namespace dpaudit::eps_from_scores
