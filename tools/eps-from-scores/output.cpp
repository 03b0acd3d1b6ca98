#include "output.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <variant>

#include <fmt/format.h>

#include "core/format.hpp"

namespace dpaudit::eps_from_scores {
namespace {

// Scores were negated on input when lower meant "in": show values in input units.
double input_units(double x, const RunDescription& run) {
  return run.negated ? -x : x;
}

std::string rule_text(double threshold, const RunDescription& run) {
  return fmt::format("score {} {}",
                     run.negated ? "<=" : ">=", format_number(input_units(threshold, run)));
}

bool has_confidence(const RunDescription& run) {
  return run.method_name == "clopper-pearson" || run.method_name == "jeffreys";
}

// "guarantee" and "assumes" of the printed epsilon.
void guarantee_json(Json& j, const Guarantee& g) {
  j["guarantee"] = guarantee_name(g.kind);
  j["assumes"] = assumption_name(g.assumes);
}

std::string guarantee_text(const Guarantee& g) {
  return guarantee_name(g.kind) + ", assumes " + assumption_name(g.assumes);
}

Json gaussian_json(const Gaussian& g, const RunDescription& run) {
  return {{"mean", input_units(g.mean, run)}, {"std", g.stddev}};
}

Json side_json(const SideSummary& s, const RunDescription& run) {
  Json j = gaussian_json(s.fit, run);
  j["count"] = s.count;
  j["anderson_darling"] = s.anderson_darling ? Json(*s.anderson_darling) : Json(nullptr);
  return j;
}

// A best-accuracy rule; threshold +inf is "all out".
std::string accuracy_rule_text(const BestAccuracy& a, const RunDescription& run) {
  return std::isinf(a.threshold) ? "all out" : "in when " + rule_text(a.threshold, run);
}

Json accuracy_json(const BestAccuracy& a, const RunDescription& run) {
  return {{"value", a.value},
          {"threshold", json_number(input_units(a.threshold, run))},
          {"decision_rule", accuracy_rule_text(a, run)},
          {"lower_bound", a.lower_bound}};
}

// The best rule of a threshold sweep and its rates, shared by EpsilonEstimate and
// GdpAuditEstimate (same field names).
template <class Estimate>
void rule_json(Json& j, const Estimate& e, const RunDescription& run) {
  if (e.threshold) {
    j["threshold"] = input_units(*e.threshold, run);
    j["decision_rule"] = rule_text(*e.threshold, run);
  }
  j["thresholds_tried"] = e.thresholds_tried;
  j["fpr"] = e.fpr;
  j["fnr"] = e.fnr;
  j["fpr_bound"] = e.fpr_bound;
  j["fnr_bound"] = e.fnr_bound;
}

Json summary_json(const ScoreSummary& s, const RunDescription& run) {
  Json tpr = Json::object();
  for (const TprAtFpr& t : s.tpr_at_fpr) tpr[format_number(t.max_fpr)] = t.tpr;
  Json j = {{"auroc", s.auroc}, {"tpr_at_fpr", tpr}, {"in", side_json(s.in, run)}};
  if (s.out) j["out"] = side_json(*s.out, run);
  if (s.attack) {
    j["auroc_convex_hull"] = s.attack->auroc_convex_hull;
    j["max_accuracy"] = accuracy_json(s.attack->accuracy, run);
    j["max_balanced_accuracy"] = accuracy_json(s.attack->balanced_accuracy, run);
    j["accuracy_rules"] = s.attack->rules;
    j["accuracy_alpha"] = s.attack->alpha;
  }
  return j;
}

Json bootstrap_json(const BootstrapResult& b, const RunDescription& run) {
  if (b.region) {
    const GaussFitInterval& g = *b.region;
    const bool null = run.null.has_value();
    return {{"method", "fit-region"},
            {"replicates", g.replicates},
            {"confidence", 1 - b.alpha},
            {"lower", json_number(g.lower)},
            {"upper", json_number(g.upper)},
            {"radius", g.radius},
            {"parameters",
             null ? Json::array({"mean_in", "log_sd_in"}) : Json::array({"d", "log_sd_ratio"})},
            // In the input's units: --negate flips the first parameter's sign (a mean or d).
            {"center", {input_units(g.center[0], run), g.center[1]}},
            {"covariance",
             {{g.covariance[0], input_units(g.covariance[1], run)},
              {input_units(g.covariance[1], run), g.covariance[2]}}},
            {"replicate_mean", json_number(g.replicate_mean)},
            {"standard_error", json_number(g.standard_error)},
            {"seed", b.seed}};
  }
  const BootstrapDistribution& d = b.distribution;
  const BcaInterval& ci = b.interval;
  return {{"method", "BCa"},
          {"replicates", d.replicates.size()},
          {"confidence", 1 - b.alpha},
          {"lower", json_number(ci.lower.value)},
          {"upper", json_number(ci.upper.value)},
          {"lower_level", ci.lower.level},
          {"upper_level", ci.upper.level},
          {"lower_at_extreme", ci.lower.at_extreme},
          {"upper_at_extreme", ci.upper.at_extreme},
          {"z0", d.z0},
          {"acceleration", d.acceleration},
          {"accelerated", d.accelerated},
          {"standard_error", json_number(d.standard_error)},
          {"jackknife_groups", {{"in", d.jackknife_groups_in}, {"out", d.jackknife_groups_out}}},
          {"seed", b.seed}};
}

Json estimate_json(const ScoreEstimate& r, const RunDescription& run) {
  const EpsilonEstimate& e = r.estimate;
  Json j = {{"epsilon", json_number(e.epsilon)},
            {"delta", e.delta},
            {"n_in", e.n_in},
            {"n_out", e.n_out}};
  if (e.fit_in) {
    j["fit_in"] = gaussian_json(*e.fit_in, run);
    if (e.fit_out) j["fit_out"] = gaussian_json(*e.fit_out, run);
  } else {
    rule_json(j, e, run);
    if (e.splits) j["splits"] = e.splits;
    if (has_confidence(run)) j["alpha_per_rate"] = e.alpha_per_rate;
  }
  if (r.summary) j["summary"] = summary_json(*r.summary, run);
  if (r.bootstrap) j["bootstrap"] = bootstrap_json(*r.bootstrap, run);
  return j;
}

Json run_json(const RunDescription& run) {
  Json j = {{"method", run.method_name}, {"sides", run.one_sided ? "tpr-over-fpr" : "both"}};
  if (has_confidence(run)) j["alpha"] = run.alpha;
  if (!run.thresholds.empty()) j["thresholds"] = run.thresholds;
  guarantee_json(j, run.guarantee);
  if (run.negated) j["negated"] = true;
  if (run.null)
    j["null"] = {{"dim", run.null->dim},
                 {"kind", run.null->kind == NullKind::exact ? "exact" : "gaussian"}};
  return j;
}

void report_line(std::string& out, const std::string& name, const std::string& value) {
  out += fmt::format("{:<22}{}\n", name, value);
}

template <class Estimate>
void rule_report(std::string& out, const Estimate& e, const RunDescription& run) {
  if (e.threshold) report_line(out, "decision rule", "in when " + rule_text(*e.threshold, run));
  report_line(out, "FPR",
              fmt::format("{:.6g} observed, {:.6g} in the formula", e.fpr, e.fpr_bound));
  report_line(out, "FNR",
              fmt::format("{:.6g} observed, {:.6g} in the formula", e.fnr, e.fnr_bound));
}

std::string side_text(const SideSummary& s, const RunDescription& run) {
  return fmt::format("n {}  mean {:.6g}  std {:.6g}  Anderson-Darling {}", s.count,
                     input_units(s.fit.mean, run), s.fit.stddev,
                     s.anderson_darling ? fmt::format("{:.4g}", *s.anderson_darling) : "-");
}

}  // namespace

Json result_json(const ScoreEstimate& result, const RunDescription& run) {
  Json j = run_json(run);
  j.update(estimate_json(result, run));
  return j;
}

std::string result_report(const ScoreEstimate& r, const RunDescription& run) {
  const EpsilonEstimate& e = r.estimate;
  std::string out;
  std::string method = run.method_name;
  if (!run.thresholds.empty())
    method += fmt::format(" ({} over {} thresholds)", run.thresholds, e.thresholds_tried);
  if (e.splits) method += fmt::format(", median of {} splits", e.splits);
  if (run.null)
    method += fmt::format(", {} cosine null in {} dimensions",
                          run.null->kind == NullKind::exact ? "exact" : "Gaussian", run.null->dim);
  report_line(out, "method", method);
  report_line(out, "epsilon", format_number(e.epsilon));
  report_line(out, "guarantee", guarantee_text(run.guarantee));
  report_line(out, "delta", format_number(e.delta));
  if (has_confidence(run))
    report_line(out, "confidence",
                fmt::format("{:g}% (alpha {:g} per bounded rate)", 100 * (1 - run.alpha),
                            e.alpha_per_rate));
  if (e.fit_in) {
    report_line(
        out, "fit in",
        fmt::format("mean {:.6g}  std {:.6g}", input_units(e.fit_in->mean, run), e.fit_in->stddev));
    if (e.fit_out)
      report_line(out, "fit out",
                  fmt::format("mean {:.6g}  std {:.6g}", input_units(e.fit_out->mean, run),
                              e.fit_out->stddev));
  } else {
    rule_report(out, e, run);
  }
  if (r.bootstrap) {
    const BootstrapResult& b = *r.bootstrap;
    if (b.region)
      report_line(out, "bootstrap",
                  fmt::format("{:g}% fit region [{:.6g}, {:.6g}] (B {}, radius {:.4f})",
                              100 * (1 - b.alpha), b.region->lower, b.region->upper,
                              b.region->replicates, b.region->radius));
    else
      report_line(out, "bootstrap",
                  fmt::format("{:g}% BCa [{:.6g}, {:.6g}] (B {}, z0 {:.3f}, a {:.4f}{})",
                              100 * (1 - b.alpha), b.interval.lower.value, b.interval.upper.value,
                              b.distribution.replicates.size(), b.distribution.z0,
                              b.distribution.acceleration,
                              b.distribution.accelerated ? "" : ", not accelerated"));
  }
  if (r.summary) {
    const ScoreSummary& s = *r.summary;
    report_line(out, "AUROC", fmt::format("{:.6g}", s.auroc));
    if (s.attack)
      report_line(out, "AUROC (convex hull)", fmt::format("{:.6g}", s.attack->auroc_convex_hull));
    for (const TprAtFpr& t : s.tpr_at_fpr)
      report_line(out, fmt::format("TPR at FPR {:g}%", 100 * t.max_fpr),
                  fmt::format("{:.6g}", t.tpr));
    if (s.attack) {
      const auto accuracy_text = [&](const BestAccuracy& a) {
        return fmt::format("{:.6g} (>= {:.6g} at {:g}% over {} rules), {}", a.value, a.lower_bound,
                           100 * (1 - s.attack->alpha), s.attack->rules,
                           accuracy_rule_text(a, run));
      };
      report_line(out, "max accuracy", accuracy_text(s.attack->accuracy));
      report_line(out, "max balanced accuracy", accuracy_text(s.attack->balanced_accuracy));
    }
    report_line(out, "in scores", side_text(s.in, run));
    if (s.out) report_line(out, "out scores", side_text(*s.out, run));
  }
  return out;
}

Json per_round_json(const RoundEstimates& rounds, const RunDescription& run) {
  Json j = run_json(run);
  Json list = Json::array();
  double max_epsilon = 0;
  for (const auto& [round, r] : rounds) {
    Json one = {{"round", round}};
    one.update(estimate_json(r, run));
    list.push_back(one);
    max_epsilon = std::max(max_epsilon, r.estimate.epsilon);
  }
  j["max_epsilon"] = json_number(max_epsilon);
  j["rounds"] = list;
  return j;
}

std::string per_round_report(const RoundEstimates& rounds, const RunDescription& run) {
  std::string out = fmt::format("method {}{}; {}\n", run.method_name,
                                run.thresholds.empty() ? "" : " (" + run.thresholds + ")",
                                guarantee_text(run.guarantee));
  out += fmt::format("{:>10} {:>12} {:>12} {:>7} {:>7}  {}\n", "round", "epsilon", "delta", "n_in",
                     "n_out", "rule");
  for (const auto& [round, r] : rounds) {
    const EpsilonEstimate& e = r.estimate;
    out +=
        fmt::format("{:>10} {:>12.6g} {:>12.6g} {:>7} {:>7}  {}\n", format_number(round), e.epsilon,
                    e.delta, e.n_in, e.n_out, e.threshold ? rule_text(*e.threshold, run) : "-");
  }
  return out;
}

std::string per_round_csv(const RoundEstimates& rounds) {
  std::string out = "round,epsilon\n";
  for (const auto& [round, r] : rounds)
    out += format_number(round) + "," + format_number(r.estimate.epsilon) + "\n";
  return out;
}

namespace {

// The rule behind one-run's "out" guesses, score <= t, in input units.
std::string out_rule_text(double threshold, const RunDescription& run) {
  return fmt::format("score {} {}",
                     run.negated ? ">=" : "<=", format_number(input_units(threshold, run)));
}

}  // namespace

Json one_run_json(const OneRunEstimate& e, const OneRunOptions& options,
                  const RunDescription& run) {
  Json j = {{"method", run.method_name},      {"epsilon", json_number(e.epsilon)},
            {"delta", options.delta},         {"alpha", run.alpha},
            {"canaries", e.canaries},         {"guesses_in", e.guesses_in},
            {"guesses_out", e.guesses_out},   {"correct", e.correct},
            {"counts_tried", e.counts_tried}, {"alpha_per_count", e.alpha_per_count}};
  if (!run.thresholds.empty()) j["thresholds"] = run.thresholds;
  guarantee_json(j, run.guarantee);
  if (e.splits) j["splits"] = e.splits;
  if (options.test == OneRunTest::fdp)
    j["curve"] = options.curve == FdpCurve::gaussian ? "gaussian" : "dp";
  if (run.negated) j["negated"] = true;
  if (e.threshold_in) j["guess_in_rule"] = rule_text(*e.threshold_in, run);
  if (e.threshold_out) j["guess_out_rule"] = out_rule_text(*e.threshold_out, run);
  return j;
}

std::string one_run_report(const OneRunEstimate& e, const OneRunOptions& options,
                           const RunDescription& run) {
  std::string out;
  std::string method = run.method_name;
  if (options.test == OneRunTest::fdp)
    method += options.curve == FdpCurve::gaussian ? ", Gaussian curve" : ", (eps, delta) curve";
  if (!run.thresholds.empty())
    method += fmt::format(" ({} over {} guess counts)", run.thresholds, e.counts_tried);
  if (e.splits) method += fmt::format(", median of {} splits", e.splits);
  report_line(out, "method", method);
  report_line(out, "epsilon", format_number(e.epsilon));
  report_line(out, "guarantee", guarantee_text(run.guarantee));
  report_line(out, "delta", format_number(options.delta));
  report_line(
      out, "confidence",
      fmt::format("{:g}% (alpha {:g} per guess count)", 100 * (1 - run.alpha), e.alpha_per_count));
  report_line(out, "canaries", std::to_string(e.canaries));
  report_line(out, "guesses",
              fmt::format("{} in, {} out, {} correct", e.guesses_in, e.guesses_out, e.correct));
  if (e.threshold_in) report_line(out, "guess in when", rule_text(*e.threshold_in, run));
  if (e.threshold_out) report_line(out, "guess out when", out_rule_text(*e.threshold_out, run));
  return out;
}

Json gdp_json(const GdpAuditEstimate& e, const RunDescription& run) {
  Json j = {{"method", run.method_name},
            {"epsilon", json_number(e.epsilon)},
            {"mu", json_number(e.mu)},
            {"delta", e.delta},
            {"alpha", run.alpha},
            {"thresholds", run.thresholds},
            {"alpha_per_rate", e.alpha_per_rate},
            {"splits", e.splits},
            {"n_in", e.n_in},
            {"n_out", e.n_out}};
  guarantee_json(j, run.guarantee);
  const Guarantee mu = {run.guarantee.kind, Assumption::none};
  j["mu_guarantee"] = guarantee_name(mu.kind);
  j["mu_assumes"] = assumption_name(mu.assumes);
  rule_json(j, e, run);
  if (run.negated) j["negated"] = true;
  return j;
}

std::string gdp_report(const GdpAuditEstimate& e, const RunDescription& run) {
  std::string out;
  report_line(out, "method",
              fmt::format("{} ({} over {} thresholds{})", run.method_name, run.thresholds,
                          e.thresholds_tried,
                          e.splits ? fmt::format(", median of {} splits", e.splits) : ""));
  report_line(out, "epsilon", format_number(e.epsilon));
  report_line(out, "guarantee", guarantee_text(run.guarantee));
  report_line(out, "mu",
              format_number(e.mu) + (e.mu == 0 ? " (no rule refutes any mu-GDP claim)" : "") +
                  "; " + guarantee_text({run.guarantee.kind, Assumption::none}));
  report_line(out, "delta", format_number(e.delta));
  report_line(
      out, "confidence",
      fmt::format("{:g}% (alpha {:g} per bounded rate)", 100 * (1 - run.alpha), e.alpha_per_rate));
  rule_report(out, e, run);
  return out;
}

std::string canife_csv(const std::map<double, CanifeEpsilon>& rounds) {
  std::string text = "round,epsilon,eps_lo,eps_hi\n";
  for (const auto& [round, e] : rounds)
    text += fmt::format("{},{},{},{}\n", format_number(round), format_number(e.epsilon),
                        format_number(e.epsilon_lower), format_number(e.epsilon_upper));
  return text;
}

namespace {

// The curve's file as messages name it.
std::string curve_name(const std::string& path) {
  return path == "-" || path.empty() ? "stdin" : path;
}

// The rule as a phrase: "in when score >= t", or the game's own guesses.
std::string tested_rule_text(const CurveTestResult& r, const RunDescription& run) {
  return r.threshold ? "in when " + rule_text(*r.threshold, run) : "the game's guesses";
}

}  // namespace

Json curve_test_json(const CurveTestResult& r, const RunDescription& run,
                     const std::string& curve_path) {
  Json j = {{"result", r.refuted ? "refuted" : "consistent"},
            {"refuted", r.refuted},
            {"assumes", assumption_name(Assumption::none)},
            {"curve", curve_name(curve_path)},
            {"margin", r.margin},
            {"curve_at_fpr_bound", r.curve_at_bound},
            {"alpha", run.alpha},
            {"alpha_per_rate", r.alpha_per_rate},
            {"n_in", r.n_in},
            {"n_out", r.n_out}};
  j["thresholds"] = run.thresholds.empty() ? Json(nullptr) : Json(run.thresholds);
  rule_json(j, r, run);
  if (!r.threshold) j["decision_rule"] = tested_rule_text(r, run);
  if (r.splits) j["splits"] = r.splits;
  if (run.negated) j["negated"] = true;
  return j;
}

std::string curve_test_report(const CurveTestResult& r, const RunDescription& run,
                              const std::string& curve_path) {
  std::string out;
  std::string test = fmt::format("against the curve {} (assumes nothing about the mechanism)",
                                 curve_name(curve_path));
  if (!run.thresholds.empty())
    test += fmt::format(", {} over {} thresholds", run.thresholds, r.thresholds_tried);
  if (r.splits) test += fmt::format(", median of {} splits", r.splits);
  report_line(out, "test", test);
  report_line(out, "result", r.refuted ? "refuted" : "consistent");
  report_line(
      out, "confidence",
      fmt::format("{:g}% (alpha {:g} per bounded rate)", 100 * (1 - run.alpha), r.alpha_per_rate));
  report_line(out, "decision rule", tested_rule_text(r, run));
  report_line(out, "FPR", fmt::format("{:.6g} observed, {:.6g} upper bound", r.fpr, r.fpr_bound));
  report_line(out, "FNR", fmt::format("{:.6g} observed, {:.6g} upper bound", r.fnr, r.fnr_bound));
  report_line(out, "curve at FPR bound", fmt::format("{:.6g}", r.curve_at_bound));
  report_line(out, "margin", fmt::format("{:.6g} (curve - FNR bound; > 0 refutes)", r.margin));
  return out;
}

std::string curve_refutation(const CurveTestResult& r, const RunDescription& run,
                             const std::string& curve_path) {
  return fmt::format(
      "the claimed curve {} is refuted at alpha {}: FNR <= {:.6g} < f(FPR <= {:.6g}) = {:.6g} for "
      "the "
      "rule {}",
      curve_name(curve_path), format_number(run.alpha), r.fnr_bound, r.fpr_bound, r.curve_at_bound,
      tested_rule_text(r, run));
}

namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace

std::string estimate_text(const Estimate& e, const RunDescription& run, cli::OutputFormat format,
                          const std::string& curve_path) {
  const auto number = [&] { return format_number(e.epsilon) + "\n"; };
  return std::visit(
      Overloaded{
          [&](const ScoreEstimate& r) {
            return cli::format_output(
                format, number, [&] { return result_json(r, run); },
                [&] { return result_report(r, run); });
          },
          [&](const RoundEstimates& r) {
            return cli::format_output(
                format, [&] { return per_round_csv(r); }, [&] { return per_round_json(r, run); },
                [&] { return per_round_report(r, run); });
          },
          [&](const OneRunResult& r) {
            return cli::format_output(
                format, number, [&] { return one_run_json(r.estimate, r.options, run); },
                [&] { return one_run_report(r.estimate, r.options, run); });
          },
          [&](const GdpAuditEstimate& r) {
            return cli::format_output(
                format, number, [&] { return gdp_json(r, run); },
                [&] { return gdp_report(r, run); });
          },
          [&](const CanifeRounds& r) { return canife_csv(r); },
          [&](const CurveTestResult& r) {
            return cli::format_output(
                format, [&] { return std::string(r.refuted ? "refuted\n" : "consistent\n"); },
                [&] { return curve_test_json(r, run, curve_path); },
                [&] { return curve_test_report(r, run, curve_path); });
          },
      },
      e.result);
}

}  // namespace dpaudit::eps_from_scores
