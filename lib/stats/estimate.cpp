#include "stats/estimate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dpaudit {
namespace {

// The largest of two rounds' epsilons; a NaN round makes the whole NaN (std::max would drop
// it and understate the run), so the tool reports it instead of passing it.
double worst_epsilon(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? std::numeric_limits<double>::quiet_NaN() : std::max(a, b);
}

EstimatorOptions estimator_options(const EstimateRequest& r) {
  EstimatorOptions options;
  options.method = *find_estimator(r.method_name())->method;
  options.delta = r.delta.value_or(0);
  options.alpha = r.alpha;
  options.sides = r.one_sided ? Sides::tpr_over_fpr : Sides::both;
  options.strategy = r.strategy();
  return options;
}

OneRunOptions one_run_options(const EstimateRequest& r) {
  OneRunOptions options;
  options.test = r.method_name() == "one-run" ? OneRunTest::steinke : OneRunTest::fdp;
  options.curve = r.curve.value_or(FdpCurve::gaussian);
  options.delta = r.delta.value_or(0);
  options.alpha = r.alpha;
  options.strategy = r.strategy();
  return options;
}

// The cosine null of a request with one: its dimension given, else the scores' `dim`.
std::optional<CosineNull> null_of(const EstimateRequest& r, std::size_t scores_dim) {
  if (!r.has_null()) return std::nullopt;
  if (!r.null_dim && scores_dim == 0)
    throw UsageError(Pattern{"{null} needs {null_dim}: the scores have no dim column"});
  if (!r.null_dim && scores_dim < 2)
    throw DataError(
        fmt::format("the cosine null needs a dimension >= 2, the scores' dim is {}", scores_dim),
        r.source);
  return CosineNull{r.null_dim.value_or(scores_dim), r.null.value_or(NullKind::exact)};
}

std::string ignored_note(std::size_t n) {
  return fmt::format("ignoring {} rows with label 0: the out side is the analytic null", n);
}

// --bootstrap: gauss-fit's fit-region interval, or the BCa interval of threshold's estimate.
BootstrapResult bootstrap_of(const ScoreSet& scores, const EstimatorOptions& options,
                             const EstimateRequest& r) {
  const BootstrapOptions boot{r.bootstrap, r.seed.value_or(0), r.threads,
                              r.jackknife_groups.value_or(BootstrapOptions{}.jackknife_groups)};
  BootstrapResult b;
  if (options.method == Method::gauss_fit) {
    b.region = gauss_fit_interval(scores, options, boot);
  } else {
    b.distribution = bootstrap_epsilon(scores, options, boot);
    b.interval = bca_interval(b.distribution, options.alpha);
  }
  b.alpha = options.alpha;
  b.seed = boot.seed;
  return b;
}

// The notes of a BCa interval: an end that B, not the data, limits; no acceleration. The
// fit-region interval has none.
void add_bootstrap_notes(const BootstrapResult& b, std::vector<std::string>& notes) {
  if (b.region) return;
  const std::size_t n = b.distribution.replicates.size();
  for (const auto& [name, end] :
       {std::pair{"lower", b.interval.lower}, std::pair{"upper", b.interval.upper}})
    if (end.at_extreme)
      notes.push_back(fmt::format(
          "the BCa {} end reads the {:.2g}% quantile of {} replicates, at or between the two "
          "outermost: B limits it; a larger {{bootstrap}} (e.g. {}) steadies it",
          name, 100 * end.level, n, 10 * n));
  if (!b.distribution.accelerated)
    notes.push_back("a jackknife value is inf: a = 0 (the bias-corrected percentile interval)");
}

std::optional<ScoreSummary> summary_of(const EstimateRequest& r, const ScoreSet& scores,
                                       const std::optional<CosineNull>& null) {
  if (!r.details) return std::nullopt;
  return summarize_scores(scores, null, r.tpr_at.value_or(kSummaryFprs), r.alpha);
}

Estimate described(const EstimateRequest& r) {
  Estimate e;
  e.method = r.method_name();
  e.guarantee = find_estimator(e.method)->guarantee(r);
  return e;
}

Estimate run_per_round(const EstimateRequest& r, EstimatorOptions options, Estimate e) {
  options.null = e.null = null_of(r, r.rounds.begin()->second.dim());
  std::size_t ignored = 0;
  for (const auto& [round, s] : r.rounds) ignored += s.out().size();
  RoundEstimates results;
  for (const auto& [round, est] : estimate_epsilon_per_round(r.rounds, options, !r.delta)) {
    results.emplace(
        round, ScoreEstimate{est, summary_of(r, r.rounds.at(round), options.null), std::nullopt});
    e.epsilon = worst_epsilon(e.epsilon, est.epsilon);
  }
  if (r.has_null() && ignored > 0) e.notes.push_back(ignored_note(ignored));
  e.result = std::move(results);
  return e;
}

Estimate run_rate_based(const EstimateRequest& r) {
  Estimate e = described(r);
  EstimatorOptions options = estimator_options(r);
  const bool decisions = r.input == EstimateInput::decisions;
  if (options.method != Method::gauss_fit && !decisions) e.thresholds = r.strategy_name();
  if (r.input == EstimateInput::rounds) return run_per_round(r, std::move(options), std::move(e));
  ScoreEstimate result;
  if (decisions) {
    result.estimate = estimate_epsilon(r.decisions, options);
  } else {
    options.null = e.null = null_of(r, r.scores.dim());
    result.estimate = estimate_epsilon(r.scores, options);
    result.summary = summary_of(r, r.scores, options.null);
    if (r.bootstrap > 0) result.bootstrap = bootstrap_of(r.scores, options, r);
    const std::size_t ignored = r.scores.out().size();
    if (r.has_null() && ignored > 0) e.notes.push_back(ignored_note(ignored));
    if (result.bootstrap) add_bootstrap_notes(*result.bootstrap, e.notes);
  }
  e.epsilon = result.estimate.epsilon;
  e.result = std::move(result);
  return e;
}

Guarantee rate_based_guarantee(const EstimateRequest& r) {
  return estimate_guarantee(estimator_options(r), r.input == EstimateInput::decisions);
}

void check_gauss_fit(const EstimateRequest& r) {
  if (r.thresholds || r.threshold || r.one_sided || r.input == EstimateInput::decisions)
    throw UsageError(
        Pattern{"gauss-fit takes no {thresholds}, {threshold}, {one_sided} or {decisions}"});
  if (!r.delta && r.input != EstimateInput::rounds)
    throw UsageError(Pattern{
        "gauss-fit needs {delta} in (0,1): between two Gaussians epsilon is infinite at delta 0"});
}

// Data errors of the one-run audit name the scores' source (their pattern kept).
template <class F>
auto naming_source(const EstimateRequest& r, F&& f) {
  try {
    return f();
  } catch (const DataError& err) {
    throw DataError(Pattern{err.pattern()}, literal(r.source));
  }
}

Estimate run_one_run(const EstimateRequest& r) {
  const OneRunOptions options = one_run_options(r);
  naming_source(r, [&] {
    check_one_run_labels(r.scores);
    return 0;
  });
  Estimate e = described(r);
  OneRunResult result{{}, options};
  if (r.guesses) {
    try {
      result.estimate = naming_source(
          r, [&] { return one_run_fixed(r.scores, r.guesses->first, r.guesses->second, options); });
    } catch (const UsageError& err) {  // no guess, or more than the canaries
      throw UsageError(Pattern{err.pattern()}, "{guesses}");
    }
  } else {
    e.thresholds = r.strategy_name();
    result.estimate = one_run_audit(r.scores, options);
  }
  e.epsilon = result.estimate.epsilon;
  e.result = result;
  return e;
}

Guarantee one_run_guarantee_of(const EstimateRequest& r) {
  return one_run_guarantee(one_run_options(r));
}

void check_one_run_fdp(const EstimateRequest& r) {
  if (r.curve.value_or(FdpCurve::gaussian) == FdpCurve::gaussian && r.delta.value_or(0) == 0)
    throw UsageError(Pattern{
        "one-run-fdp against the Gaussian curve needs {delta} in (0,1) (no Gaussian mechanism is "
        "(eps, 0)-DP); {curve} dp takes delta 0"});
}

Estimate run_gdp(const EstimateRequest& r) {
  Estimate e = described(r);
  e.thresholds = r.strategy_name();
  const GdpAuditEstimate g = gdp_audit(r.scores, *r.delta, r.alpha, r.strategy());
  e.epsilon = g.epsilon;
  e.result = g;
  return e;
}

Guarantee gdp_guarantee(const EstimateRequest& r) {
  return gdp_epsilon_guarantee(r.strategy().choice);
}

void check_gdp(const EstimateRequest& r) {
  if (r.delta.value_or(0) == 0)
    throw UsageError(
        Pattern{"gdp needs {delta} in (0,1): mu-GDP is not (eps, 0)-DP for any finite eps"});
}

// Maddock et al. 2023's eps_r per round, delta 1/n unless given.
Estimate run_canife(const EstimateRequest& r) {
  Estimate e = described(r);
  CanifeRounds rounds = canife_epsilon_per_round(r.rounds, r.delta, r.alpha);
  for (const auto& [round, c] : rounds) e.epsilon = worst_epsilon(e.epsilon, c.epsilon);
  e.result = std::move(rounds);
  return e;
}

Guarantee point_estimate(const EstimateRequest&) {
  return {GuaranteeKind::point_estimate};
}

void check_canife(const EstimateRequest& r) {
  if (r.input != EstimateInput::rounds)
    throw UsageError(Pattern{"the canife method is per audit round: give {per} round"}, "{method}");
  forbid_given({{"{thresholds}", r.thresholds.has_value()},
                {"{threshold}", r.threshold.has_value()},
                {"{one_sided}", r.one_sided},
                {"{null_dim}", r.null_dim.has_value()},
                {"{null}", r.null.has_value()},
                {"{negated}", r.negated},
                {"{details}", r.details},
                {"{guesses}", r.guesses.has_value()},
                {"{seed}", r.seed.has_value()},
                {"{splits}", r.splits.has_value()},
                {"{tpr_at}", r.tpr_at.has_value()}},
               "with {method} canife");
}

// The curve test (stats/curve_test.hpp): a test at level alpha, valid for every mechanism.
Estimate run_curve_test(const EstimateRequest& r) {
  Estimate e;
  e.method = "against-curve";
  e.guarantee = Guarantee{};
  const bool decisions = r.input == EstimateInput::decisions;
  if (!decisions) e.thresholds = r.strategy_name();
  e.result = decisions ? test_against_curve(r.decisions, r.curve_data, r.alpha)
                       : test_against_curve(r.scores, r.curve_data, r.alpha, r.strategy());
  return e;
}

constexpr unsigned kRate = kAcceptsRounds | kAcceptsDecisions | kAcceptsNull | kAcceptsSummary;

}  // namespace

