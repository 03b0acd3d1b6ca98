#include "games/torch/sgd_game.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <ctime>
#include <limits>
#include <memory>

#include <ATen/Parallel.h>

#include "adversaries/torch/adaptive_poison.hpp"
#include "adversaries/torch/malicious_dataset.hpp"
#include "adversaries/torch/shadow_poison.hpp"
#include "core/error.hpp"
#include "core/ordered_parallel.hpp"
#include "games/subsampled_gaussian_game.hpp"
#include "random/streams.hpp"
#include "train/torch/differentiable_model.hpp"
#include "train/torch/dp_sgd.hpp"
#include "train/torch/models.hpp"

namespace dpaudit {

namespace {

// CPU time of the calling thread: what crafting costs, whatever else loads the machine.
double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// What every trial reads: the data set D, the initial model and the adversary's choices
// that do not depend on the trial.
struct GameSetup {
  Dataset train, test;
  std::vector<float> theta0;
  std::unique_ptr<PerExampleModel> model;
  // The input the distinguisher scores: api's test example, C2's crafted input (static
  // and intermediate poison: also the inserted member; adaptive poison: the query).
  std::vector<float> target_x;
  std::int64_t target_y = 0;
  Watermark crafted_mark;  // malicious-dataset: chosen from D and theta_0, before training
  std::vector<std::int64_t> widths;  // the crafters' dense network
  InputBox box;                      // ... and the range of the inputs they craft
  CraftedInput crafted;              // C2's objective, for --json
};

// C2 (Nasr et al. 2021, Sec. IV-B): shadow models on D_shadow, the N training examples after D,
// then ascent from one of them drawn at random.
void craft_static(const SgdGameConfig& c, const Dataset& all_train, const ModelConfig& mc,
                  double sigma, GameSetup& s) {
  const std::size_t n = c.train_size, width = all_train.example_size();
  if (2 * n > all_train.size())
    throw UsageError(Pattern{literal("the crafter's shadow data are the " + std::to_string(n) +
                                     " training examples after D, but " + c.task + " has only " +
                                     std::to_string(all_train.size()))},
                     "{train_size}");
  Dataset shadow;
  shadow.example_shape = all_train.example_shape;
  shadow.num_classes = all_train.num_classes;
  shadow.features.assign(all_train.example(n), all_train.example(2 * n));
  shadow.labels.assign(all_train.labels.begin() + static_cast<std::ptrdiff_t>(n),
                       all_train.labels.begin() + static_cast<std::ptrdiff_t>(2 * n));
  s.widths = dense_widths(mc);
  s.box = input_box(shadow);
  const std::vector<std::vector<float>> shadows =
      train_shadow_models(c, {c.shadow_models, c.seed, c.threads}, mc, shadow, sigma);
  PhiloxStream rng(c.seed, streams::kSgdTarget);
  const std::size_t i = uniform_below(rng, n);
  s.crafted = ascend_shadow_loss(s.widths, shadows,
                                 std::vector<float>(shadow.example(i), shadow.example(i) + width),
                                 shadow.labels[i], c.craft_steps, c.craft_lr, s.box);
  s.target_x = s.crafted.x;
  s.target_y = s.crafted.y;
}

GameSetup prepare(const SgdGameConfig& c, double sigma) {
  TrainTest data = load_task(c.task, c.data_dir, c.seed);
  if (c.train_size > data.train.size())
    throw UsageError(
        Pattern{literal("the train size " + std::to_string(c.train_size) + " exceeds the " +
                        std::to_string(data.train.size()) + " training examples of " + c.task)},
        "{train_size}");
  GameSetup s;
  const ModelConfig mc = model_config(c.model, data.train, c.hidden);
  s.model = PerExampleModel::make(mc, c.seed, s.theta0);
  if (uses_watermark(c.threat) && c.watermark_coords > s.theta0.size())
    throw UsageError(Pattern{"the watermark's " + std::to_string(c.watermark_coords) +
                             " coordinates exceed the model's " + std::to_string(s.theta0.size()) +
                             " parameters"},
                     "{watermark_coords}");
  s.test = std::move(data.test);
  s.train.example_shape = data.train.example_shape;
  s.train.num_classes = data.train.num_classes;
  const std::size_t width = data.train.example_size();
  if (c.threat == SgdThreat::malicious_dataset) {
    craft_malicious_dataset(c.train_size, c.seed, *s.model, s.theta0, s.train);
    s.crafted_mark =
        craft_malicious_watermark(s.train, *s.model, s.theta0, c.clip, c.watermark_coords);
  } else {
    s.train.features.assign(
        data.train.features.begin(),
        data.train.features.begin() + static_cast<std::ptrdiff_t>(c.train_size * width));
    s.train.labels.assign(data.train.labels.begin(),
                          data.train.labels.begin() + static_cast<std::ptrdiff_t>(c.train_size));
  }
  if (crafts_input(c.threat)) craft_static(c, data.train, mc, sigma, s);
  if (c.threat == SgdThreat::api) {
    // C1: one test example, drawn once for the whole run.
    PhiloxStream rng(c.seed, streams::kSgdTarget);
    const std::size_t i = uniform_below(rng, s.test.size());
    s.target_x.assign(s.test.example(i), s.test.example(i) + width);
    s.target_y = s.test.labels[i];
  }
  return s;
}

// One thread's player: its own copy of the model (scratch space) and trainer.
class TrialPlayer {
 public:
  TrialPlayer(const SgdGameConfig& c, const GameSetup& s, double sigma)
      : c_(c),
        s_(s),
        sigma_(sigma),
        model_(s.model->clone()),
        trainer_(c, s.train, *model_, sigma) {
    if (c.threat == SgdThreat::adaptive_poison)
      crafter_ = std::make_unique<AdaptiveCrafter>(
          s.widths, s.target_x, s.target_y, c.lr / c.expected_lot(), c.clip, c.adaptive_steps,
          c.adaptive_lr, c.craft_sign, s.box);
  }

