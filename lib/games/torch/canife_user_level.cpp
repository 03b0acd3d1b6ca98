// The user level of CANIFE (games/torch/canife_game.hpp): DP-FedAvg over fedavg's clients and
// Maddock et al. 2023's audits with a rogue client that holds only the crafted example. Local
// training is fedavg's (train/torch/fedavg_client.hpp) for the real, the mock and the canary
// clients alike; the server is lib's (mechanisms/fedavg_server.hpp, no momentum).
#include <algorithm>
#include <cmath>
#include <optional>

#include <torch/nn/modules/container/sequential.h>

#include "adversaries/canife_score.hpp"
#include "adversaries/torch/canife_crafter.hpp"
#include "core/error.hpp"
#include "data/datasets.hpp"
#include "games/torch/canife_game.hpp"
#include "io/staging_dir.hpp"  // seconds_since
#include "mechanisms/fedavg_server.hpp"
#include "random/streams.hpp"
#include "train/torch/differentiable_model.hpp"
#include "train/torch/distributed_round.hpp"
#include "train/torch/dp_sgd.hpp"
#include "train/torch/fedavg_round.hpp"
#include "train/torch/models.hpp"

namespace dpaudit {

namespace {

// The noisy sum of a round's clipped updates, u_1 + ... + u_m + N(0, (z C)^2 I)
// (Maddock et al. 2023 Sec. 3.1), with the canary's update when given; noise from `rng` after
// whatever it drew before.
std::vector<double> noisy_sum(std::size_t d, const std::vector<ClientUpdate>& updates,
                              const std::vector<double>* canary, double noise_std,
                              PhiloxStream& rng) {
  UpdateSum sum(d);
  for (const ClientUpdate& u : updates) sum.add(u.update.data());
  if (canary) sum.add(canary->data());
  // release() divides by max(m, 1) (Andrew et al. 2024 Alg. 3 line 9); the audit wants the sum
  // itself.
  std::vector<double> r = sum.release(noise_std, rng);
  const double m = static_cast<double>(std::max<std::size_t>(sum.count(), 1));
  for (double& v : r) v *= m;
  return r;
}

// The mock clients of Alg. 1 (Maddock et al. 2023 Sec. 3.3; its code draws them from the test
// users): the test split cut into clients the way the training set is (same partition, the same
// mean size), M of them drawn once, uniformly without replacement.
ClientIndices design_clients(const CanifeGameConfig& c, const TrainTest& data, PartitionKind kind) {
  const double per_client =
      static_cast<double>(data.train.size()) / static_cast<double>(c.user.clients);
  const auto same_size =
      static_cast<std::size_t>(std::llround(static_cast<double>(data.test.size()) / per_client));
  const std::size_t population = std::min(data.test.size(), std::max(c.design_pool, same_size));
  const ClientIndices all = partition_clients(data.test, population, kind, c.user.alpha, c.seed);
  std::vector<std::size_t> order(population);
  for (std::size_t i = 0; i < population; ++i) order[i] = i;
  PhiloxStream rng(c.seed, streams::kCanifePool);
  shuffle_prefix(order, c.design_pool, rng);
  ClientIndices pool;
  for (std::size_t i = 0; i < c.design_pool; ++i) pool.push_back(all[order[i]]);
  return pool;
}

std::vector<std::size_t> first_ids(std::size_t n) {
  std::vector<std::size_t> ids(n);
  for (std::size_t i = 0; i < n; ++i) ids[i] = i;
  return ids;
}

class UserAuditor {
 public:
  UserAuditor(const CanifeGameConfig& c, const TrainTest& data, const torch::nn::Sequential& model,
              ClientTrainer& clients, const ClientIndices& client_ids, PartitionKind kind,
              double sigma)
      : c_(c),
        data_(data),
        model_(model),
        clients_(clients),
        population_(client_ids.size()),
        widths_(dense_widths(model_config(c.model, data.train, c.hidden))),
        pool_(design_clients(c, data, kind)),
        local_{c.user.local_epochs, c.user.local_batch, c.user.client_lr},
        design_(model, data.test, pool_, local_, c.threads),
        sigma_(sigma) {}