const std::vector<Estimator>& estimators() {
  static const std::vector<Estimator> kTable = {
      {"clopper-pearson", kRate, rate_based_guarantee, run_rate_based, nullptr,
       Method::clopper_pearson},
      {"gauss-fit", kRate | kAcceptsBootstrap, rate_based_guarantee, run_rate_based,
       check_gauss_fit, Method::gauss_fit},
      {"jeffreys", kRate, rate_based_guarantee, run_rate_based, nullptr, Method::jeffreys},
      {"threshold", kRate | kAcceptsBootstrap | kAcceptsJackknife, rate_based_guarantee,
       run_rate_based, nullptr, Method::threshold},
      {"canife", kOnlyRounds, point_estimate, run_canife, check_canife},
      {"one-run", kAcceptsGuesses, one_run_guarantee_of, run_one_run, nullptr},
      {"one-run-fdp", kAcceptsGuesses | kAcceptsCurve, one_run_guarantee_of, run_one_run,
       check_one_run_fdp},
      {"gdp", 0, gdp_guarantee, run_gdp, check_gdp},
  };
  return kTable;
}

const Estimator* find_estimator(const std::string& name) {
  for (const Estimator& e : estimators())
    if (name == e.name) return &e;
  return nullptr;
}

std::string estimator_names(unsigned accepts, const std::string& separator,
                            const std::string& last) {
  std::vector<std::string> names;
  for (const Estimator& e : estimators())
    if ((e.accepts & accepts) == accepts) names.emplace_back(e.name);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? last : separator) + names[i];
  return out;
}

Estimate estimate(const EstimateRequest& request) {
  if (request.against_curve) return run_curve_test(request);
  const Estimator* e = find_estimator(request.method_name());
  if (!e) throw UsageError(Pattern{"unknown {method} '" + literal(request.method_name()) + "'"});
  return e->run(request);
}

}  // namespace dpaudit
