#include "stats/estimate_request.hpp"

#include "core/names.hpp"
#include "stats/estimate.hpp"

namespace dpaudit {
namespace {

struct ParameterText {
  const char* token;
  Parameter parameter;
  const char* words;
};

constexpr ParameterText kParameters[] = {
    {"{method}", Parameter::method, "the estimator"},
    {"{against_curve}", Parameter::against_curve, "the test against a trade-off curve"},
    {"{delta}", Parameter::delta, "delta"},
    {"{null_dim}", Parameter::null_dim, "the null's dimension"},
    {"{null}", Parameter::null, "the cosine null"},
    {"{one_sided}", Parameter::one_sided, "one-sided"},
    {"{per}", Parameter::per, "per"},
    {"{budget}", Parameter::budget, "a budget"},
    {"{bootstrap}", Parameter::bootstrap, "the bootstrap replicates"},
    {"{tpr_at}", Parameter::tpr_at, "the FPRs of the TPR summary"},
    {"{guesses}", Parameter::guesses, "the guess counts"},
    {"{thresholds}", Parameter::thresholds, "the threshold strategy"},
    {"{threshold}", Parameter::threshold, "a fixed threshold"},
    {"{seed}", Parameter::seed, "the seed"},
    {"{splits}", Parameter::splits, "the number of splits"},
    {"{curve}", Parameter::curve, "the trade-off curve"},
    {"{jackknife_groups}", Parameter::jackknife_groups, "the jackknife groups"},
    {"{decisions}", Parameter::decisions, "decisions"},
    {"{details}", Parameter::details, "the details"},
    {"{negated}", Parameter::negated, "negated scores"},
};

const Named<ThresholdChoice> kStrategyNames[] = {
    {"bonferroni", ThresholdChoice::bonferroni},   {"max", ThresholdChoice::max},
    {"uncorrected", ThresholdChoice::uncorrected}, {"split", ThresholdChoice::split},
    {"multi-split", ThresholdChoice::multi_split}, {"fixed", ThresholdChoice::fixed}};

// The rules before any estimator's own, as eps-from-scores has always checked them.
void check_general(const EstimateRequest& r, unsigned accepts) {
  const bool per = r.input == EstimateInput::rounds;
  if (r.splits && r.strategy().choice != ThresholdChoice::multi_split)
    throw RequestError("{splits} is for {thresholds} multi-split");
  if (r.curve && !(accepts & kAcceptsCurve))
    throw RequestError("{curve} is for {method} " + estimator_names(kAcceptsCurve, ", ", " or "));
  if (r.seed && r.threshold && r.bootstrap == 0)
    throw RequestError(
        "{seed} has nothing to seed with one fixed {threshold} (it seeds splits and "
        "{bootstrap})");
  if (r.against_curve)  // the curve test: no estimator, no delta, its own refutation
    forbid_parameters({{Parameter::method, r.method.has_value()},
                       {Parameter::delta, r.delta.has_value()},
                       {Parameter::null_dim, r.null_dim.has_value()},
                       {Parameter::null, r.null.has_value()},
                       {Parameter::one_sided, r.one_sided},
                       {Parameter::per, per},
                       {Parameter::budget, r.budget},
                       {Parameter::bootstrap, r.bootstrap > 0},
                       {Parameter::tpr_at, r.tpr_at.has_value()},
                       {Parameter::guesses, r.guesses.has_value()}},
                      "with {against_curve}");
}

void check_details(const EstimateRequest& r, unsigned accepts, const std::string& name) {
  const bool bootstrapped = r.bootstrap > 0;
  if (bootstrapped && !(accepts & kAcceptsBootstrap))
    throw RequestError("{bootstrap} is for point estimates (" +
                       estimator_names(kAcceptsBootstrap, ", ", ", ") + "); " + name +
                       " already gives a confidence bound");
  if (r.jackknife_groups && !(accepts & kAcceptsJackknife))
    throw RequestError(
        "{jackknife_groups} is for the BCa interval of {method} threshold (gauss-fit's interval "
        "has no jackknife)");
  if ((bootstrapped || r.tpr_at) && !r.details)
    throw RequestError(std::string(bootstrapped ? "{bootstrap}" : "{tpr_at}") +
                       " adds to {details}: give one");
  if (!(accepts & (kAcceptsSummary | kOnlyRounds)))
    forbid_parameters({{Parameter::tpr_at, r.tpr_at.has_value()}},
                      "with {method} " + name + " (no score summary)");
}

void check_inputs(const EstimateRequest& r, unsigned accepts, const std::string& name) {
  const bool per = r.input == EstimateInput::rounds;
  const bool decisions = r.input == EstimateInput::decisions;
  // An estimator of rounds only refuses guesses in its own check, beside its other refusals.
  if (r.guesses && !(accepts & (kAcceptsGuesses | kOnlyRounds)))
    throw RequestError("{guesses} is for {method} " +
                       estimator_names(kAcceptsGuesses, ", ", " or "));
  if (!(accepts & (kAcceptsRounds | kOnlyRounds)) &&
      (per || decisions || r.has_null() || r.one_sided))
    throw RequestError(name + " takes no {per}, {decisions}, {null_dim}, {null} or {one_sided}");
}

// The rules after every estimator's own.
void check_last(const EstimateRequest& r) {
  const bool decisions = r.input == EstimateInput::decisions;
  if (decisions && (r.thresholds || r.threshold || r.negated))
    throw RequestError(
        "{decisions} is one decision rule: no {thresholds}, {threshold} or {negated}");
  if (decisions)
    forbid_parameters(
        {{Parameter::bootstrap, r.bootstrap > 0}, {Parameter::tpr_at, r.tpr_at.has_value()}},
        "with {decisions} (one decision rule, no scores)");
  if (r.bootstrap > 0 && r.input == EstimateInput::rounds)
    throw RequestError("{bootstrap} is for one estimate: not with {per} round");
  const ThresholdChoice choice = r.strategy().choice;
  if (r.bootstrap > 0 &&
      (choice == ThresholdChoice::split || choice == ThresholdChoice::multi_split))
    throw RequestError(
        "{bootstrap} cannot resample a {thresholds} split or multi-split estimate (each "
        "replicate would reuse the seed's split): the threshold method's max is the point "
        "estimate");
}

}  // namespace

std::string parameter_words(Parameter p) {
  return kParameters[static_cast<int>(p)].words;
}

std::string render_parameters(const std::string& pattern, const ParameterNames& names) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size();) {
    const ParameterText* match = nullptr;
    if (pattern[i] == '{')
      for (const auto& p : kParameters)
        if (pattern.compare(i, std::string(p.token).size(), p.token) == 0) match = &p;
    if (match) {
      out += names(match->parameter);
      i += std::string(match->token).size();
    } else {
      out += pattern[i++];
    }
  }
  return out;
}

