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
  o.thresholds = ThresholdChoice::max;
  Json j;
  j["eps_threshold"] = json_number(estimate_epsilon(set, o).epsilon);
  o.method = Method::clopper_pearson;
  j["eps_lower_cp_best_threshold"] = json_number(estimate_epsilon(set, o).epsilon);
  o.thresholds = ThresholdChoice::bonferroni;
  j["eps_lower_cp"] = json_number(estimate_epsilon(set, o).epsilon);
  return j;
}

int run_sgd(SgdOptions& o, bool lr_given, bool batch_given, bool q_given) {
  SgdConfig& c = o.config;
  c.threat = parse_threat(o.threat);
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
      "  dp-train sgd --threat malicious-dataset --engine simulate --eps 2 --trials 1000 --fault no-clip |\n"
      "      eps-from-scores - --method clopper-pearson --delta 1e-5 --fail-above 2   # exit 3: caught\n"
      "  (see dp-train(1), section SGD)\n");
  sub.add_option("--threat", o->threat, "api | gradient-canary | malicious-dataset (004 Table I)")
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
  return [o, noise, eps, lr, batch, q] {
    if (!noise->count() && !eps->count())
      throw UsageError("give the noise: --noise-multiplier Z or --eps E (calibrated for the whole run)");
    return run_sgd(*o, lr->count() > 0, batch->count() > 0, q->count() > 0);
  };
}

const Registration registration{{"sgd", declare_sgd}};

}  // namespace

}  // namespace dpaudit::dp_train
