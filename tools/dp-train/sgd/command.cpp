// `dp-train sgd`: 004's distinguishing game on central DP-SGD, many trials. Declares the
// options, calibrates the noise (sgd/accounting.hpp), plays the trials (sgd/game.hpp)
// and writes the scores CSV `trial,label,score`, or a JSON summary.
#include <iostream>
#include <memory>

#include "cli/progress.hpp"
#include "cli/tool.hpp"
#include "command.hpp"
#include "core/error.hpp"
#include "io/atomic_output.hpp"
#include "io/format.hpp"
#include "sgd/accounting.hpp"
#include "sgd/game.hpp"
#include "stats/epsilon_estimators.hpp"

namespace dpaudit::dp_train {

namespace {

struct SgdOptions {
  SgdConfig config;
  std::string threat = "api", sampling = "poisson", fault = "none", engine = "train", score = "llr";
  std::string reduce = "max", craft_sign = "descent";
  std::string trial_range, out = "-";
  std::size_t evaluate = 5;
  bool json = false;
};

// "A:B" -> [A, B).
void parse_trial_range(const std::string& text, SgdConfig& c) {
  const auto colon = text.find(':');
  auto whole = [&](const std::string& s) {
    if (s.empty() || s.size() > 18 || s.find_first_not_of("0123456789") != std::string::npos)
      throw UsageError("the trial range must be A:B with whole numbers A < B, got '" + text + "'", "--trial-range");
    return static_cast<std::size_t>(std::stoull(s));
  };
  if (colon == std::string::npos)
    throw UsageError("the trial range must be A:B with whole numbers A < B, got '" + text + "'", "--trial-range");
  c.first_trial = whole(text.substr(0, colon));
  c.last_trial = whole(text.substr(colon + 1));
}

// The estimates --json reports: 004's (Clopper-Pearson at the best threshold, as the
// paper) and the honest one (Bonferroni over the thresholds), at the run's delta.
Json estimates(const std::vector<double>& scores, double delta) {
  std::vector<double> in, out;
  for (std::size_t k = 0; k < scores.size(); ++k) (k % 2 ? in : out).push_back(scores[k]);
  const ScoreSet set(std::move(in), std::move(out));
  EstimatorOptions o;
  o.delta = delta;
  o.method = Method::threshold;
  o.strategy.choice = ThresholdChoice::max;
  Json j;
  j["eps_threshold"] = json_number(estimate_epsilon(set, o).epsilon);
  o.method = Method::clopper_pearson;
  j["eps_lower_cp_best_threshold"] = json_number(estimate_epsilon(set, o).epsilon);
  o.strategy.choice = ThresholdChoice::bonferroni;
  j["eps_lower_cp"] = json_number(estimate_epsilon(set, o).epsilon);
  return j;
}

// Options that belong to some threat models only: given with another, a usage error.
struct ThreatOnlyOption {
  const CLI::Option* option;
  bool (*applies)(SgdThreat);
  const char* which;
};

int run_sgd(SgdOptions& o, bool lr_given, bool batch_given, bool q_given,
            const std::vector<ThreatOnlyOption>& threat_only) {
  SgdConfig& c = o.config;
  c.threat = parse_threat(o.threat);
  for (const ThreatOnlyOption& t : threat_only)
    if (t.option->count() && !t.applies(c.threat))
      throw UsageError("--threat " + o.threat + " does not use it; it is for " + t.which, t.option->get_name());
  c.reduce = parse_reduce(o.reduce);
  c.craft_sign = parse_craft_sign(o.craft_sign);
  c.sampling = parse_sampling(o.sampling);
  c.fault = parse_fault(o.fault);
  c.engine = parse_engine(o.engine);
  c.score = parse_watermark_score(o.score);
  if (c.sampling == LotSampling::poisson && batch_given)
    throw UsageError("--batch is the lot size of --sampling shuffle (Poisson lots use --q)", "--batch");
  if (c.sampling == LotSampling::shuffle && q_given)
    throw UsageError("--q is the rate of --sampling poisson (shuffled lots use --batch)", "--q");
  if (c.threat == SgdThreat::malicious_dataset) {
    if (lr_given) throw UsageError("the malicious-dataset crafter sets the learning rate to 0 (004 Sec. IV-F)", "--lr");
    c.lr = 0;
  }
  if (o.trial_range.empty()) {
    c.first_trial = 0;
    c.last_trial = c.trials;
  } else {
    parse_trial_range(o.trial_range, c);
  }
  c.validate();
  const SgdAccounting accounting = account_sgd_run(c);
  cli::Progress progress("dp-train sgd", c.last_trial - c.first_trial, c.quiet);
  const SgdGameResult result = play_sgd_game(c, accounting.noise_multiplier, o.json ? o.evaluate : 0,
                                             [&](std::size_t done) { progress.update(done); });
  if (!o.json || o.out != "-") {
    AtomicOutput out(o.out);
    out.stream() << "trial,label,score\n";
    for (std::size_t k = 0; k < result.scores.size(); ++k)
      out.stream() << c.first_trial + k / 2 << ',' << k % 2 << ',' << format_number(result.scores[k]) << '\n';
    out.commit();
  }
  if (o.json) {
    Json j = c.to_json();
    j["noise_multiplier"] = json_number(accounting.noise_multiplier);
    j["analytic_eps"] = json_number(accounting.epsilon);
    j["accountant"] = accounting.accountant;
    j["accountant_assumes"] = accounting.assumes;
    if (c.sampling == LotSampling::poisson) {
      if (accounting.pld) j["eps_pld"] = {{"upper", json_number(accounting.pld->upper)}, {"lower", json_number(accounting.pld->lower)}};
      j["eps_rdp"] = json_number(accounting.rdp);
    }
    if (result.parameters) j["parameters"] = result.parameters;
    j["setup_seconds"] = result.setup_seconds;
    if (crafts_input(c.threat))
      j["crafted"] = {{"shadow_loss_initial", json_number(result.crafted_initial_loss)},
                      {"shadow_loss_final", json_number(result.crafted_final_loss)}};
    if (c.threat == SgdThreat::adaptive_poison) {
      j["crafts"] = result.crafts;
      j["craft_seconds"] = result.craft_seconds;
    }
    if (result.evaluated) {
      j["test_accuracy"] = result.test_accuracy;
      j["test_accuracy_models"] = result.evaluated;
    }
    j["estimates"] = estimates(result.scores, c.delta);
    j["seconds"] = result.seconds;
    j["trials_per_second"] = result.seconds > 0 ? double(c.last_trial - c.first_trial) / result.seconds : 0.0;
    std::cout << json_line(j);
  }
  return 0;
}

std::function<int()> declare_sgd(CLI::App& sub) {
  auto o = std::make_shared<SgdOptions>();
  SgdConfig& c = o->config;
  sub.description(
      "004's distinguishing game on central DP-SGD (Abadi et al. 2016; Nasr et al. 2021): trial i trains "
      "one model on D (label 0) and one on D' = D plus the adversary's member (label 1); the "
      "distinguisher scores each (higher = \"trained on D'\"). Writes the CSV `trial,label,score` for "
      "eps-from-scores --method clopper-pearson (004 Eq. 5).");
  sub.footer(
      "\nEXAMPLES:\n"
      "  dp-train sgd --threat malicious-dataset --engine simulate --eps 4 --trials 100000 |\n"
      "      eps-from-scores - --method clopper-pearson --delta 1e-5        # 004 Fig. 8: near 4\n"
      "  dp-train sgd --threat api --eps 4 --trials 1000 -o api.csv          # 004 Fig. 3: near 0\n"
      "  dp-train sgd --threat gradient-canary --eps 2 --trials 200 --trial-range 0:100 -o part0.csv\n"
      "  dp-train sgd --threat static-poison --eps 4 --lr 1 --trials 300 -o static.csv   # 004 Fig. 4\n"
      "  dp-train sgd --threat intermediate-poison --reduce mean --eps 10 --lr 1 --trials 300 -o inter.csv\n"
      "  dp-train sgd --threat adaptive-poison --reduce max --eps 2 --lr 1 --trials 150 --json   # Fig. 6\n"
      "  dp-train sgd --threat malicious-dataset --engine simulate --eps 2 --trials 1000 --fault no-clip |\n"
      "      eps-from-scores - --method clopper-pearson --delta 1e-5 --fail-above 2   # exit 3: caught\n"
      "  (see dp-train(1), section SGD)\n");
  sub.add_option("--threat", o->threat,
                 "api | static-poison | intermediate-poison | adaptive-poison | gradient-canary | malicious-dataset "
                 "(004 Table I)")
      ->capture_default_str();
  sub.add_option("--task", c.task, "fashion-mnist | synthetic")->capture_default_str();
  sub.add_option("--data", c.data_dir, "folder of the Fashion-MNIST gzip IDX files");
  sub.add_option("--model", c.model, "mlp | logreg | cnn (cnn: one backward per example, slow)")
      ->capture_default_str();
  sub.add_option("--hidden", c.hidden, "mlp hidden width")->capture_default_str()
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 20));
  sub.add_option("--train-size", c.train_size,
                 "N: train on the first N training examples (malicious-dataset: N crafted inputs)")
      ->capture_default_str();
  sub.add_option("--sampling", o->sampling, "poisson (rate --q, what the accountant assumes) | shuffle (--batch)")
      ->capture_default_str();
  auto* q = sub.add_option("--q", c.q, "Poisson sampling rate q in (0, 1]")->capture_default_str();
  auto* batch = sub.add_option("--batch", c.batch, "shuffle: lot size B (epochs of ceil(N / B) lots)");
  sub.add_option("--steps", c.steps, "steps T")->capture_default_str();
  auto* lr = sub.add_option("--lr", c.lr, "learning rate (malicious-dataset: 0, set by the crafter)")
                 ->capture_default_str()->check(cli::non_negative());
  sub.add_option("--clip", c.clip, "per-example L2 clip norm C")->capture_default_str()->check(cli::positive());
  auto* noise = sub.add_option("--noise-multiplier", c.noise_multiplier, "z: noise N(0, (z C)^2 I) on each lot's sum")
                    ->check(cli::positive());
  auto* eps = sub.add_option("--eps", c.eps, "calibrate z so the whole run is (eps, delta)-DP")
                  ->check(cli::positive());
  noise->excludes(eps);
  sub.add_option("--delta", c.delta, "delta of the run's accounting and of the estimates")->capture_default_str()
      ->check(cli::open_unit_interval());
  sub.add_option("--trials", c.trials, "trials per hypothesis (one model on D and one on D' each)")
      ->capture_default_str();
  sub.add_option("--trial-range", o->trial_range, "A:B: play trials [A, B) of the --trials (a shard)");
  sub.add_option("--watermark-coords", c.watermark_coords, "2n: coordinates of the gradient watermark (C4)")
      ->capture_default_str();
  sub.add_option("--observe-steps", c.observe_steps, "gradient-canary: t_o steps watched before choosing the watermark's coordinates (C4)")
      ->capture_default_str();
  sub.add_option("--canary-norm", c.canary_norm, "the watermark's norm before clipping, in units of C")
      ->capture_default_str()->check(cli::positive());
  sub.add_option("--score", o->score, "D3's statistic: llr (Neyman-Pearson, default) | paper (Eq. 6) | sum")
      ->capture_default_str();
  auto* shadows = sub.add_option("--shadow-models", c.shadow_models,
                                 "poisons: n shadow models the crafter trains like the target (004 Crafter 2)")
                      ->capture_default_str();
  auto* craft_steps = sub.add_option("--craft-steps", c.craft_steps, "poisons: ascent steps T on the shadow models' loss")
                          ->capture_default_str();
  auto* craft_lr = sub.add_option("--craft-lr", c.craft_lr, "poisons: L2 length s of each ascent step")
                       ->capture_default_str()->check(cli::positive());
  auto* adaptive_steps = sub.add_option("--adaptive-steps", c.adaptive_steps,
                                        "adaptive-poison: double-backprop steps per poison (004 Crafter 3)")
                             ->capture_default_str();
  auto* adaptive_lr = sub.add_option("--adaptive-lr", c.adaptive_lr, "adaptive-poison: L2 length of each step")
                          ->capture_default_str()->check(cli::positive());
  auto* craft_sign = sub.add_option("--craft-sign", o->craft_sign,
                                    "adaptive-poison: descent (lower the query's loss, as the text says) | printed "
                                    "(Crafter 3's ascent as printed)")
                         ->capture_default_str();
  auto* reduce = sub.add_option("--reduce", o->reduce,
                                "intermediate-/adaptive-poison: max | mean of the loss over the intermediate models (D2)")
                     ->capture_default_str();
  sub.add_option("--engine", o->engine, "malicious-dataset: train (LibTorch models) | simulate (the 1-D game)")
      ->capture_default_str();
  sub.add_option("--fault", o->fault, "none | no-clip | noise-ignores-clip | shuffle-as-poisson: a bug for the CI gate to catch")
      ->capture_default_str();
  sub.add_option("--seed", c.seed, "random seed")->capture_default_str();
  sub.add_option("--threads", c.threads, "worker threads, 0: all cores (output does not depend on it)")
      ->capture_default_str()->check(cli::thread_count());
  sub.add_option("-o,--output", o->out, "scores CSV file (- = stdout)")->capture_default_str();
  sub.add_flag("--json", o->json,
               "print a JSON summary (noise, analytic eps, estimates, accuracy, trials/s) instead of the CSV on stdout");
  sub.add_flag("--quiet,-q", c.quiet, "no progress on stderr");
  const std::vector<ThreatOnlyOption> threat_only{
      {shadows, crafts_input, "the poisoning threats"},
      {craft_steps, crafts_input, "the poisoning threats"},
      {craft_lr, crafts_input, "the poisoning threats"},
      {adaptive_steps, [](SgdThreat t) { return t == SgdThreat::adaptive_poison; }, "adaptive-poison"},
      {adaptive_lr, [](SgdThreat t) { return t == SgdThreat::adaptive_poison; }, "adaptive-poison"},
      {craft_sign, [](SgdThreat t) { return t == SgdThreat::adaptive_poison; }, "adaptive-poison"},
      {reduce, reads_intermediate_losses, "intermediate-poison and adaptive-poison"}};
  return [o, noise, eps, lr, batch, q, threat_only] {
    if (!noise->count() && !eps->count())
      throw UsageError("give the noise: --noise-multiplier Z or --eps E (calibrated for the whole run)");
    return run_sgd(*o, lr->count() > 0, batch->count() > 0, q->count() > 0, threat_only);
  };
}

const Registration registration{{"sgd", declare_sgd}};

}  // namespace

}  // namespace dpaudit::dp_train