  double play(std::size_t trial, int label) {
    PhiloxStream rng(c_.seed, streams::kSgdTrial + 2 * trial + static_cast<std::uint64_t>(label));
    theta_ = s_.theta0;
    Insertion insertion;
    Insertion* inserted = label ? &insertion : nullptr;
    if (uses_watermark(c_.threat)) return play_watermark(rng, inserted);
    insertion.y = s_.target_y;
    if (crafter_) {
      insertion.craft = [&](const float* theta) {
        const double start = thread_cpu_seconds();
        const float* x = crafter_->craft(theta, theta_.size()).data();
        craft_seconds_ += thread_cpu_seconds() - start;
        ++crafts_;
        return x;
      };
    } else {
      insertion.x = s_.target_x.data();
    }
    return play_input(rng, inserted);
  }

  // Accuracy of the last trained model on the test set.
  double test_accuracy() { return dpaudit::test_accuracy(*model_, theta_, s_.test); }
  // C3's poisons crafted by this player, and the CPU seconds they took.
  std::size_t crafts() const { return crafts_; }
  double craft_seconds() const { return craft_seconds_; }

 private:
  // D1 (Nasr et al. 2021, Sec. IV-A): the final model's loss on the target; D2 (Sec.
  // IV-C): its max or mean over the intermediate models theta_1 .. theta_T.
  double play_input(PhiloxStream& rng, Insertion* insertion) {
    auto target_loss = [&] {
      double loss = 0;
      model_->losses(theta_.data(), s_.target_x.data(), &s_.target_y, 1, &loss);
      return loss;
    };
    if (!reads_intermediate_losses(c_.threat)) {
      trainer_.train(theta_, rng, insertion);
      return final_loss_score(target_loss());
    }
    IntermediateLossScore d2;
    // The observer of step t sees theta_t (before the step): t >= 1 are the intermediate models.
    trainer_.train(theta_, rng, insertion, [&](std::size_t t, const float*) {
      if (t > 0) d2.add(target_loss());
    });
    d2.add(target_loss());  // theta_T
    return d2.score(c_.reduce);
  }

  // C4 (C5) and D3: the first t_o updates choose the watermark's coordinates (least
  // total movement; C5's are chosen before training); every later update's projection
  // on the watermark, normalised so that a lot with the watermark has mean 1 and noise
  // sd z (C sqrt(2n) / L per lot), adds its step score.
  double play_watermark(PhiloxStream& rng, Insertion* insertion) {
    const std::size_t d = theta_.size(), coords = c_.watermark_coords;
    const std::size_t observe = c_.threat == SgdThreat::gradient_canary ? c_.observe_steps : 0;
    std::vector<float> movement(d, 0.0f);
    Watermark mark = s_.crafted_mark;
    auto choose = [&] {
      if (observe) mark = select_watermark(movement.data(), d, coords / 2);
      if (insertion) {
        insertion->gradient.assign(d, 0.0f);
        add_watermark(mark, c_.canary_norm * c_.clip, insertion->gradient.data());
      }
    };
    if (observe == 0) choose();
    const double unit = c_.clip * std::sqrt(static_cast<double>(coords)) / c_.expected_lot();
    WatermarkScorer scorer(c_.score, sigma_, c_.sampling_rate(), c_.epoch_steps());
    trainer_.train(theta_, rng, insertion, [&](std::size_t t, const float* update) {
      if (t < observe) {
        for (std::size_t j = 0; j < d; ++j) movement[j] += std::fabs(update[j]);
        if (t + 1 == observe) choose();
        return;
      }
      scorer.add(watermark_projection(mark, update) / unit);
    });
    return scorer.score();
  }

