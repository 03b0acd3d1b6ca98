#include "sgd/options.hpp"

#include <memory>
#include <vector>

#include "cli/tool.hpp"
#include "core/error.hpp"
#include "core/trial_range.hpp"
#include "train/dp_sgd_config.hpp"

namespace dpaudit::dp_train {

namespace {

// The options read as names, parsed into the configuration once all are known.
struct Names {
  std::string threat = "api", sampling = "poisson", fault = "none", engine = "train", score = "llr";
  std::string reduce = "max", craft_sign = "descent";
  std::string trial_range;
};

// Options that belong to some threat models only: given with another, a usage error.
struct ThreatOnlyOption {
  const CLI::Option* option;
  bool (*applies)(SgdThreat);
  const char* which;
};

void resolve(const Names& o, SgdConfig& c, bool lr_given, bool batch_given, bool q_given,
             const std::vector<ThreatOnlyOption>& threat_only) {
  c.threat = parse_threat(o.threat);
  for (const ThreatOnlyOption& t : threat_only)
    if (t.option->count() && !t.applies(c.threat))
      throw UsageError("--threat " + o.threat + " does not use it; it is for " + t.which,
                       t.option->get_name());
  c.reduce = parse_reduce(o.reduce);
  c.craft_sign = parse_craft_sign(o.craft_sign);
  c.sampling = parse_lot_sampling(o.sampling);
  c.fault = parse_fault(o.fault);
  c.engine = parse_engine(o.engine);
  c.score = parse_watermark_score(o.score);
  if (c.sampling == Sampling::poisson && batch_given)
    throw UsageError("--batch is the lot size of --sampling shuffle (Poisson lots use --q)",
                     "--batch");
  if (by_epochs(c.sampling) && q_given)
    throw UsageError("--q is the rate of --sampling poisson (lots by epochs use --batch)", "--q");
  if (c.threat == SgdThreat::malicious_dataset) {
    if (lr_given)
      throw UsageError(
          "the malicious-dataset crafter sets the learning rate to 0 (Nasr et al. 2021, Sec. IV-F)",
          "--lr");
    c.lr = 0;
  }
  if (o.trial_range.empty()) {
    c.first_trial = 0;
    c.last_trial = c.trials;
  } else {
    const TrialRange range = parse_trial_range(o.trial_range);
    c.first_trial = range.first;
    c.last_trial = range.last;
  }
  c.validate();
}

// The subcommand's description and EXAMPLES.
void describe_sgd(CLI::App& sub) {
  sub.description(
      "Nasr et al.'s distinguishing game on central DP-SGD (Abadi et al. 2016; Nasr et al. 2021): "
      "trial i trains "
      "one model on D (label 0) and one on D' = D plus the adversary's member (label 1); the "
      "distinguisher scores each (higher = \"trained on D'\"). Writes the CSV `trial,label,score` "
      "for "
      "eps-from-scores --method clopper-pearson (Nasr et al. 2021, Eq. 5).");
  sub.footer(
      "\nEXAMPLES:\n"
      "  dp-train sgd --threat malicious-dataset --engine simulate --eps 4 --trials 100000 |\n"
      "      eps-from-scores - --method clopper-pearson --delta 1e-5   # 1.90; 3.37 at 10^6 trials "
      "(Nasr et al. 2021 Fig. 8: 3.6)\n"
      "  dp-train sgd --threat api --eps 4 --trials 1000 -o api.csv          # Nasr et al. 2021 "
      "Fig. 3: near 0\n"
      "  dp-train sgd --threat gradient-canary --eps 2 --trials 200 --trial-range 0:100 -o "
      "part0.csv\n"
      "  dp-train sgd --threat static-poison --eps 4 --lr 1 --trials 300 -o static.csv   # Nasr et "
      "al. 2021 Fig. 4\n"
      "  dp-train sgd --threat intermediate-poison --reduce mean --eps 10 --lr 1 --trials 300 -o "
      "inter.csv\n"
      "  dp-train sgd --threat adaptive-poison --reduce max --eps 2 --lr 1 --trials 150 --json   # "
      "Fig. 6\n"
      "  dp-train sgd --threat malicious-dataset --engine simulate --eps 2 --trials 1000 --fault "
      "no-clip |\n"
      "      eps-from-scores - --method clopper-pearson --delta 1e-5 --fail-above 2   # exit 3: "
      "caught\n"
      "  (see dp-train(1), section SGD)\n");
}

// The options run_sgd's resolution reads besides their values.
struct GameHandles {
  CLI::Option* q = nullptr;
  CLI::Option* batch = nullptr;
  CLI::Option* lr = nullptr;
  CLI::Option* noise = nullptr;
  CLI::Option* eps = nullptr;
};

// The threat, the data, the model and the training run with its privacy (--threat to --delta).
GameHandles declare_game_options(CLI::App& sub, Names& names, SgdConfig& c) {
  Names* const o = &names;
  GameHandles h;
  sub.add_option("--threat", o->threat,
                 "api | static-poison | intermediate-poison | adaptive-poison | gradient-canary | "
                 "malicious-dataset "
                 "(Nasr et al. 2021, Table I)")
      ->capture_default_str();
  sub.add_option("--task", c.task, "fashion-mnist | synthetic")->capture_default_str();
  sub.add_option("--data", c.data_dir, "folder of the Fashion-MNIST gzip IDX files");
  sub.add_option("--model", c.model, "mlp | logreg | cnn (cnn: one backward per example, slow)")
      ->capture_default_str();
  sub.add_option("--hidden", c.hidden, "mlp hidden width")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 20));
  sub.add_option("--train-size", c.train_size,
                 "N: train on the first N training examples (malicious-dataset: N crafted inputs)")
      ->capture_default_str();
  sub.add_option("--sampling", o->sampling,
                 "poisson (rate --q, what the accountant assumes) | shuffle (--batch) | "
                 "balls-in-bins (--batch on average: each example in one uniformly drawn step "
                 "an epoch)")
      ->capture_default_str();
  h.q = sub.add_option("--q", c.q, "Poisson sampling rate q in (0, 1]")->capture_default_str();
  h.batch = sub.add_option("--batch", c.batch,
                           "shuffle, balls-in-bins: lot size B (epochs of ceil(N / B) lots)");
  sub.add_option("--steps", c.steps, "steps T")->capture_default_str();
  h.lr = sub.add_option("--lr", c.lr, "learning rate (malicious-dataset: 0, set by the crafter)")
             ->capture_default_str()
             ->check(cli::non_negative());
  sub.add_option("--clip", c.clip, "per-example L2 clip norm C")
      ->capture_default_str()
      ->check(cli::positive());
  h.noise = sub.add_option("--noise-multiplier", c.noise_multiplier,
                           "z: noise N(0, (z C)^2 I) on each lot's sum")
                ->check(cli::positive());
  h.eps = sub.add_option("--eps", c.eps, "calibrate z so the whole run is (eps, delta)-DP")
              ->check(cli::positive());
  h.noise->excludes(h.eps);
  sub.add_option("--delta", c.delta, "delta of the run's accounting and of the estimates")
      ->capture_default_str()
      ->check(cli::open_unit_interval());
  return h;
}