void forbid_parameters(const std::vector<std::pair<Parameter, bool>>& given,
                       const std::string& mode) {
  for (const auto& [p, is_given] : given)
    if (is_given)
      throw RequestError(std::string(kParameters[static_cast<int>(p)].token) + " cannot be used " +
                         mode);
}

RequestError::RequestError(const std::string& pattern)
    : UsageError(render_parameters(pattern, [](Parameter p) { return parameter_words(p); })),
      pattern_(pattern) {}

std::string EstimateRequest::method_name() const {
  if (against_curve) return "against-curve";
  return method.value_or(has_null() ? "gauss-fit" : "clopper-pearson");
}

ThresholdStrategy EstimateRequest::strategy() const {
  ThresholdStrategy s;
  s.choice = threshold ? ThresholdChoice::fixed : thresholds.value_or(ThresholdChoice::bonferroni);
  s.fixed_threshold = negated ? -threshold.value_or(0) : threshold.value_or(0);
  s.seed = seed.value_or(0);
  s.splits = splits.value_or(s.splits);
  s.threads = threads;
  return s;
}

std::string EstimateRequest::strategy_name() const {
  return name_of(kStrategyNames, strategy().choice);
}

void validate(const EstimateRequest& r) {
  // The curve test runs the default estimator's rules: it refuses what they would not take.
  const std::string name = r.method.value_or(r.has_null() ? "gauss-fit" : "clopper-pearson");
  const Estimator* e = find_estimator(name);
  if (!e) throw RequestError("unknown {method} '" + name + "'");
  check_general(r, e->accepts);
  check_details(r, e->accepts, name);
  check_inputs(r, e->accepts, name);
  if (e->check) e->check(r);
  check_last(r);
}

}  // namespace dpaudit
