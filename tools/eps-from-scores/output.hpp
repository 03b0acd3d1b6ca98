// How eps-from-scores prints an estimate: the number alone, one JSON object, or a
// short table (--report). Thresholds are shown in the input's own units.
#pragma once
#include <map>
#include <optional>
#include <string>

#include "cli/output.hpp"
#include "io/json.hpp"
#include "stats/estimate.hpp"

namespace dpaudit::eps_from_scores {

// What the output names besides the numbers.
struct RunDescription {
  std::string method_name;  // the estimator's name, e.g. "clopper-pearson"
  std::string thresholds;  // "bonferroni", "max", "uncorrected", "split", "multi-split", "fixed" or
                           // "" (gauss-fit, decisions, one-run's --guesses)
  bool one_sided = false;
  bool negated = false;  // scores were negated: a threshold t is the rule score <= -t
  double alpha = 0;      // shown for the confidence-bound methods only
  std::optional<CosineNull> null;
  Guarantee
      guarantee;  // what the printed epsilon is and assumes (gdp: its eps; its mu assumes nothing)
};

Json result_json(const ScoreEstimate& result, const RunDescription& run);
std::string result_report(const ScoreEstimate& result, const RunDescription& run);

Json per_round_json(const RoundEstimates& rounds, const RunDescription& run);
std::string per_round_report(const RoundEstimates& rounds, const RunDescription& run);
// The default per-round output: CSV `round,epsilon`.
std::string per_round_csv(const RoundEstimates& rounds);

// --method one-run (Steinke, Nasr & Jagielski 2023) and one-run-fdp (Mahloujifar et al. 2025).
Json one_run_json(const OneRunEstimate& e, const OneRunOptions& options, const RunDescription& run);
std::string one_run_report(const OneRunEstimate& e, const OneRunOptions& options,
                           const RunDescription& run);

// --method canife: CSV round,epsilon,eps_lo,eps_hi.
std::string canife_csv(const std::map<double, CanifeEpsilon>& rounds);

// --method gdp (Nasr et al. 2023).
Json gdp_json(const GdpAuditEstimate& e, const RunDescription& run);
std::string gdp_report(const GdpAuditEstimate& e, const RunDescription& run);

// --against-curve: the scores (or decisions) tested against a claimed trade-off curve read
// from curve_path (stats/curve_test.hpp); the refutation's one line for --fail-on-refute.
Json curve_test_json(const CurveTestResult& r, const RunDescription& run,
                     const std::string& curve_path);
std::string curve_test_report(const CurveTestResult& r, const RunDescription& run,
                              const std::string& curve_path);
std::string curve_refutation(const CurveTestResult& r, const RunDescription& run,
                             const std::string& curve_path);

// Any estimate in `format` (canife: its CSV always); `curve_path` names the curve of the
// curve test.
std::string estimate_text(const Estimate& e, const RunDescription& run, cli::OutputFormat format,
                          const std::string& curve_path);

}  // namespace dpaudit::eps_from_scores
