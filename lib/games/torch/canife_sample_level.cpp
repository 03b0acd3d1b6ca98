// The sample level of CANIFE (games/torch/canife_game.hpp): DP-SGD over Poisson lots, every
// client one example, and the audits of Maddock et al. 2023 with the canary as one more
// member of a lot.
#include <algorithm>
#include <cmath>

#include "adversaries/canife_score.hpp"
#include "adversaries/torch/canife_crafter.hpp"
#include "core/error.hpp"
#include "core/parallel.hpp"
#include "data/datasets.hpp"
#include "games/torch/canife_game.hpp"
#include "io/staging_dir.hpp"  // seconds_since
#include "random/streams.hpp"
#include "train/torch/differentiable_model.hpp"
#include "train/torch/dp_sgd.hpp"
#include "train/torch/models.hpp"

namespace dpaudit {

namespace {

class SampleAuditor {
 public:
  SampleAuditor(const CanifeGameConfig& c, const TrainTest& data, const PerExampleModel& model,
                std::vector<std::int64_t> widths, double sigma)
      : c_(c), data_(data), model_(model), widths_(std::move(widths)), sigma_(sigma) {
    // The design pool: M test examples drawn once, uniformly without replacement.
    const std::size_t m = std::min(c.design_pool, data.test.size());
    std::vector<std::size_t> order(data.test.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    PhiloxStream rng(c.seed, streams::kCanifePool);
    shuffle_prefix(order, m, rng);
    pool_.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(m));
  }

  Audit audit(std::size_t round, const std::vector<float>& theta) const {
    Audit a;
    a.round = round;
    const auto start = std::chrono::steady_clock::now();
    // Design updates: the pool's per-example gradients at theta, clipped to C.
    const std::size_t d = theta.size();
    std::vector<float> updates(pool_.size() * d, 0.0f);
    parallel_blocks(pool_.size(), c_.threads, [&](std::size_t begin, std::size_t end, std::size_t) {
      auto model = model_.clone();
      for (std::size_t i = begin; i < end; ++i)
        model->add_clipped_sum(theta.data(), data_.test.example(pool_[i]),
                               &data_.test.labels[pool_[i]], 1, c_.clip, updates.data() + i * d);
    });
    PhiloxStream rng(c_.seed, streams::kCanifeCraft + round);
    const CanaryStart x0 = initial_canary(c_.init, data_.test, pool_[0], rng);
    CraftOptions o = c_.craft;
    if (o.minibatch == 0)
      o.minibatch =
          std::max<std::size_t>(1, std::llround(c_.q * static_cast<double>(data_.train.size())));
    const CanaryCrafter crafter(widths_, theta, updates, pool_.size());
    a.canary = crafter.craft(x0.x, x0.label, o, rng);
    if (!(a.canary.gradient_norm > 0))
      throw DataError("the crafted canary's gradient is zero at round " + std::to_string(round));
    a.design_seconds = seconds_since(start);
    a.scores = mock_rounds(round, theta, a.canary);
    a.mock_seconds = seconds_since(start) - a.design_seconds;
    a.test_accuracy = test_accuracy(*model_.clone(), theta, data_.test);
    return a;
  }

 private:
  // n mock rounds at the frozen theta: a fresh Poisson lot and noise each, the canary's
  // clipped gradient added in the odd ones; score <noisy sum, g / ||g||> / C.
  std::vector<double> mock_rounds(std::size_t round, const std::vector<float>& theta,
                                  const CraftedCanary& cn) const {
    const std::size_t d = theta.size(), width = data_.train.example_size(), n = c_.audit_rounds;
    const std::vector<double> direction(cn.gradient.begin(), cn.gradient.end());
    const double in_factor = std::min(1.0, c_.clip / cn.gradient_norm);
    std::vector<double> scores(n);
    parallel_blocks(n, c_.threads, [&](std::size_t begin, std::size_t end, std::size_t) {
      auto model = model_.clone();
      std::vector<float> sum(d), x;
      std::vector<std::int64_t> y;
      std::vector<std::size_t> lot;
      std::vector<double> noisy(d);
      for (std::size_t k = begin; k < end; ++k) {
        PhiloxStream rng(c_.seed, streams::kCanifeMock + round * n + k);
        x.clear();
        y.clear();
        draw_poisson_lot(data_.train.size(), c_.q, rng, lot);
        for (std::size_t i : lot) {
          x.insert(x.end(), data_.train.example(i), data_.train.example(i) + width);
          y.push_back(data_.train.labels[i]);
        }
        std::fill(sum.begin(), sum.end(), 0.0f);
        model->add_clipped_sum(theta.data(), x.data(), y.data(), y.size(), c_.clip, sum.data());
        rng.fill_normal(noisy.data(), d);
        for (std::size_t j = 0; j < d; ++j) {
          noisy[j] = double(sum[j]) + sigma_ * c_.clip * noisy[j];
          if (k % 2) noisy[j] += in_factor * cn.gradient[j];
        }
        scores[k] = canary_score(noisy, direction, cn.gradient_norm, c_.clip);
      }
    });
    return scores;
  }

  const CanifeGameConfig& c_;
  const TrainTest& data_;
  const PerExampleModel& model_;
  std::vector<std::int64_t> widths_;
  double sigma_;
  std::vector<std::size_t> pool_;
};

}  // namespace

CanifeRun run_sample_level(const CanifeGameConfig& c, const TrainTest& data, double sigma,
                           const std::function<void(std::size_t)>& progress) {
  const ModelConfig mc = model_config(c.model, data.train, c.hidden);
  std::vector<float> theta;
  const auto model = PerExampleModel::make(mc, c.seed, theta);
  DpSgdConfig training;
  training.train_size = data.train.size();
  training.q = c.q;
  training.steps = c.total_rounds();
  training.lr = c.lr;
  training.clip = c.clip;

  // Train, auditing the frozen model before the rounds 0, S, 2S, ...
  const SampleAuditor auditor(c, data, *model, dense_widths(mc), sigma);
  CanifeRun run;
  DpSgdTrainer trainer(training, data.train, *model, sigma);
  PhiloxStream rng(c.seed, streams::kCanifeTrain);
  trainer.train(theta, rng, nullptr, [&](std::size_t t, const float* update) {
    CanifeRoundMetrics row;
    row.round = t + 1;
    double norm2 = 0;
    for (std::size_t j = 0; j < theta.size(); ++j) norm2 += double(update[j]) * update[j];
    row.update_norm = std::sqrt(norm2);
    run.metrics.push_back(row);
    if (t % c.audit_every) return;
    run.audits.push_back(auditor.audit(t, theta));
    if (t > 0) run.metrics[t - 1].test_accuracy = run.audits.back().test_accuracy;
    if (progress) progress(run.audits.size());
  });
  run.parameters = theta.size();
  run.test_accuracy = test_accuracy(*model, theta, data.test);
  if (!run.metrics.empty()) run.metrics.back().test_accuracy = run.test_accuracy;
  return run;
}

}  // namespace dpaudit
