#include "command_line.hpp"

#include <map>
#include <string>
#include <vector>

#include "cli/tool.hpp"
#include "io/csv.hpp"
#include "stats/estimate.hpp"

namespace dpaudit::eps_from_scores {
namespace {

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

// The estimators' names (stats/estimate.hpp): the rate-based ones, or the others.
std::vector<std::string> method_names(bool rate_based) {
  std::vector<std::string> names;
  for (const Estimator& e : estimators())
    if (e.method.has_value() == rate_based) names.emplace_back(e.name);
  return names;
}

// The value of an option when given.
template <class T>
std::optional<T> given(const CLI::Option* option, const T& value) {
  return option->count() ? std::optional<T>(value) : std::nullopt;
}

}  // namespace

CommandLine::CommandLine(CLI::App& app) {
  declare_inputs(app);
  declare_strategy(app);
  declare_outputs(app);
  declare_sequential(app);
}

void CommandLine::declare_inputs(CLI::App& app) {
  scores_opt = app.add_option("scores", scores_paths,
                              "scores CSV; - or none: stdin. Several: the shards of one run "
                              "(dp-train --trial-range), checked and merged");
  in_opt = app.add_option("--in", in_npy, "NPY file of in scores (label 1)");
  out_opt = app.add_option("--out", out_npy, "NPY file of out scores (label 0)");
  decisions_opt = app.add_option("--decisions", decisions_paths,
                                 "decisions CSV of a distinguishing game (label,guess); - = stdin. "
                                 "Several: the shards of one run, checked and merged");
  negate_opt = app.add_flag("--negate", negate, "lower score means more likely in");
  null_dim_opt =
      app.add_option(
             "--null-dim", null_dim,
             "scores are cosines with canaries in D dimensions; the out side is the analytic "
             "null (Andrew et al. 2024, Thm 3.1); label-0 rows are ignored; a dim column must hold "
             "D")
          ->check(cli::cosine_dimension());
  null_opt =
      app.add_option(
             "--null", null_name,
             "the analytic null: exact (Thm 3.1) or gaussian (N(0,1/d)); without --null-dim, "
             "D is the scores' dim column")
          ->capture_default_str()
          ->check(CLI::IsMember(kNullKinds));
  method_opt =
      app.add_option(
             "-m,--method", method_name,
             "threshold | clopper-pearson | jeffreys | gauss-fit (default: gauss-fit with "
             "--null-dim, else clopper-pearson) | canife (--per round only: Maddock et al. 2023's "
             "eps_r, "
             "thresholds with one zero rate skipped, CSV round,epsilon,eps_lo,eps_hi with its "
             "Clopper-Pearson interval at 1 - alpha) | one-run (Steinke, Nasr & Jagielski 2023: m "
             "canaries "
             "each in with probability 1/2; guess in for the top K+ scores, out for the bottom "
             "K-; exact binomial test of (eps, delta)) | gdp (Nasr et al. 2023: mu >= "
             "Phi^-1(1-FPR) - "
             "Phi^-1(FNR) at Clopper-Pearson bounds, then eps at --delta by the Gaussian "
             "mechanism's curve; mu in --json) | one-run-fdp (Mahloujifar, Melis & Chaudhuri "
             "2025: the one-run game tested against a trade-off curve, --curve)")
          ->check(CLI::IsMember(method_names(true)) | CLI::IsMember(method_names(false)));
  app.add_option("--alpha", alpha, "1 - confidence of the bound, split evenly over FPR and FNR")
      ->capture_default_str()
      ->check(cli::open_unit_interval());
  delta_opt =
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
}

void CommandLine::declare_strategy(CLI::App& app) {
  thresholds_opt =
      app.add_option("--thresholds", thresholds_name,
                     "bonferroni: valid over all thresholds (alpha / the distinct scores; one-run: "
                     "alpha / its grid "
                     "of guess counts 10, 20, 50, ... up to m/2); max: best threshold without "
                     "correction (OVER-STATES "
                     "the confidence); uncorrected: Andrew et al. 2024's eps_lo, max with alpha on "
                     "EACH rate (NOT "
                     "a valid bound); "
                     "split: choose on a random half (--seed), bound on the other; multi-split: "
                     "the median of "
                     "--splits split bounds, each at alpha/2 (valid: Meinshausen et al. 2009)")
          ->capture_default_str()
          ->check(CLI::IsMember(kThresholdChoices));
  threshold_opt =
      app.add_option(
             "--threshold", fixed_threshold,
             "one fixed threshold T: say in (one-run: guess in) when score >= T (<= with --negate)")
          ->check(cli::finite());
  guesses_opt =
      app.add_option("--guesses", guesses_text,
                     "one-run, one-run-fdp: K (top K guessed in) or K+:K- (and bottom K- guessed "
                     "out), tested at alpha; default: --thresholds");
  curve_opt =
      app.add_option(
             "--curve", curve_name,
             "one-run-fdp: the trade-off curve of the claim: gaussian (the Gaussian mechanism "
             "with that (eps, delta), as jax_privacy) or dp (the (eps, delta)-DP curve alone)")
          ->capture_default_str()
          ->check(CLI::IsMember(kCurves));
  seed_opt = app.add_option("--seed", seed,
                            "seed of --thresholds split and multi-split, and of --bootstrap")
                 ->capture_default_str();
  splits_opt = app.add_option("--splits", splits, "--thresholds multi-split: the number of splits")
                   ->capture_default_str()
                   ->check(CLI::Range(std::size_t{1}, std::size_t{100000}));
  app.add_option("--threads", threads,
                 "threads for --thresholds multi-split and --bootstrap (0: all cores); "
                 "output is the same for any number")
      ->capture_default_str()
      ->check(cli::thread_count());
  bootstrap_opt = app.add_option("--bootstrap", bootstrap_replicates,
                                 "B: a two-sided 1 - alpha interval of the point estimate "
                                 "from B stratified resamples, in "
                                 "--json and --report; seeded by --seed. gauss-fit: the "
                                 "range of eps over a confidence region "
                                 "of the fitted parameters, shaped by the resamples (valid "
                                 "where its eps has a kink, at equal "
                                 "spreads); threshold: BCa (Efron 1987)")
                      ->check(CLI::Range(std::size_t{2}, std::size_t{10000000}));
  groups_opt =
      app.add_option(
             "--jackknife-groups", jackknife_groups,
             "--bootstrap with --method threshold: a class of more than G scores is jackknifed "
             "(BCa's acceleration) by deleting G random groups, not single scores")
          ->capture_default_str()
          ->check(CLI::Range(std::size_t{2}, std::size_t{100000000}));
  tpr_opt =
      app.add_option(
             "--tpr-at", tpr_list,
             "comma-separated FPRs in [0,1] at which --json and --report give the TPR (the best "
             "deterministic rule with FPR <= each)")
          ->capture_default_str();
  one_sided_opt =
      app.add_flag("--one-sided", one_sided, "only the TPR/FPR direction, log((1-delta-FNR)/FPR)");
}

void CommandLine::declare_outputs(CLI::App& app) {
  per_opt = app.add_option("--per", per, "round: one epsilon per value of the round column")
                ->check(CLI::IsMember({"round"}));
  fail_opt = app.add_option("--fail-above", fail_above,
                            "exit 3 (and print nothing) when epsilon > X (inf: never)")
                 ->check(cli::epsilon());
  against_opt = app.add_option(
      "--against-curve", curve_path,
      "test the scores (or --decisions) against a claimed trade-off curve, CSV fpr,fnr "
      "(rdp-compose --tradeoff; - = stdin): refuted when FNR_hi < f(FPR_hi) for some "
      "rule, Clopper-Pearson bounds at alpha over --thresholds (bonferroni, split, "
      "multi-split) or --threshold; prints refuted or consistent; assumes no shape");
  app.add_flag("--fail-on-refute", fail_on_refute,
               "--against-curve: exit 3 (and print nothing) when the scores refute the curve")
      ->needs(against_opt);
  band_opt = app.add_option("--roc-band", band_path,
                            "also write the empirical curve: CSV threshold,fpr,tpr,fpr_hi,tpr_lo, "
                            "each rule's Clopper-Pearson band at alpha / (2 K), Bonferroni over "
                            "the K thresholds (simultaneous), its frontier");
  eps_delta_opt = app.add_option("--eps-delta", eps_delta_path,
                                 "also write CSV delta,eps_lo: the Clopper-Pearson bound "
                                 "(Bonferroni) at each delta 10^(-k/4), k = 4..40, all from one "
                                 "band (rdp-compose --eps-delta writes the analytic one)");
  json_opt = app.add_flag("--json", json, "print one JSON object with everything");
  report_opt = app.add_flag("--report", report, "print a short human-readable table");
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
  for (CLI::Option* curve_out : {band_opt, eps_delta_opt})
    curve_out->excludes(decisions_opt)
        ->excludes(per_opt)
        ->excludes(null_dim_opt)
        ->excludes(null_opt);
  groups_opt->needs(bootstrap_opt);
  guesses_opt->excludes(thresholds_opt)->excludes(threshold_opt);
}

void CommandLine::declare_sequential(CLI::App& app) {
  sequential_opt = app.add_flag(
      "--sequential", sequential,
      "an anytime-valid lower bound over trials read as they arrive (CSV trial,label,score, two "
      "rows a trial, or --decisions label,guess with fair-coin labels): valid whenever the stream "
      "is stopped; with --fail-above, exit 3 at the first trial where it exceeds X; --alpha, "
      "--delta (default 0), --json, -o apply");
  every_opt = app.add_option("--every", every,
                             "--sequential: a note with the bound every K trials on stderr")
                  ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 62))
                  ->needs(sequential_opt);
  trace_opt = app.add_option("--trace", trace_path,
                             "--sequential: CSV trials,eps_lo, a row each time the bound rises "
                             "and one for the last trial")
                  ->needs(sequential_opt);
  grid_opt = app.add_option("--eps-grid", grid_text,
                            "--sequential: STEP:MAX, the epsilons tested (the bound is one of "
                            "them)")
                 ->capture_default_str()
                 ->needs(sequential_opt);
}

