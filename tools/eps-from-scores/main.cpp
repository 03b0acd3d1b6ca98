// eps-from-scores: attack scores (or a game's decisions) -> an empirical epsilon,
// by any estimator of the papers (lib/stats/epsilon_estimators.hpp).
#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "accounting/tradeoff_curve.hpp"
#include "cli/tool.hpp"
#include "core/error.hpp"
#include "io/atomic_output.hpp"
#include "io/csv.hpp"
#include "io/format.hpp"
#include "io/scores_reader.hpp"
#include "output.hpp"
#include "stats/bootstrap.hpp"
#include "stats/canife_epsilon.hpp"
#include "stats/curve_test.hpp"
#include "stats/epsilon_estimators.hpp"
#include "stats/gauss_fit_interval.hpp"
#include "stats/gdp_audit.hpp"
#include "stats/one_run.hpp"
#include "stats/score_summary.hpp"
#include "stats/scores.hpp"

namespace {

using namespace dpaudit;
using eps_from_scores::Result;
using eps_from_scores::RunDescription;

const std::map<std::string, Method> kMethods{{"threshold", Method::threshold},
                                             {"clopper-pearson", Method::clopper_pearson},
                                             {"jeffreys", Method::jeffreys},
                                             {"gauss-fit", Method::gauss_fit}};
const std::map<std::string, ThresholdChoice> kThresholdChoices{
    {"bonferroni", ThresholdChoice::bonferroni},
    {"max", ThresholdChoice::max},
    {"uncorrected", ThresholdChoice::uncorrected},
    {"split", ThresholdChoice::split},
    {"multi-split", ThresholdChoice::multi_split}};
const std::map<std::string, FdpCurve> kCurves{{"gaussian", FdpCurve::gaussian},
                                              {"dp", FdpCurve::dp}};
const std::map<std::string, NullKind> kNullKinds{{"exact", NullKind::exact},
                                                 {"gaussian", NullKind::gaussian}};

const char* kExamples =
    "  eps-from-scores scores.csv                                 # clopper-pearson, bonferroni, "
    "95%\n"
    "  eps-from-scores scores.csv --method threshold              # point estimate, max over "
    "thresholds\n"
    "  eps-from-scores scores.csv --thresholds split --seed 3     # choose on one half, bound on "
    "the other\n"
    "  eps-from-scores scores.csv --threshold 0.02 --alpha 0.01   # one fixed threshold\n"
    "  eps-from-scores cosines.csv --null-dim 101770 --delta 1e-6 # gauss-fit against the cosine "
    "null (003 Alg. 2)\n"
    "  eps-from-scores cosines.csv --null-dim 101770 --method jeffreys   # 003 eps_lo-final\n"
    "  eps-from-scores --in seen.npy --out unseen.npy --method gauss-fit --delta 1e-5   # 003 Alg. "
    "3\n"
    "  eps-from-scores --decisions game.csv --method clopper-pearson     # a distinguishing game "
    "(004)\n"
    "  eps-from-scores scores.csv --per round --method threshold  # eps per round, delta = 1/n per "
    "round\n"
    "  eps-from-scores run/scores.csv --per round --method canife # CANIFE's eps_r with its "
    "interval (000)\n"
    "  eps-from-scores scores.csv --json --fail-above 4           # CI gate: exit 3 above 4\n"
    "  eps-from-scores canaries.csv -m one-run --delta 1e-5       # one training run: the best of "
    "top 10, 20, 50, ...\n"
    "  eps-from-scores canaries.csv -m one-run --guesses 100:100 --delta 1e-5   # top 100 in, "
    "bottom 100 out\n"
    "  eps-from-scores canaries.csv -m one-run-fdp --delta 1e-5   # against the Gaussian curve "
    "(assumes it)\n"
    "  eps-from-scores scores.csv -m gdp --delta 1e-5 --json      # mu-GDP lower bound; its eps "
    "assumes a Gaussian curve\n"
    "  eps-from-scores scores.csv --thresholds multi-split --seed 1 --threads 2   # median of 100 "
    "split bounds\n"
    "  eps-from-scores cosines.csv --null-dim 101770 -m jeffreys --thresholds uncorrected   # "
    "003's own eps_lo\n"
    "  eps-from-scores cosines.csv --null-dim 101770 --delta 1e-6 --bootstrap 1000 --threads 2 "
    "--json   # eps_est, 95% interval\n"
    "  eps-from-scores scores.csv --tpr-at 0.0001,0.001 --report  # TPR at FPR 0.01% and 0.1%, "
    "accuracies\n"
    "  eps-from-scores scores.csv --against-curve curve.csv --report   # against rdp-compose "
    "--tradeoff's curve\n"
    "  eps-from-scores scores.csv --against-curve curve.csv --fail-on-refute   # CI gate: exit 3 "
    "(refuted)\n";

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
  for (const std::string& item : dpaudit::cli::comma_items(list)) {
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

// --bootstrap: gauss-fit's fit-region interval, or the BCa interval of threshold's estimate.
eps_from_scores::BootstrapResult bootstrap_estimate(const ScoreSet& scores,
                                                    const EstimatorOptions& options,
                                                    const BootstrapOptions& boot) {
  eps_from_scores::BootstrapResult r;
  if (options.method == Method::gauss_fit) {
    r.region = gauss_fit_interval(scores, options, boot);
  } else {
    r.distribution = bootstrap_epsilon(scores, options, boot);
    r.interval = bca_interval(r.distribution, options.alpha);
  }
  r.alpha = options.alpha;
  r.seed = boot.seed;
  return r;
}

// The stderr notes of a BCa interval (threshold): an end that B, not the data, limits; no
// acceleration. The fit-region interval has none.
std::vector<std::string> bootstrap_notes(const eps_from_scores::BootstrapResult& r) {
  std::vector<std::string> notes;
  if (r.region) return notes;
  const std::size_t b = r.distribution.replicates.size();
  for (const auto& [name, end] :
       {std::pair{"lower", r.interval.lower}, std::pair{"upper", r.interval.upper}})
    if (end.at_extreme)
      notes.push_back(fmt::format(
          "the BCa {} end reads the {:.2g}% quantile of {} replicates, at or between the two "
          "outermost: B limits it; a larger --bootstrap (e.g. {}) steadies it",
          name, 100 * end.level, b, 10 * b));
  if (!r.distribution.accelerated)
    notes.push_back("a jackknife value is inf: a = 0 (the bias-corrected percentile interval)");
  return notes;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Turn attack scores, or the decisions of a distinguishing game, into an empirical epsilon.\n"
      "Scores: CSV with columns label (1 = in, 0 = out) and score (higher = more likely in), "
      "optional\n"
      "id, round, trial; or NPY pairs --in/--out. Prints the epsilon alone on one line (inf when "
      "the\n"
      "classes separate), or --json / --report with everything.",
      "eps-from-scores"};
  dpaudit::cli::setup(app, kExamples);

  std::string scores_path = "-", in_npy, out_npy, decisions_path, output_path = "-";
  std::string method_name, thresholds_name = "bonferroni", null_name = "exact", per;
  std::size_t null_dim = 0;
  double alpha = 0.05, delta = 0, fixed_threshold = 0, fail_above = 0;
  std::uint64_t seed = 0;
  std::size_t splits = 100;
  int threads = 1;
  std::string curve_name = "gaussian";
  std::size_t bootstrap_replicates = 0, jackknife_groups = 1000;
  std::string tpr_list = "0.001,0.01,0.1";  // kSummaryFprs
  bool negate = false, one_sided = false, json = false, report = false, quiet = false;

  auto* scores_opt = app.add_option("scores", scores_path, "scores CSV; - or none: stdin");
  auto* in_opt = app.add_option("--in", in_npy, "NPY file of in scores (label 1)");
  auto* out_opt = app.add_option("--out", out_npy, "NPY file of out scores (label 0)");
  auto* decisions_opt =
      app.add_option("--decisions", decisions_path,
                     "decisions CSV of a distinguishing game (label,guess); - = stdin");
  auto* negate_opt = app.add_flag("--negate", negate, "lower score means more likely in");
  auto* null_dim_opt =
      app.add_option(
             "--null-dim", null_dim,
             "scores are cosines with canaries in D dimensions; the out side is the analytic "
             "null (003 Thm 3.1); label-0 rows are ignored; a dim column must hold D")
          ->check(dpaudit::cli::cosine_dimension());
  auto* null_opt =
      app.add_option(
             "--null", null_name,
             "the analytic null: exact (Thm 3.1) or gaussian (N(0,1/d)); without --null-dim, "
             "D is the scores' dim column")
          ->capture_default_str()
          ->check(CLI::IsMember(kNullKinds));
  auto* method_opt =
      app.add_option(
             "-m,--method", method_name,
             "threshold | clopper-pearson | jeffreys | gauss-fit (default: gauss-fit with "
             "--null-dim, else clopper-pearson) | canife (--per round only: 000's eps_r, "
             "thresholds with one zero rate skipped, CSV round,epsilon,eps_lo,eps_hi with its "
             "Clopper-Pearson interval at 1 - alpha) | one-run (Steinke, Nasr & Jagielski 2023: m "
             "canaries "
             "each in with probability 1/2; guess in for the top K+ scores, out for the bottom "
             "K-; exact binomial test of (eps, delta)) | gdp (Nasr et al. 2023: mu >= "
             "Phi^-1(1-FPR) - "
             "Phi^-1(FNR) at Clopper-Pearson bounds, then eps at --delta by the Gaussian "
             "mechanism's curve; mu in --json) | one-run-fdp (Mahloujifar, Melis & Chaudhuri "
             "2025: the one-run game tested against a trade-off curve, --curve)")
          ->check(CLI::IsMember(kMethods) |
                  CLI::IsMember({"canife", "one-run", "one-run-fdp", "gdp"}));
  app.add_option("--alpha", alpha, "1 - confidence of the bound, split evenly over FPR and FNR")
      ->capture_default_str()
      ->check(dpaudit::cli::open_unit_interval());
  auto* delta_opt =
      app.add_option(
             "--delta", delta,
             "delta; default 0 for threshold, clopper-pearson and jeffreys, 1/n per round with "
             "--per round (as CANIFE); gauss-fit needs it given, in (0,1), unless --per round")
          ->check(CLI::Validator(
              [](std::string& s) -> std::string {
                const auto v = parse_finite(s);
                return v && *v >= 0 && *v < 1 ? "" : "value " + s + " is not in [0,1)";
              },
              "in [0,1)", ""));
  auto* thresholds_opt =
      app.add_option("--thresholds", thresholds_name,
                     "bonferroni: valid over all thresholds (alpha / the distinct scores; one-run: "
                     "alpha / its grid "
                     "of guess counts 10, 20, 50, ... up to m/2); max: best threshold without "
                     "correction (OVER-STATES "
                     "the confidence); uncorrected: 003's eps_lo, max with alpha on EACH rate (NOT "
                     "a valid bound); "
                     "split: choose on a random half (--seed), bound on the other; multi-split: "
                     "the median of "
                     "--splits split bounds, each at alpha/2 (valid: Meinshausen et al. 2009)")
          ->capture_default_str()
          ->check(CLI::IsMember(kThresholdChoices));
  auto* threshold_opt =
      app.add_option(
             "--threshold", fixed_threshold,
             "one fixed threshold T: say in (one-run: guess in) when score >= T (<= with --negate)")
          ->check(dpaudit::cli::finite());
  std::string guesses_text;
  auto* guesses_opt =
      app.add_option("--guesses", guesses_text,
                     "one-run, one-run-fdp: K (top K guessed in) or K+:K- (and bottom K- guessed "
                     "out), tested at alpha; default: --thresholds");
  auto* curve_opt =
      app.add_option(
             "--curve", curve_name,
             "one-run-fdp: the trade-off curve of the claim: gaussian (the Gaussian mechanism "
             "with that (eps, delta), as jax_privacy) or dp (the (eps, delta)-DP curve alone)")
          ->capture_default_str()
          ->check(CLI::IsMember(kCurves));
  auto* seed_opt = app.add_option("--seed", seed,
                                  "seed of --thresholds split and multi-split, and of --bootstrap")
                       ->capture_default_str();
  auto* splits_opt =
      app.add_option("--splits", splits, "--thresholds multi-split: the number of splits")
          ->capture_default_str()
          ->check(CLI::Range(std::size_t{1}, std::size_t{100000}));
  app.add_option("--threads", threads,
                 "threads for --thresholds multi-split and --bootstrap (0: all cores); "
                 "output is the same for any number")
      ->capture_default_str()
      ->check(dpaudit::cli::thread_count());
  auto* bootstrap_opt = app.add_option("--bootstrap", bootstrap_replicates,
                                       "B: a two-sided 1 - alpha interval of the point estimate "
                                       "from B stratified resamples, in "
                                       "--json and --report; seeded by --seed. gauss-fit: the "
                                       "range of eps over a confidence region "
                                       "of the fitted parameters, shaped by the resamples (valid "
                                       "where its eps has a kink, at equal "
                                       "spreads); threshold: BCa (Efron 1987)")
                            ->check(CLI::Range(std::size_t{2}, std::size_t{10000000}));
  auto* groups_opt =
      app.add_option(
             "--jackknife-groups", jackknife_groups,
             "--bootstrap with --method threshold: a class of more than G scores is jackknifed "
             "(BCa's acceleration) by deleting G random groups, not single scores")
          ->capture_default_str()
          ->check(CLI::Range(std::size_t{2}, std::size_t{100000000}));
  auto* tpr_opt =
      app.add_option(
             "--tpr-at", tpr_list,
             "comma-separated FPRs in [0,1] at which --json and --report give the TPR (the best "
             "deterministic rule with FPR <= each)")
          ->capture_default_str();
  auto* one_sided_opt =
      app.add_flag("--one-sided", one_sided, "only the TPR/FPR direction, log((1-delta-FNR)/FPR)");
  auto* per_opt = app.add_option("--per", per, "round: one epsilon per value of the round column")
                      ->check(CLI::IsMember({"round"}));
  auto* fail_opt = app.add_option("--fail-above", fail_above,
                                  "exit 3 (and print nothing) when epsilon > X (inf: never)")
                       ->check(dpaudit::cli::epsilon());
  std::string curve_path;
  bool fail_on_refute = false;
  auto* against_opt = app.add_option(
      "--against-curve", curve_path,
      "test the scores (or --decisions) against a claimed trade-off curve, CSV fpr,fnr "
      "(rdp-compose --tradeoff; - = stdin): refuted when FNR_hi < f(FPR_hi) for some "
      "rule, Clopper-Pearson bounds at alpha over --thresholds (bonferroni, split, "
      "multi-split) or --threshold; prints refuted or consistent; assumes no shape");
  app.add_flag("--fail-on-refute", fail_on_refute,
               "--against-curve: exit 3 (and print nothing) when the scores refute the curve")
      ->needs(against_opt);
  auto* json_opt = app.add_flag("--json", json, "print one JSON object with everything");
  auto* report_opt = app.add_flag("--report", report, "print a short human-readable table");
  app.add_option("-o,--output", output_path, "output file; - = stdout")->capture_default_str();
  app.add_flag("-q,--quiet", quiet, "no notes on stderr");

  json_opt->excludes(report_opt);
  scores_opt->excludes(in_opt)->excludes(decisions_opt);
  in_opt->excludes(decisions_opt);
  out_opt->needs(in_opt);
  threshold_opt->excludes(thresholds_opt);
  null_dim_opt->excludes(decisions_opt);
  null_opt->excludes(decisions_opt);
  per_opt->excludes(in_opt)->excludes(decisions_opt);
  groups_opt->needs(bootstrap_opt);
  guesses_opt->excludes(thresholds_opt)->excludes(threshold_opt);

  return dpaudit::cli::run(app, argc, argv, [&]() -> int {
    const bool have_null = null_dim_opt->count() > 0 || null_opt->count() > 0;
    if (method_opt->count() == 0) method_name = have_null ? "gauss-fit" : "clopper-pearson";
    const bool gauss_fit = method_name == "gauss-fit";
    const bool decisions = decisions_opt->count() > 0;
    const bool per_round = per_opt->count() > 0;
    // What every method ends with: the budget check, else the note on what the number is
    // when it is not a plain bound or estimate for every mechanism (the budget's line
    // says it instead), then the output, whole.
    const auto emit = [&](const std::string& text, double reported, const std::string& source,
                          const Guarantee& guarantee) {
      const auto note = guarantee_note(guarantee, "this epsilon");
      if (fail_opt->count() && reported > fail_above)
        throw Error(
            fmt::format("epsilon {}{} exceeds the budget --fail-above {}", format_number(reported),
                        note ? fmt::format(" ({}, assumes {})", guarantee_name(guarantee.kind),
                                           assumption_name(guarantee.assumes))
                             : "",
                        format_number(fail_above)),
            source == "-" ? "stdin" : source, kExitBudgetExceeded);
      if (note && !quiet) dpaudit::cli::note(app, *note);
      AtomicOutput output(output_path);
      output.stream() << text;
      output.commit();
      return kExitOk;
    };
    const std::string source = decisions ? decisions_path : in_opt->count() ? in_npy : scores_path;
    ThresholdStrategy strategy;
    strategy.choice =
        threshold_opt->count() ? ThresholdChoice::fixed : kThresholdChoices.at(thresholds_name);
    strategy.fixed_threshold = negate ? -fixed_threshold : fixed_threshold;
    strategy.seed = seed;
    strategy.splits = splits;
    strategy.threads = threads;
    const std::string strategy_name = threshold_opt->count() ? "fixed" : thresholds_name;
    if (splits_opt->count() && strategy.choice != ThresholdChoice::multi_split)
      throw UsageError("--splits is for --thresholds multi-split");
    if (curve_opt->count() && method_name != "one-run-fdp")
      throw UsageError("--curve is for --method one-run-fdp");
    if (seed_opt->count() && threshold_opt->count() && !bootstrap_opt->count())
      throw UsageError(
          "--seed has nothing to seed with one fixed --threshold (it seeds splits and "
          "--bootstrap)");
    if (against_opt->count())  // the curve test: no method, no delta, its own exit 3
      dpaudit::cli::forbid_options({method_opt, delta_opt, null_dim_opt, null_opt, one_sided_opt,
                                    per_opt, fail_opt, bootstrap_opt, tpr_opt, guesses_opt},
                                   "with --against-curve");
    const std::vector<double> tpr_targets = parse_fpr_targets(tpr_list);
    const bool bootstrapped = bootstrap_opt->count() > 0;
    if (bootstrapped && method_name != "gauss-fit" && method_name != "threshold")
      throw UsageError(fmt::format(
          "--bootstrap is for point estimates (gauss-fit, threshold); {} already gives a "
          "confidence bound",
          method_name));
    if (groups_opt->count() && method_name != "threshold")
      throw UsageError(
          "--jackknife-groups is for the BCa interval of --method threshold (gauss-fit's interval "
          "has "
          "no jackknife)");
    if ((bootstrapped || tpr_opt->count()) && !json && !report)
      throw UsageError(fmt::format("{} adds to --json and --report: give one",
                                   bootstrapped ? "--bootstrap" : "--tpr-at"));
    if (method_name == "one-run" || method_name == "one-run-fdp" || method_name == "gdp")
      dpaudit::cli::forbid_options({tpr_opt},
                                   "with --method " + method_name + " (no score summary)");
    if (method_name == "canife") {
      if (!per_round)
        throw UsageError("the canife method is per audit round: give --per round", "--method");
      dpaudit::cli::forbid_options(
          {thresholds_opt, threshold_opt, one_sided_opt, null_dim_opt, null_opt, negate_opt,
           json_opt, report_opt, guesses_opt, seed_opt, splits_opt, tpr_opt},
          "with --method canife");
      // 000 App. C.1 per round, delta 1/n unless --delta: round,epsilon,eps_lo,eps_hi.
      const auto rounds =
          canife_epsilon_per_round(score_sets(read_scores_csv_by_round(scores_path, {})),
                                   delta_opt->count() ? std::optional(delta) : std::nullopt, alpha);
      double reported = 0;
      for (const auto& [round, e] : rounds) reported = std::max(reported, e.epsilon);
      return emit(eps_from_scores::canife_csv(rounds), reported, scores_path,
                  {GuaranteeKind::point_estimate});
    }
    const bool one_run = method_name == "one-run" || method_name == "one-run-fdp";
    if (guesses_opt->count() && !one_run)
      throw UsageError("--guesses is for --method one-run or one-run-fdp");
    if (one_run) {
      if (per_round || decisions || have_null || one_sided_opt->count())
        throw UsageError(method_name +
                         " takes no --per, --decisions, --null-dim, --null or --one-sided");
      OneRunOptions options;
      options.test = method_name == "one-run" ? OneRunTest::steinke : OneRunTest::fdp;
      options.curve = kCurves.at(curve_name);
      options.delta = delta;
      options.alpha = alpha;
      options.strategy = strategy;
      if (options.test == OneRunTest::fdp && options.curve == FdpCurve::gaussian && delta == 0)
        throw UsageError(
            "one-run-fdp against the Gaussian curve needs --delta in (0,1) (no Gaussian mechanism "
            "is "
            "(eps, 0)-DP); --curve dp takes delta 0");
      const ScoreReadOptions read{negate, true, false, 0};
      const ScoreSet scores(in_opt->count() ? read_scores_npy(in_npy, out_npy, read)
                                            : read_scores_csv(scores_path, read));
      try {
        check_one_run_labels(scores);
      } catch (const DataError& e) {
        throw DataError(e.what(), source == "-" ? "stdin" : source);
      }
      RunDescription run;
      run.method_name = method_name;
      run.negated = negate;
      run.alpha = alpha;
      run.guarantee = one_run_guarantee(options);
      OneRunEstimate e;
      if (guesses_opt->count()) {
        const auto [k_in, k_out] = parse_guesses(guesses_text);
        try {
          e = one_run_fixed(scores, k_in, k_out, options);
        } catch (const UsageError& err) {  // no guess, or more than the canaries
          throw UsageError(err.what(), "--guesses");
        } catch (const DataError& err) {  // a cut inside tied scores
          throw DataError(err.what(), source == "-" ? "stdin" : source);
        }
      } else {
        run.thresholds = strategy_name;
        e = one_run_audit(scores, options);
      }
      const std::string text = json     ? json_line(eps_from_scores::one_run_json(e, options, run))
                               : report ? eps_from_scores::one_run_report(e, options, run)
                                        : format_number(e.epsilon) + "\n";
      return emit(text, e.epsilon, source, run.guarantee);
    }
    if (method_name == "gdp") {
      if (per_round || decisions || have_null || one_sided_opt->count())
        throw UsageError("gdp takes no --per, --decisions, --null-dim, --null or --one-sided");
      if (delta_opt->count() == 0 || delta == 0)
        throw UsageError(
            "gdp needs --delta in (0,1): mu-GDP is not (eps, 0)-DP for any finite eps");
      const ScoreSet scores(in_opt->count()
                                ? read_scores_npy(in_npy, out_npy, {negate, true, false, 0})
                                : read_scores_csv(scores_path, {negate, true, false, 0}));
      RunDescription run;
      run.method_name = method_name;
      run.negated = negate;
      run.alpha = alpha;
      run.thresholds = strategy_name;
      run.guarantee = gdp_epsilon_guarantee(strategy.choice);
      const GdpAuditEstimate e = gdp_audit(scores, delta, alpha, strategy);
      const std::string text = json     ? json_line(eps_from_scores::gdp_json(e, run))
                               : report ? eps_from_scores::gdp_report(e, run)
                                        : format_number(e.epsilon) + "\n";
      return emit(text, e.epsilon, source, run.guarantee);
    }
    if (gauss_fit &&
        (thresholds_opt->count() || threshold_opt->count() || one_sided_opt->count() || decisions))
      throw UsageError("gauss-fit takes no --thresholds, --threshold, --one-sided or --decisions");
    if (gauss_fit && delta_opt->count() == 0 && !per_round)
      throw UsageError(
          "gauss-fit needs --delta in (0,1): between two Gaussians epsilon is infinite at delta 0");
    if (decisions && (thresholds_opt->count() || threshold_opt->count() || negate))
      throw UsageError(
          "--decisions is one decision rule: no --thresholds, --threshold or --negate");
    if (in_opt->count() && out_npy.empty() && !have_null)
      throw UsageError("--in needs --out (or --null-dim)");
    if (against_opt->count()) {  // stats/curve_test.hpp
      if (curve_path == "-" && source == "-")
        throw UsageError("the scores and the curve cannot both be stdin");
      const TradeoffCurve curve = read_tradeoff_curve(curve_path);
      RunDescription run;
      run.method_name = "against-curve";
      run.negated = negate;
      run.alpha = alpha;
      if (!decisions) run.thresholds = strategy_name;
      const ScoreReadOptions read{negate, true, false, 0};
      const CurveTestResult r =
          decisions
              ? test_against_curve(read_decisions_csv(decisions_path), curve, alpha)
              : test_against_curve(ScoreSet(in_opt->count() ? read_scores_npy(in_npy, out_npy, read)
                                                            : read_scores_csv(scores_path, read)),
                                   curve, alpha, strategy);
      if (fail_on_refute && r.refuted)
        throw Error(eps_from_scores::curve_refutation(r, run, curve_path),
                    source == "-" ? "stdin" : source, kExitBudgetExceeded);
      return emit(json     ? json_line(eps_from_scores::curve_test_json(r, run, curve_path))
                  : report ? eps_from_scores::curve_test_report(r, run, curve_path)
                           : std::string(r.refuted ? "refuted\n" : "consistent\n"),
                  0, source,
                  Guarantee{});  // a test at level alpha, valid for every mechanism: no note
    }
    if (decisions)
      dpaudit::cli::forbid_options({bootstrap_opt, tpr_opt},
                                   "with --decisions (one decision rule, no scores)");
    if (bootstrapped && per_round)
      throw UsageError("--bootstrap is for one estimate: not with --per round");
    if (bootstrapped && (strategy.choice == ThresholdChoice::split ||
                         strategy.choice == ThresholdChoice::multi_split))
      throw UsageError(
          "--bootstrap cannot resample a --thresholds split or multi-split estimate (each "
          "replicate "
          "would reuse the seed's split): the threshold method's max is the point estimate");

    EstimatorOptions options;
    options.method = kMethods.at(method_name);
    options.delta = delta;
    options.alpha = alpha;
    options.sides = one_sided ? Sides::tpr_over_fpr : Sides::both;
    options.strategy = strategy;

    RunDescription run;
    run.method = options.method;
    run.method_name = method_name;
    if (!gauss_fit && !decisions) run.thresholds = strategy_name;
    run.one_sided = one_sided;
    run.negated = negate;
    run.alpha = alpha;
    run.guarantee = estimate_guarantee(options, decisions);

    const ScoreReadOptions read{negate, !have_null, have_null, null_dim};
    // The null's dimension: --null-dim (which the reader checked a dim column against),
    // else the scores' dim column.
    const auto set_null = [&](std::size_t file_dim) {
      if (!have_null) return;
      if (null_dim == 0 && file_dim == 0)
        throw UsageError("--null needs --null-dim: the scores have no dim column");
      if (null_dim == 0 && file_dim < 2)
        throw DataError(
            fmt::format("the cosine null needs a dimension >= 2, the scores' dim is {}", file_dim),
            source == "-" ? "stdin" : source);
      options.null = run.null =
          CosineNull{null_dim > 0 ? null_dim : file_dim, kNullKinds.at(null_name)};
    };
    const bool details = json || report;
    const auto summary_of = [&](const ScoreSet& scores) {
      return details ? std::optional(summarize_scores(scores, options.null, tpr_targets, alpha))
                     : std::nullopt;
    };
    const auto note_ignored = [&](std::size_t n) {
      if (have_null && n > 0 && !quiet)
        dpaudit::cli::note(
            app,
            fmt::format("ignoring {} rows with label 0: the out side is the analytic null", n));
    };
    std::string text;
    double reported = 0;
    if (per_round) {
      const auto rounds = score_sets(read_scores_csv_by_round(scores_path, read));
      set_null(rounds.begin()->second.dim());
      std::size_t ignored = 0;
      for (const auto& [round, s] : rounds) ignored += s.out().size();
      std::map<double, Result> results;
      for (const auto& [round, e] :
           estimate_epsilon_per_round(rounds, options, delta_opt->count() == 0)) {
        results.emplace(round, Result{e, summary_of(rounds.at(round)), std::nullopt});
        reported = std::max(reported, e.epsilon);
      }
      note_ignored(ignored);  // after the estimate: an error is then the only line on stderr
      text = json     ? json_line(eps_from_scores::per_round_json(results, run))
             : report ? eps_from_scores::per_round_report(results, run)
                      : eps_from_scores::per_round_csv(results);
    } else {
      Result result;
      if (decisions) {
        result.estimate = estimate_epsilon(read_decisions_csv(decisions_path), options);
      } else {
        const ScoreSet scores(in_opt->count() ? read_scores_npy(in_npy, out_npy, read)
                                              : read_scores_csv(scores_path, read));
        set_null(scores.dim());
        result.estimate = estimate_epsilon(scores, options);
        result.summary = summary_of(scores);
        if (bootstrapped)
          result.bootstrap = bootstrap_estimate(
              scores, options, {bootstrap_replicates, seed, threads, jackknife_groups});
        // After the estimate: an error is then the only line on stderr.
        note_ignored(scores.out().size());
        if (result.bootstrap && !quiet)
          for (const std::string& n : bootstrap_notes(*result.bootstrap))
            dpaudit::cli::note(app, n);
      }
      reported = result.estimate.epsilon;
      text = json     ? json_line(eps_from_scores::result_json(result, run))
             : report ? eps_from_scores::result_report(result, run)
                      : format_number(reported) + "\n";
    }
    return emit(text, reported, source, run.guarantee);
  });
}
