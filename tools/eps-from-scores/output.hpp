// How eps-from-scores prints an estimate: the number alone, one JSON object, or a
// short table (--report). Thresholds are shown in the input's own units.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "io/json.hpp"
#include "stats/bootstrap.hpp"
#include "stats/canife_epsilon.hpp"
#include "stats/curve_test.hpp"
#include "stats/epsilon_estimators.hpp"
#include "stats/gauss_fit_interval.hpp"
#include "stats/gdp_audit.hpp"
#include "stats/guarantee.hpp"
#include "stats/one_run.hpp"
#include "stats/score_summary.hpp"

namespace dpaudit::eps_from_scores {

// What the output names besides the numbers.
struct RunDescription {
  Method method = Method::clopper_pearson;
  std::string method_name;  // as given on the command line, e.g. "clopper-pearson"
  std::string thresholds;  // "bonferroni", "max", "uncorrected", "split", "multi-split", "fixed" or
                           // "" (gauss-fit, decisions, one-run's --guesses)
  bool one_sided = false;
  bool negated = false;  // scores were negated: a threshold t is the rule score <= -t
  double alpha = 0;      // shown for the confidence-bound methods only
  std::optional<CosineNull> null;
  Guarantee
      guarantee;  // what the printed epsilon is and assumes (gdp: its eps; its mu assumes nothing)
};

// --bootstrap: the interval of the point estimate: gauss-fit's fit-region interval
// (stats/gauss_fit_interval.hpp), or the threshold estimate's BCa interval.
struct BootstrapResult {
  std::optional<GaussFitInterval> region;  // gauss-fit; else the two below
  BootstrapDistribution distribution;
  BcaInterval interval;
  double alpha = 0;  // two-sided 1 - alpha
  std::uint64_t seed = 0;
};

// One estimate with its summary (none for decisions) and its bootstrap interval.
struct Result {
  EpsilonEstimate estimate;
  std::optional<ScoreSummary> summary;
  std::optional<BootstrapResult> bootstrap;
};

Json result_json(const Result& result, const RunDescription& run);
std::string result_report(const Result& result, const RunDescription& run);

Json per_round_json(const std::map<double, Result>& rounds, const RunDescription& run);
std::string per_round_report(const std::map<double, Result>& rounds, const RunDescription& run);
// The default per-round output: CSV `round,epsilon`.
std::string per_round_csv(const std::map<double, Result>& rounds);

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

}  // namespace dpaudit::eps_from_scores