// The trials and the gradient canary's watermark and statistic.
void declare_canary_options(CLI::App& sub, Names& names, SgdConfig& c) {
  Names* const o = &names;
  sub.add_option("--trials", c.trials, "trials per hypothesis (one model on D and one on D' each)")
      ->capture_default_str();
  sub.add_option("--trial-range", o->trial_range,
                 "A:B: play trials [A, B) of the --trials (a shard; the CSV then carries the shard "
                 "columns)");
  sub.add_option("--watermark-coords", c.watermark_coords,
                 "2n: coordinates of the gradient watermark (C4)")
      ->capture_default_str();
  sub.add_option(
         "--observe-steps", c.observe_steps,
         "gradient-canary: t_o steps watched before choosing the watermark's coordinates (C4)")
      ->capture_default_str();
  sub.add_option("--canary-norm", c.canary_norm,
                 "the watermark's norm before clipping, in units of C")
      ->capture_default_str()
      ->check(cli::positive());
  sub.add_option("--score", o->score,
                 "D3's statistic: llr (Neyman-Pearson, default) | paper (Eq. 6) | sum | epoch-max "
                 "(malicious-dataset: each epoch's largest step, Chua et al. 2024's test of "
                 "shuffled lots)")
      ->capture_default_str();
}

// The crafters' options, each with the threats it is for.
std::vector<ThreatOnlyOption> declare_craft_options(CLI::App& sub, Names& names, SgdConfig& c) {
  Names* const o = &names;
  auto* shadows = sub.add_option("--shadow-models", c.shadow_models,
                                 "poisons: n shadow models the crafter trains like the target "
                                 "(Nasr et al. 2021, Crafter 2)")
                      ->capture_default_str();
  auto* craft_steps =
      sub.add_option("--craft-steps", c.craft_steps,
                     "poisons: ascent steps T on the shadow models' loss (0: a natural query)")
          ->capture_default_str();
  auto* craft_lr =
      sub.add_option("--craft-lr", c.craft_lr, "poisons: L2 length s of each ascent step")
          ->capture_default_str()
          ->check(cli::positive());
  auto* adaptive_steps =
      sub.add_option(
             "--adaptive-steps", c.adaptive_steps,
             "adaptive-poison: double-backprop steps per poison (Nasr et al. 2021, Crafter 3)")
          ->capture_default_str();
  auto* adaptive_lr =
      sub.add_option("--adaptive-lr", c.adaptive_lr, "adaptive-poison: L2 length of each step")
          ->capture_default_str()
          ->check(cli::positive());
  auto* craft_sign =
      sub.add_option(
             "--craft-sign", o->craft_sign,
             "adaptive-poison: descent (lower the query's loss, as the text says) | printed "
             "(Crafter 3's ascent as printed)")
          ->capture_default_str();
  auto* reduce = sub.add_option("--reduce", o->reduce,
                                "intermediate-/adaptive-poison: max | mean of the loss over the "
                                "intermediate models (D2)")
                     ->capture_default_str();
  return {
      {shadows, crafts_input, "the poisoning threats"},
      {craft_steps, crafts_input, "the poisoning threats"},
      {craft_lr, crafts_input, "the poisoning threats"},
      {adaptive_steps, [](SgdThreat t) { return t == SgdThreat::adaptive_poison; },
       "adaptive-poison"},
      {adaptive_lr, [](SgdThreat t) { return t == SgdThreat::adaptive_poison; }, "adaptive-poison"},
      {craft_sign, [](SgdThreat t) { return t == SgdThreat::adaptive_poison; }, "adaptive-poison"},
      {reduce, reads_intermediate_losses, "intermediate-poison and adaptive-poison"}};
}