  // The audit of theta (Maddock et al. 2023 Sec. 3.4), and the norm of the canary client's clipped
  // update.
  Audit audit(std::size_t round, const std::vector<double>& theta, double& canary_update_norm) {
    Audit a;
    a.round = round;
    const auto start = std::chrono::steady_clock::now();
    const torch::Tensor global = to_float_tensor(theta);
    const std::vector<float> theta_f(theta.begin(), theta.end());
    const std::size_t d = theta.size();
    // Design updates: every mock client's local update from theta, clipped to C.
    const std::vector<ClientUpdate> design = design_.train(
        global, c_.clip, first_ids(pool_.size()), round, c_.seed, streams::kCanifeDesignBatch);
    std::vector<float> updates(pool_.size() * d);
    for (std::size_t i = 0; i < design.size(); ++i)
      std::copy(design[i].update.begin(), design[i].update.end(),
                updates.begin() + static_cast<std::ptrdiff_t>(i * d));
    PhiloxStream rng(c_.seed, streams::kCanifeCraft + round);
    const CanaryStart x0 = initial_canary(
        c_.init, data_.test, c_.init == CanaryInit::sample ? first_design_example() : 0, rng);
    CraftOptions o = c_.craft;
    if (o.minibatch == 0)  // the expected clients per round
      o.minibatch = std::max<std::size_t>(1, std::llround(c_.q * static_cast<double>(population_)));
    const CanaryCrafter crafter(widths_, theta_f, updates, pool_.size());
    a.canary = crafter.craft(x0.x, x0.label, o, rng);
    // The canary client: the crafted example alone, one local epoch of the clients' SGD
    // (Maddock et al. 2023's code replaces a client's data by it and forces one epoch): -lr g,
    // clipped.
    Dataset one{data_.train.example_shape, a.canary.x, {a.canary.label}, data_.train.num_classes};
    const ClientIndices holder(1, std::vector<std::size_t>{0});
    ClientTrainer canary_trainer(model_, one, holder, {1, local_.batch, local_.learning_rate}, 1);
    const std::vector<double> canary =
        canary_trainer
            .train(global, c_.clip, holder[0], round, c_.seed, streams::kCanifeCanaryBatch)[0]
            .update;
    canary_update_norm = l2_norm(canary.data(), d);
    if (!(canary_update_norm > 0))
      throw DataError("the canary client's update is zero at round " + std::to_string(round) +
                      " (its gradient vanishes at the model)");
    a.design_seconds = seconds_since(start);
    // n mock rounds: fresh clients and noise, the canary client in the odd ones.
    const std::size_t n = c_.audit_rounds;
    std::vector<std::size_t> lot;
    for (std::size_t k = 0; k < n; ++k) {
      PhiloxStream mock(c_.seed, streams::kCanifeMock + round * n + k);
      draw_poisson_lot(population_, c_.q, mock, lot);
      const std::vector<ClientUpdate> u =
          clients_.train(global, c_.clip, lot, round * n + k, c_.seed, streams::kCanifeMockBatch);
      const std::vector<double> s =
          noisy_sum(d, u, k % 2 ? &canary : nullptr, sigma_ * c_.clip, mock);
      a.scores.push_back(canary_score(s, canary, canary_update_norm, c_.clip));
    }
    a.mock_seconds = seconds_since(start) - a.design_seconds;
    return a;
  }

 private:
  // CanaryInit::sample: the first example of the first mock client that has one.
  std::size_t first_design_example() const {
    for (const auto& client : pool_)
      if (!client.empty()) return client[0];
    throw DataError(Pattern{
        "every mock client of the design pool is empty (try a larger {alpha} or {design_pool})"});
  }

  const CanifeGameConfig& c_;
  const TrainTest& data_;
  const torch::nn::Sequential& model_;
  ClientTrainer& clients_;
  std::size_t population_;
  std::vector<std::int64_t> widths_;
  ClientIndices pool_;
  LocalTraining local_;
  ClientTrainer design_;
  double sigma_;
};

// What the user level attaches to the library round (train/torch/fedavg_round.hpp): the audit
// of the frozen model before the rounds 0, S, 2S, ... with the test accuracy there, and
// metrics.csv's row of every round.
class UserLevelObserver : public FedAvgObserver {
 public:
  UserLevelObserver(const CanifeGameConfig& c, const TrainTest& data, torch::nn::Sequential& model,
                    UserAuditor& auditor, const std::function<void(std::size_t)>& progress,
                    CanifeRun& run)
      : c_(c), data_(data), model_(model), auditor_(auditor), progress_(progress), run_(run) {}