// The --sequential run, when asked; the estimators' options are refused with it.
std::optional<SequentialRun> CommandLine::sequential_run() const {
  if (!sequential) return std::nullopt;
  cli::forbid_options(
      {in_opt,         out_opt,       negate_opt,   null_dim_opt,  null_opt, method_opt,
       thresholds_opt, threshold_opt, guesses_opt,  curve_opt,     seed_opt, splits_opt,
       bootstrap_opt,  groups_opt,    tpr_opt,      one_sided_opt, per_opt,  against_opt,
       report_opt,     band_opt,      eps_delta_opt},
      "with --sequential");
  SequentialRun run;
  run.decisions = decisions_opt->count() > 0;
  const std::vector<std::string>& inputs = run.decisions ? decisions_paths : scores_paths;
  if (inputs.size() != 1)
    throw UsageError("--sequential reads one stream of trials, not several files");
  run.input = inputs.front();
  run.audit.alpha = alpha;
  run.audit.delta = delta;
  const auto colon = grid_text.find(':');
  const auto step = parse_finite(grid_text.substr(0, colon));
  const auto max =
      colon == std::string::npos ? std::nullopt : parse_finite(grid_text.substr(colon + 1));
  if (!step || !max || !(*step > 0) || !(*max >= *step))
    throw UsageError("the grid must be STEP:MAX with 0 < STEP <= MAX, got '" + grid_text + "'",
                     "--eps-grid");
  run.audit.eps_step = *step;
  run.audit.eps_max = *max;
  run.every = every;
  if (trace_opt->count()) run.trace = trace_path;
  run.fail_above = given(fail_opt, fail_above);
  run.json = json;
  run.quiet = quiet;
  run.output = output_path;
  return run;
}

