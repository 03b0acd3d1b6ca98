// One call from a request (stats/estimate_request.hpp) to an empirical epsilon with what it
// proves (stats/guarantee.hpp), and the table of estimators. Adding an estimator: its
// library function, one row of the table in estimate.cpp (name, what it accepts, its
// guarantee, how it runs), and any rule of its own in the row's check.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "stats/bootstrap.hpp"
#include "stats/canife_epsilon.hpp"
#include "stats/curve_test.hpp"
#include "stats/epsilon_estimators.hpp"
#include "stats/estimate_request.hpp"
#include "stats/gauss_fit_interval.hpp"
#include "stats/gdp_audit.hpp"
#include "stats/guarantee.hpp"
#include "stats/one_run.hpp"
#include "stats/score_summary.hpp"

namespace dpaudit {

// A bootstrap interval of a point estimate: gauss-fit's fit-region interval
// (stats/gauss_fit_interval.hpp), or the threshold estimate's BCa interval.
struct BootstrapResult {
  std::optional<GaussFitInterval> region;  // gauss-fit; else the two below
  BootstrapDistribution distribution;
  BcaInterval interval;
  double alpha = 0;  // two-sided 1 - alpha
  std::uint64_t seed = 0;
};

// A rate-based or gauss-fit estimate with its score summary (none for decisions, or
// without details) and its bootstrap interval.
struct ScoreEstimate {
  EpsilonEstimate estimate;
  std::optional<ScoreSummary> summary;
  std::optional<BootstrapResult> bootstrap;
};

// The one-run audit (Steinke, Nasr & Jagielski 2023; Mahloujifar, Melis & Chaudhuri 2025)
// with the options it ran with.
struct OneRunResult {
  OneRunEstimate estimate;
  OneRunOptions options;
};

using RoundEstimates = std::map<double, ScoreEstimate>;
using CanifeRounds = std::map<double, CanifeEpsilon>;

struct Estimate {
  std::string method;      // the estimator's name; "against-curve" for the curve test
  std::string thresholds;  // the strategy's name as it applies ("" where none does: gauss-fit,
                           // decisions, one-run's fixed guesses, canife)
  Guarantee guarantee;     // what `epsilon` is and assumes
  double epsilon = 0;      // the number a budget is checked against (per round: the largest)
  std::optional<CosineNull> null;
  std::vector<std::string> notes;  // for the user, patterns (core/error.hpp)
  std::variant<ScoreEstimate, RoundEstimates, OneRunResult, GdpAuditEstimate, CanifeRounds,
               CurveTestResult>
      result;
};

// What an estimator takes besides one set of scores.
enum EstimatorAccepts : unsigned {
  kAcceptsRounds = 1,      // scores per round
  kOnlyRounds = 2,         // scores per round only
  kAcceptsDecisions = 4,   // a game's decisions
  kAcceptsNull = 8,        // the cosine null as the out side
  kAcceptsBootstrap = 16,  // a bootstrap interval (point estimates)
  kAcceptsJackknife = 32,  // jackknife groups (the BCa interval)
  kAcceptsSummary = 64,    // the score summary (TPR at FPR, accuracies)
  kAcceptsGuesses = 128,   // fixed guess counts
  kAcceptsCurve = 256,     // a trade-off curve to test against
};

struct Estimator {
  const char* name;
  unsigned accepts;
  Guarantee (*guarantee)(const EstimateRequest&);
  Estimate (*run)(const EstimateRequest&);
  void (*check)(const EstimateRequest&);  // its own rules (validate() calls it); may be null
  // The rate-based estimators: estimate_epsilon's method (stats/epsilon_estimators.hpp).
  std::optional<Method> method = std::nullopt;
};

// Every estimator, in the order they are listed to users.
const std::vector<Estimator>& estimators();
// The estimator named `name`, or nullptr.
const Estimator* find_estimator(const std::string& name);
// The names of the estimators that accept all of `accepts`, joined by `separator`, the last
// by `last` ("a, b or c").
std::string estimator_names(unsigned accepts, const std::string& separator,
                            const std::string& last);

// The request's estimate: UsageError or DataError where the request and its
// data do not go together. Call validate(request) before reading the data.
Estimate estimate(const EstimateRequest& request);

}  // namespace dpaudit
