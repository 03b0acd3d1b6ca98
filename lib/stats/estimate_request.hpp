// One request for an empirical epsilon: which estimator (stats/estimate.hpp's table), on
// which data (scores, scores per round, or a game's decisions), with which parameters,
// and the rules that say which parameters go together. A caller fills the parameters,
// calls validate() before reading the data (every rule that needs no data), then fills
// the data and calls estimate(); the rules that need the data (the null's dimension from
// the scores) are checked there.
//
// A parameter left unset (std::nullopt) is "not given": its default applies, and some
// combinations refuse a parameter only when it is given. Messages are UsageErrors that name
// parameters as core/error.hpp's patterns do, "{splits} is for {thresholds} multi-split":
// what() spells them in words ("the number of splits"); a binding renders them in its own
// spelling (a tool: its flags). A token is the request's field name ({method}, {delta},
// {null_dim}, {negated}, ...), or one of: {per} (input rounds), {decisions} (input
// decisions), {budget} and {details} (below).
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "accounting/cosine_null.hpp"
#include "accounting/tradeoff_curve.hpp"
#include "core/error.hpp"
#include "stats/one_run_fdp.hpp"
#include "stats/scores.hpp"
#include "stats/threshold_strategy.hpp"

namespace dpaudit {

enum class EstimateInput { scores, rounds, decisions };

struct EstimateRequest {
  // What to compute.
  std::optional<std::string> method;  // an estimator's name (stats/estimate.hpp); default:
                                      // gauss-fit with a null, else clopper-pearson
  bool against_curve = false;         // test the data against `curve_data` (no estimator, no delta)
  EstimateInput input = EstimateInput::scores;

  // Parameters.
  double alpha = 0.05;                        // 1 - confidence
  std::optional<double> delta;                // default 0; 1/n per round with `per`
  std::optional<ThresholdChoice> thresholds;  // default bonferroni
  std::optional<double> threshold;            // one fixed threshold, in the scores' units
  std::optional<std::uint64_t> seed;          // default 0
  std::optional<std::size_t> splits;          // default 100
  int threads = 1;                            // 0: all cores; results do not depend on it
  bool negated = false;    // the scores were negated when read (lower = in): so is `threshold`
  bool one_sided = false;  // only the TPR/FPR direction
  std::optional<std::size_t> null_dim;  // the out side is the cosine null in this dimension
  std::optional<NullKind> null;         // default exact; dim from the scores without null_dim
  std::optional<std::pair<std::size_t, std::size_t>> guesses;  // one-run: K+ in, K- out
  std::optional<FdpCurve> curve;                               // default gaussian
  std::size_t bootstrap = 0;                                   // replicates; 0: none
  std::optional<std::size_t> jackknife_groups;                 // default 1000
  std::optional<std::vector<double>> tpr_at;                   // default kSummaryFprs
  bool details = false;  // the caller shows the summary and the bootstrap, not the number alone
  bool budget = false;   // the caller checks the epsilon against a budget

  // The data (after validate()), as `input` says; `source` names them in data errors.
  ScoreSet scores;
  std::map<double, ScoreSet> rounds;
  DecisionCounts decisions;
  TradeoffCurve curve_data;
  std::string source;

  bool has_null() const { return null_dim.has_value() || null.has_value(); }
  // The method's name, its default resolved ("against-curve" for the curve test).
  std::string method_name() const;
  // The threshold strategy with its defaults (fixed when `threshold` is given).
  ThresholdStrategy strategy() const;
  // Its name as shown: "bonferroni", ..., "fixed".
  std::string strategy_name() const;
};

// Every rule that needs no data, in a fixed order: UsageError for the first broken one.
void validate(const EstimateRequest& request);

}  // namespace dpaudit
