#include "games/torch/ldp_sgd_game.hpp"

#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>

#include <ATen/Parallel.h>

#include "adversaries/torch/ldp_crafters.hpp"
#include "core/error.hpp"
#include "core/ordered_parallel.hpp"
#include "random/streams.hpp"
#include "stats/epsilon_from_rates.hpp"

namespace dpaudit {

using namespace ldp;

Json LdpGameConfig::to_json() const {
  Json j = {{"crafter", to_string(crafter)},
            {"distinguisher", to_string(distinguisher)},
            {"eps", json_number(ldp.eps)},
            {"clip", json_number(ldp.clip)},
            {"trials", trials},
            {"clients", clients},
            {"task", task},
            {"model", model},
            {"pretrain_steps", pretrain_steps},
            {"server_constant", printed_constant ? "printed" : "unbiased"},
            {"malicious_label", malicious_label},
            {"seed", seed},
            {"trial_seed", trials_seed()}};
  if (crafter == LdpCrafter::dummy_gradient)
    j["dummy_norm"] = json_number(dummy_norm > 0 ? dummy_norm : ldp.clip);
  if (trial_range) j["trial_range"] = {trial_range->first, trial_range->last};
  return j;
}

Json LdpGameResult::summary(const LdpGameConfig& config) const {
  std::size_t count[2][2] = {{0, 0}, {0, 0}};  // [label][guess]
  for (std::size_t k = 0; k < labels.size(); ++k) ++count[labels[k]][guesses[k]];
  const double negatives = static_cast<double>(count[0][0] + count[0][1]);
  const double positives = static_cast<double>(count[1][0] + count[1][1]);
  // FP: the report came from g2 but the guess is g1; FN: from g1, guessed g2 (Matsumoto et al. 2022
  // Eq. 3).
  const double fpr = negatives > 0 ? count[0][1] / negatives : 0;
  const double fnr = positives > 0 ? count[1][0] / positives : 0;
  Json j = config.to_json();
  j["dim"] = dim;
  j["radius"] = json_number(radius);
  j["learning_rate"] = json_number(learning_rate);
  if (model_accuracy >= 0) j["model_accuracy"] = model_accuracy;
  j["g1_trials"] = count[1][0] + count[1][1];
  j["g2_trials"] = count[0][0] + count[0][1];
  j["correct"] = count[0][0] + count[1][1];
  j["false_positive_rate"] = fpr;
  j["false_negative_rate"] = fnr;
  j["eps_empirical"] =
      json_number(negatives > 0 && positives > 0 ? epsilon_from_rates(fpr, fnr, 0) : 0.0);
  j["eps_bound"] = json_number(config.ldp.eps);
  j["seconds"] = seconds;
  j["trials_per_second"] = seconds > 0 ? static_cast<double>(labels.size()) / seconds : 0.0;
  return j;
}

namespace {

// What every trial reads: the data, the server's model theta_t and the pools of images.
struct GameSetup {
  TrainTest data;
  torch::nn::Sequential model{nullptr};
  Eigen::VectorXd theta;                 // the server's model (theta~_t under collusion)
  std::vector<std::size_t> x1_pool;      // test images x1 is drawn from
  std::vector<std::size_t> client_pool;  // training images of the other n-1 clients
  CraftedPair dummy;                     // the dummy gradient's fixed pair
  bool uses_model = false;
};

std::vector<std::size_t> indices_where(const Dataset& data,
                                       const std::function<bool(std::int64_t)>& keep) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < data.size(); ++i)
    if (keep(data.labels[i])) out.push_back(i);
  return out;
}

// Loads data, builds and pre-trains theta_t (or the malicious model), fixes d and ||C||.
GameSetup prepare(const LdpGameConfig& c, LdpGameResult& result) {
  GameSetup s;
  s.uses_model = c.crafter != LdpCrafter::dummy_gradient;
  if (s.uses_model || c.dim == 0) s.data = load_task(c.task, c.data_dir, c.seed);
  if (!s.uses_model) {
    // No model: d from --dim or the model's size; theta_t = 0 (Matsumoto et al. 2022 Alg. 2 line
    // 1).
    result.dim = c.dim ? c.dim
                       : static_cast<std::size_t>(parameter_count(
                             *make_model(model_config(c.model, s.data.train), c.seed)));
    s.dummy = dummy_gradient_pair(result.dim, c.dummy_norm > 0 ? c.dummy_norm : c.ldp.clip);
    s.theta = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(result.dim));
  } else {
    const bool collusion = c.crafter == LdpCrafter::collusion;
    if (collusion && c.malicious_label >= s.data.train.num_classes)
      throw UsageError(Pattern{"the malicious label must be below the number of classes (" +
                               std::to_string(s.data.train.num_classes) + ")"},
                       "{malicious_label}");
    s.model = make_model(model_config(c.model, s.data.train), c.seed);
    const auto label = c.malicious_label;
    const auto train_pool =
        indices_where(s.data.train, [&](std::int64_t y) { return !collusion || y == label; });
    PhiloxStream rng(c.seed, collusion ? streams::kLdpMalicious : streams::kLdpPretrain);
    pretrain(s.model, s.data.train, train_pool, c.pretrain_steps, rng);
    s.theta = parameters_of(*s.model);
    result.dim = static_cast<std::size_t>(s.theta.size());
    result.model_accuracy = evaluate(s.model, s.data.test).accuracy;
    s.x1_pool =
        indices_where(s.data.test, [&](std::int64_t y) { return !collusion || y != label; });
    s.client_pool = indices_where(s.data.train, [](std::int64_t) { return true; });
    if (s.x1_pool.empty() || s.data.test.size() < 2)
      throw DataError("too few test images for the crafter");
  }
  const double norm = s.theta.norm();
  result.radius = c.radius > 0 ? c.radius : norm > 0 ? norm : c.ldp.clip;
  result.learning_rate = c.learning_rate > 0
                             ? c.learning_rate
                             : ldp_sgd_learning_rate(result.radius, c.clients, result.dim, c.ldp);
  // eta * (constant / d) = (eta / d) * constant.
  if (c.printed_constant) result.learning_rate /= static_cast<double>(result.dim);
  return s;
}

