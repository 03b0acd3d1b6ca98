// One request for an empirical epsilon: which estimator (stats/estimate.hpp's table), on
// which data (scores, scores per round, or a game's decisions), with which parameters,
// and the rules that say which parameters go together. A caller fills the parameters,
// calls validate() before reading the data (every rule that needs no data), then fills
// the data and calls estimate(); the rules that need the data (the null's dimension from
// the scores) are checked there.
//
// A parameter left unset (std::nullopt) is "not given": its default applies, and some
// combinations refuse a parameter only when it is given. Messages name parameters through
// patterns, "{splits} is for {thresholds} multi-split": what() spells them in words ("the
// number of splits"); a binding renders them in its own spelling (a tool: its flags).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
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

// The parameters a message can name; the pattern token is the name in braces.
enum class Parameter {
  method,            // {method}: the estimator
  against_curve,     // {against_curve}: test against a trade-off curve instead of estimating
  delta,             // {delta}
  null_dim,          // {null_dim}: the dimension of the cosine null
  null,              // {null}: the kind of the cosine null
  one_sided,         // {one_sided}
  per,               // {per}: one estimate per round
  budget,            // {budget}: a budget the caller checks the epsilon against
  bootstrap,         // {bootstrap}: bootstrap replicates
  tpr_at,            // {tpr_at}: the FPRs at which the summary gives the TPR
  guesses,           // {guesses}: one-run's guess counts
  thresholds,        // {thresholds}: the threshold strategy
  threshold,         // {threshold}: one fixed threshold
  seed,              // {seed}
  splits,            // {splits}: multi-split's number of splits
  curve,             // {curve}: one-run-fdp's trade-off curve
  jackknife_groups,  // {jackknife_groups}
  decisions,         // {decisions}: the data are a game's decisions
  details,           // {details}: the summary and description besides the number
  negated,           // {negated}: lower scores mean "in"
};

// How a binding spells a parameter in messages.
using ParameterNames = std::function<std::string(Parameter)>;
// The library's spelling: "the number of splits", "delta", ...
std::string parameter_words(Parameter p);
// `pattern` with every {token} of a Parameter replaced by names(p); other text as it is.
std::string render_parameters(const std::string& pattern, const ParameterNames& names);

// A usage error about parameters: what() in words; pattern() for a binding to render.
class RequestError : public UsageError {
 public:
  explicit RequestError(const std::string& pattern);
  const std::string& pattern() const { return pattern_; }

 private:
  std::string pattern_;
};

// RequestError "{p} cannot be used MODE" for the first parameter of `given` that is given.
void forbid_parameters(const std::vector<std::pair<Parameter, bool>>& given,
                       const std::string& mode);

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

// Every rule that needs no data, in a fixed order: RequestError for the first broken one.
void validate(const EstimateRequest& request);

}  // namespace dpaudit