  const SgdGameConfig& c_;
  const GameSetup& s_;
  double sigma_;
  std::unique_ptr<PerExampleModel> model_;
  DpSgdTrainer trainer_;
  std::vector<float> theta_;
  std::unique_ptr<AdaptiveCrafter> crafter_;
  std::size_t crafts_ = 0;
  double craft_seconds_ = 0;
};

// The malicious-dataset game reduced to one dimension (Nasr et al. 2021, Sec. IV-G): every step,
// the watermark's normalised signal (C, or its raw norm when a fault skips clipping), the noise (z
// C, or z when a fault forgets C) and the lots' sampling.
SubsampledGaussianGame reduced_game(const SgdGameConfig& c, double sigma) {
  SubsampledGaussianGame g;
  g.noise_multiplier = sigma;
  g.q = c.sampling_rate();
  g.steps = c.steps;
  g.signal =
      c.fault == SgdFault::no_clip ? c.canary_norm : std::min(c.canary_norm, 1.0);  // clipped to C
  g.noise_scale = c.fault == SgdFault::noise_ignores_clip ? 1.0 / c.clip : 1.0;
  // balls-in-bins puts the canary in one uniformly drawn step an epoch, as shuffling does
  g.sampling = c.fault == SgdFault::shuffle_as_poisson ? Sampling::shuffle : c.sampling;
  g.epoch_steps = c.epoch_steps();
  g.score = c.score;
  g.seed = c.seed;
  return g;
}

// The simulated game in chunks of this many trials, each played by one thread: a delivery
// every few milliseconds, so a reader sees the trials as they come.
constexpr std::size_t kSimulatedChunk = 4096;

std::size_t play_simulated(const SgdGameConfig& c, double sigma, const SgdScoreSink& sink,
                           const std::function<void(std::size_t)>& progress) {
  const SubsampledGaussianGame game = reduced_game(c, sigma);
  const std::size_t trials = c.last_trial - c.first_trial;
  const std::size_t chunks = (trials + kSimulatedChunk - 1) / kSimulatedChunk;
  const auto chunk_end = [&](std::size_t j) { return std::min(trials, (j + 1) * kSimulatedChunk); };
  const std::size_t delivered = ordered_parallel<std::vector<double>>(
      chunks, c.threads,
      [&](std::size_t) {
        return [&](std::size_t j) {
          return play_subsampled_gaussian_game(game, c.first_trial + j * kSimulatedChunk,
                                               c.first_trial + chunk_end(j), 1);
        };
      },
      [&](std::size_t begin, const std::vector<std::vector<double>>& run) {
        for (std::size_t i = 0; i < run.size(); ++i)
          if (!sink((begin + i) * kSimulatedChunk, run[i].data(), run[i].size() / 2)) return false;
        if (progress) progress(chunk_end(begin + run.size() - 1));
        return true;
      });
  return delivered == 0 ? 0 : chunk_end(delivered - 1);
}

}  // namespace

SgdGameResult play_sgd_game(const SgdGameConfig& c, double sigma, std::size_t evaluate,
                            const SgdScoreSink& sink,
                            const std::function<void(std::size_t)>& progress) {
  SgdGameResult result;
  const std::size_t trials = c.last_trial - c.first_trial;
  const auto start = std::chrono::steady_clock::now();
  if (c.engine == SgdEngine::simulate) {
    result.trials = play_simulated(c, sigma, sink, progress);
  } else {
    at::set_num_threads(1);  // parallelism is over trials
    const GameSetup setup = prepare(c, sigma);
    result.setup_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.parameters = setup.model->parameter_count();
    if (crafts_input(c.threat)) {
      result.crafted_initial_loss = setup.crafted.initial_loss;
      result.crafted_final_loss = setup.crafted.final_loss;
    }
    evaluate = std::min(evaluate, trials);
    std::vector<double> accuracy(evaluate, 0.0);
    std::vector<std::unique_ptr<TrialPlayer>> players(resolve_threads(c.threads));
    using Scores = std::array<double, 2>;  // on D, on D'
    result.trials = ordered_parallel<Scores>(
        trials, c.threads,
        [&](std::size_t thread) {
          players[thread] = std::make_unique<TrialPlayer>(c, setup, sigma);
          return [&player = *players[thread], &c, &accuracy, evaluate](std::size_t k) {
            Scores s{player.play(c.first_trial + k, 0), 0};
            if (k < evaluate) accuracy[k] = player.test_accuracy();
            s[1] = player.play(c.first_trial + k, 1);
            return s;
          };
        },
        [&](std::size_t begin, const std::vector<Scores>& run) {
          std::vector<double> flat;
          for (const Scores& s : run) flat.insert(flat.end(), s.begin(), s.end());
          if (!sink(begin, flat.data(), run.size())) return false;
          if (progress) progress(begin + run.size());
          return true;
        });
    for (const auto& player : players) {
      if (!player) continue;
      result.crafts += player->crafts();
      result.craft_seconds += player->craft_seconds();
    }
    result.evaluated = std::min(evaluate, result.trials);
    if (result.evaluated) {
      double total = 0;
      for (std::size_t k = 0; k < result.evaluated; ++k) total += accuracy[k];
      result.test_accuracy = total / static_cast<double>(result.evaluated);
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace dpaudit