Options CommandLine::options() const {
  Options o;
  o.scores = scores_paths;
  o.in_npy = in_npy;
  o.out_npy = out_npy;
  o.decisions = given(decisions_opt, decisions_paths);
  o.against_curve = given(against_opt, curve_path);
  o.roc_band = given(band_opt, band_path);
  o.eps_delta = given(eps_delta_opt, eps_delta_path);
  o.fail_on_refute = fail_on_refute;
  o.fail_above = given(fail_opt, fail_above);
  o.tpr_at = given(tpr_opt, tpr_list);
  o.guesses = given(guesses_opt, guesses_text);
  o.json = json;
  o.report = report;
  o.quiet = quiet;
  o.output = output_path;
  EstimateRequest& r = o.request;
  r.method = given(method_opt, method_name);
  r.input = per_opt->count() ? EstimateInput::rounds : EstimateInput::scores;
  r.alpha = alpha;
  r.delta = given(delta_opt, delta);
  if (thresholds_opt->count()) r.thresholds = kThresholdChoices.at(thresholds_name);
  r.threshold = given(threshold_opt, fixed_threshold);
  r.seed = given(seed_opt, seed);
  r.splits = given(splits_opt, splits);
  r.threads = threads;
  r.negated = negate;
  r.one_sided = one_sided;
  r.null_dim = given(null_dim_opt, null_dim);
  if (null_opt->count()) r.null = kNullKinds.at(null_name);
  if (curve_opt->count()) r.curve = kCurves.at(curve_name);
  r.bootstrap = bootstrap_replicates;
  r.jackknife_groups = given(groups_opt, jackknife_groups);
  o.sequential = sequential_run();
  return o;
}

}  // namespace dpaudit::eps_from_scores
