#include "stats/estimate_request.hpp"

#include "core/names.hpp"
#include "stats/estimate.hpp"

namespace dpaudit {
namespace {

const Named<ThresholdChoice> kStrategyNames[] = {
    {"bonferroni", ThresholdChoice::bonferroni},   {"max", ThresholdChoice::max},
    {"uncorrected", ThresholdChoice::uncorrected}, {"split", ThresholdChoice::split},
    {"multi-split", ThresholdChoice::multi_split}, {"fixed", ThresholdChoice::fixed}};

[[noreturn]] void refuse(const std::string& pattern) {
  throw UsageError(Pattern{pattern});
}

// The rules before any estimator's own, as eps-from-scores has always checked them.
void check_general(const EstimateRequest& r, unsigned accepts) {
  const bool per = r.input == EstimateInput::rounds;
  if (r.splits && r.strategy().choice != ThresholdChoice::multi_split)
    refuse("{splits} is for {thresholds} multi-split");
  if (r.curve && !(accepts & kAcceptsCurve))
    refuse("{curve} is for {method} " + estimator_names(kAcceptsCurve, ", ", " or "));
  if (r.seed && r.threshold && r.bootstrap == 0)
    refuse(
        "{seed} has nothing to seed with one fixed {threshold} (it seeds splits and "
        "{bootstrap})");
  if (r.against_curve)  // the curve test: no estimator, no delta, its own refutation
    forbid_given({{"{method}", r.method.has_value()},
                  {"{delta}", r.delta.has_value()},
                  {"{null_dim}", r.null_dim.has_value()},
                  {"{null}", r.null.has_value()},
                  {"{one_sided}", r.one_sided},
                  {"{per}", per},
                  {"{budget}", r.budget},
                  {"{bootstrap}", r.bootstrap > 0},
                  {"{tpr_at}", r.tpr_at.has_value()},
                  {"{guesses}", r.guesses.has_value()}},
                 "with {against_curve}");
}

void check_details(const EstimateRequest& r, unsigned accepts, const std::string& name) {
  const bool bootstrapped = r.bootstrap > 0;
  if (bootstrapped && !(accepts & kAcceptsBootstrap))
    refuse("{bootstrap} is for point estimates (" + estimator_names(kAcceptsBootstrap, ", ", ", ") +
           "); " + name + " already gives a confidence bound");
  if (r.jackknife_groups && !(accepts & kAcceptsJackknife))
    refuse(
        "{jackknife_groups} is for the BCa interval of {method} threshold (gauss-fit's interval "
        "has no jackknife)");
  if ((bootstrapped || r.tpr_at) && !r.details)
    refuse(std::string(bootstrapped ? "{bootstrap}" : "{tpr_at}") + " adds to {details}: give one");
  if (!(accepts & (kAcceptsSummary | kOnlyRounds)))
    forbid_given({{"{tpr_at}", r.tpr_at.has_value()}},
                 "with {method} " + name + " (no score summary)");
}

void check_inputs(const EstimateRequest& r, unsigned accepts, const std::string& name) {
  const bool per = r.input == EstimateInput::rounds;
  const bool decisions = r.input == EstimateInput::decisions;
  // An estimator of rounds only refuses guesses in its own check, beside its other refusals.
  if (r.guesses && !(accepts & (kAcceptsGuesses | kOnlyRounds)))
    refuse("{guesses} is for {method} " + estimator_names(kAcceptsGuesses, ", ", " or "));
  if (!(accepts & (kAcceptsRounds | kOnlyRounds)) &&
      (per || decisions || r.has_null() || r.one_sided))
    refuse(name + " takes no {per}, {decisions}, {null_dim}, {null} or {one_sided}");
}

// The rules after every estimator's own.
void check_last(const EstimateRequest& r) {
  const bool decisions = r.input == EstimateInput::decisions;
  if (decisions && (r.thresholds || r.threshold || r.negated))
    refuse("{decisions} is one decision rule: no {thresholds}, {threshold} or {negated}");
  if (decisions)
    forbid_given({{"{bootstrap}", r.bootstrap > 0}, {"{tpr_at}", r.tpr_at.has_value()}},
                 "with {decisions} (one decision rule, no scores)");
  if (r.bootstrap > 0 && r.input == EstimateInput::rounds)
    refuse("{bootstrap} is for one estimate: not with {per} round");
  const ThresholdChoice choice = r.strategy().choice;
  if (r.bootstrap > 0 &&
      (choice == ThresholdChoice::split || choice == ThresholdChoice::multi_split))
    refuse(
        "{bootstrap} cannot resample a {thresholds} split or multi-split estimate (each "
        "replicate would reuse the seed's split): the threshold method's max is the point "
        "estimate");
}

}  // namespace

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
  if (!e) refuse("unknown {method} '" + literal(name) + "'");
  check_general(r, e->accepts);
  check_details(r, e->accepts, name);
  check_inputs(r, e->accepts, name);
  if (e->check) e->check(r);
  check_last(r);
}

}  // namespace dpaudit