// The engine, the fault, the seed, the threads and the output.
void declare_run_options(CLI::App& sub, Names& names, SgdOptions& options) {
  Names* const o = &names;
  SgdConfig& c = options.config;
  sub.add_option("--engine", o->engine,
                 "malicious-dataset: train (LibTorch models) | simulate (the 1-D game)")
      ->capture_default_str();
  sub.add_option(
         "--fault", o->fault,
         "none | no-clip | noise-ignores-clip | shuffle-as-poisson: a bug for the CI gate to catch")
      ->capture_default_str();
  sub.add_option("--seed", c.seed, "random seed")->capture_default_str();
  sub.add_option("--threads", c.threads,
                 "worker threads, 0: all cores (output does not depend on it)")
      ->capture_default_str()
      ->check(cli::thread_count());
  sub.add_option("-o,--output", options.out,
                 "scores CSV file, whole at the end (- = stdout: rows as the trials finish)")
      ->capture_default_str();
  sub.add_flag("--json", options.json,
               "print a JSON summary (noise, analytic eps, estimates, accuracy, trials/s) instead "
               "of the CSV on stdout");
  sub.add_flag("--quiet,-q", c.quiet, "no progress on stderr");
}

}  // namespace

std::function<void()> declare_sgd_options(CLI::App& sub, SgdOptions& options) {
  auto o = std::make_shared<Names>();
  SgdOptions* const out = &options;
  SgdConfig& c = options.config;
  describe_sgd(sub);
  const GameHandles h = declare_game_options(sub, *o, c);
  declare_canary_options(sub, *o, c);
  const std::vector<ThreatOnlyOption> threat_only = declare_craft_options(sub, *o, c);
  declare_run_options(sub, *o, options);
  CLI::Option* const noise = h.noise;
  CLI::Option* const eps = h.eps;
  CLI::Option* const lr = h.lr;
  CLI::Option* const batch = h.batch;
  CLI::Option* const q = h.q;
  return [o, out, noise, eps, lr, batch, q, threat_only] {
    if (!noise->count() && !eps->count())
      throw UsageError(
          "give the noise: --noise-multiplier Z or --eps E (calibrated for the whole run)");
    resolve(*o, out->config, lr->count() > 0, batch->count() > 0, q->count() > 0, threat_only);
    out->shard = !o->trial_range.empty();
  };
}

}  // namespace dpaudit::dp_train