  void starting(std::size_t t, const std::vector<double>& theta) override {
    if (t % c_.audit_every) return;
    double norm = 0;
    run_.audits.push_back(auditor_.audit(t, theta, norm));
    assign_parameters(*model_, to_float_tensor(theta));
    run_.audits.back().test_accuracy = evaluate(model_, data_.test).accuracy;
    if (t > 0) run_.metrics[t - 1].test_accuracy = run_.audits.back().test_accuracy;
    update_norms.push_back(json_number(norm));
    if (progress_) progress_(run_.audits.size());
  }

  void released(const FedAvgRelease& release) override {
    CanifeRoundMetrics row;
    row.round = release.round + 1;
    row.train_loss = release.train_loss;
    row.update_norm = l2_norm(release.rho_bar.data(), release.rho_bar.size());
    run_.metrics.push_back(row);
  }

  Json update_norms = Json::array();  // the canary client's update norm at every audit

 private:
  const CanifeGameConfig& c_;
  const TrainTest& data_;
  torch::nn::Sequential& model_;
  UserAuditor& auditor_;
  const std::function<void(std::size_t)>& progress_;
  CanifeRun& run_;
};

}  // namespace

CanifeRun run_user_level(const CanifeGameConfig& c, const TrainTest& data, double sigma,
                         const std::function<void(std::size_t)>& progress, RankGroup* ranks) {
  const PartitionKind kind = parse_partition(c.user.partition);
  const ClientIndices client_ids =
      partition_clients(data.train, c.user.clients, kind, c.user.alpha, c.seed);
  torch::nn::Sequential model = make_model(model_config(c.model, data.train, c.hidden), c.seed);
  std::vector<double> theta;
  {
    const torch::Tensor flat = flatten_parameters(*model).to(torch::kDouble).contiguous();
    theta.assign(flat.data_ptr<double>(), flat.data_ptr<double>() + flat.numel());
  }
  const std::size_t d = theta.size();
  ClientTrainer clients(model, data.train, client_ids,
                        {c.user.local_epochs, c.user.local_batch, c.user.client_lr}, c.threads);
  UserAuditor auditor(c, data, model, clients, client_ids, kind, sigma);
  FedAvgRound round(clients, d, c.user.server_lr, 0.0, c.seed, streams::kCanifeUserBatch);
  CanifeRun run;
  UserLevelObserver observer(c, data, model, auditor, progress, run);
  std::optional<DistributedRound> across;  // rank 0 audits (the observer), every rank trains
  if (ranks != nullptr) across.emplace(round, *ranks);
  std::vector<std::size_t> lot;
  for (std::size_t t = 0; t < c.total_rounds(); ++t) {
    // One round of DP-FedAvg: Poisson participants, their clipped local updates, noise on
    // the sum, the mean applied by the server (Andrew et al. 2024 Alg. 2 without momentum).
    PhiloxStream rng(c.seed, streams::kCanifeUserRound + t);
    draw_poisson_lot(client_ids.size(), c.q, rng, lot);
    if (!(across ? across->run(t, lot, c.clip, sigma * c.clip, rng, observer, theta)
                 : round.run(t, lot, c.clip, sigma * c.clip, rng, observer, theta)))
      throw DataError(Pattern{"training diverged: the model is not finite after round " +
                              std::to_string(t + 1) +
                              " (try a smaller {server_lr}, {client_lr} or {noise_multiplier})"});
  }
  if (across && ranks->rank() != 0) return run;
  assign_parameters(*model, to_float_tensor(theta));
  run.parameters = d;
  run.test_accuracy = evaluate(model, data.test).accuracy;
  if (!run.metrics.empty()) run.metrics.back().test_accuracy = run.test_accuracy;
  const PartitionSummary summary = summarize_partition(data.train, client_ids);
  run.extra["partition_summary"] = {{"empty_clients", summary.empty_clients},
                                    {"mean_classes_per_client", summary.mean_classes_per_client}};
  run.extra["canary_update_norms"] = observer.update_norms;
  return run;
}

}  // namespace dpaudit