// One thread's model replica and buffers; plays trials [begin, end).
class TrialPlayer {
 public:
  TrialPlayer(const LdpGameConfig& c, const GameSetup& s, const LdpGameResult& r)
      : c_(c),
        s_(s),
        radius_(r.radius),
        learning_rate_(r.learning_rate),
        report_(s.theta.size()),
        reports_(s.theta.size()),
        next_(s.theta.size()) {
    if (s.uses_model)
      view_.emplace(std::dynamic_pointer_cast<torch::nn::SequentialImpl>(s.model->clone()),
                    s.theta);
    else
      dummy_white_box_.emplace(s.dummy.g1, s.dummy.g2);
  }

  // Alg. 3 / Alg. 4, one iteration: craft, pick g1 or g2, randomize, guess.
  void play(std::size_t trial, std::uint8_t& label, std::uint8_t& guess) {
    PhiloxStream rng(c_.trials_seed(), streams::kLdpTrial + trial);
    if (view_) craft(c_.crafter, *view_, s_.data.test, s_.x1_pool, rng, pair_);
    const CraftedPair& pair = view_ ? pair_ : s_.dummy;
    const bool first = rng.uniform() < 0.5;
    ldp_sgd_randomize(first ? pair.g1 : pair.g2, c_.ldp, rng, report_);
    label = first;
    if (c_.distinguisher == LdpDistinguisher::black_box)
      guess = black_box_guess(pair, rng);
    else
      guess = view_ ? white_box_guess(report_, pair.g1, pair.g2) : dummy_white_box_->guess(report_);
  }

 private:
  // The server averages our report with those of n-1 benign clients (a random training
  // image's gradient at theta_t each; without a model, a zero gradient, whose report is
  // uniform), takes Alg. 2's step, and the distinguisher compares theta_t and theta_{t+1}.
  bool black_box_guess(const CraftedPair& pair, PhiloxStream& rng) {
    reports_ = report_;
    for (std::size_t i = 1; i < c_.clients; ++i) {
      if (view_) {
        const std::size_t j = s_.client_pool[uniform_below(rng, s_.client_pool.size())];
        ldp_sgd_randomize(view_->gradient(gather_batch(s_.data.train, &j, 1), view_->theta()),
                          c_.ldp, rng, report_);
      } else {
        ldp_sgd_randomize(Eigen::VectorXd::Zero(report_.size()), c_.ldp, rng, report_);
      }
      reports_ += report_;
    }
    next_ = s_.theta;
    ldp_sgd_server_step(next_, reports_, c_.clients, radius_, learning_rate_, c_.ldp);
    switch (black_box_rule(c_.crafter)) {
      case BlackBoxRule::sign_sum:
        return sign_sum_guess(s_.theta, next_);
      case BlackBoxRule::loss_decrease:
        return loss_decrease_guess(view_->loss(pair.x1, view_->theta()),
                                   view_->loss(pair.x1, next_));
      case BlackBoxRule::loss_change:
        return loss_change_guess(view_->loss(pair.x1, view_->theta()), view_->loss(pair.x1, next_),
                                 view_->loss(pair.x2, view_->theta()), view_->loss(pair.x2, next_));
    }
    return true;
  }

  const LdpGameConfig& c_;
  const GameSetup& s_;
  double radius_, learning_rate_;
  std::optional<LdpModelView> view_;
  std::optional<WhiteBoxDistinguisher> dummy_white_box_;  // the dummy pair's norms, once
  CraftedPair pair_;
  Eigen::VectorXd report_, reports_, next_;
};

}  // namespace

LdpGameResult run_ldp_game(const LdpGameConfig& config, const LdpTrialSink& sink,
                           const std::function<void(std::size_t)>& progress) {
  at::set_num_threads(1);  // parallelism is over trials
  LdpGameResult result;
  const GameSetup setup = prepare(config, result);
  const TrialRange played = config.played();
  result.labels.assign(played.size(), 0);
  result.guesses.assign(played.size(), 0);
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::unique_ptr<TrialPlayer>> players(resolve_threads(config.threads));
  const std::size_t delivered = ordered_parallel<char>(
      played.size(), config.threads,
      [&](std::size_t thread) {
        players[thread] = std::make_unique<TrialPlayer>(config, setup, result);
        return [&player = *players[thread], &result, first = played.first](std::size_t k) {
          player.play(first + k, result.labels[k], result.guesses[k]);
          return char{1};
        };
      },
      [&](std::size_t begin, const std::vector<char>& run) {
        if (sink && !sink(result, begin, begin + run.size())) return false;
        if (progress) progress(begin + run.size());
        return true;
      });
  result.labels.resize(delivered);
  result.guesses.resize(delivered);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace dpaudit
