#include "fedavg/run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include <ATen/Parallel.h>

#include "accounting/run_accountant.hpp"
#include "canary/score_release.hpp"
#include "cli/progress.hpp"
#include "core/error.hpp"
#include "data/datasets.hpp"
#include "fedavg/canaries.hpp"
#include "io/atomic_output.hpp"
#include "io/npy.hpp"
#include "io/staging_dir.hpp"
#include "mechanisms/adaptive_clip.hpp"
#include "mechanisms/fedavg_server.hpp"
#include "mechanisms/participation.hpp"
#include "metrics_csv.hpp"
#include "random/streams.hpp"
#include "train/launch_env.hpp"
#include "train/torch/distributed_round.hpp"
#include "train/torch/fedavg_round.hpp"
#include "train/torch/models.hpp"
#include "train/torch/rank_group.hpp"

namespace dpaudit::dp_train {

namespace {

std::vector<double> to_doubles(const torch::Tensor& t) {
  const torch::Tensor d = t.to(torch::kDouble).contiguous();
  return {d.data_ptr<double>(), d.data_ptr<double>() + d.numel()};
}

void check_options(const FedAvgConfig& c) {
  if (c.out.empty()) throw UsageError("an output folder is required", "--out");
  if (c.rounds == 0) throw UsageError("need at least one round", "--rounds");
  if (!c.canaries.empty() && c.num_canaries > 0)
    throw UsageError("give either --canaries or --num-canaries, not both", "--num-canaries");
  if (!c.unseen.empty() && c.num_unseen > 0)
    throw UsageError("give either --unseen or --num-unseen, not both", "--num-unseen");
  if (c.local_batch == 0) throw UsageError("local batch size must be at least 1", "--local-batch");
  if (c.local_epochs == 0) throw UsageError("need at least one local epoch", "--local-epochs");
  if (c.eval_every == 0) throw UsageError("evaluation period must be at least 1", "--eval-every");
  // The client optimiser runs in float32 (torch threw 'cannot be converted to type float').
  if (c.client_lr > std::numeric_limits<float>::max())
    throw UsageError("the client learning rate does not fit in float32", "--client-lr");
  if (!(c.delta > 0 && c.delta < 1) && c.delta != 0)
    throw UsageError("delta must be in (0,1)", "--delta");
}

// The run's participation: real clients are members 0..clients-1 of the schedule; seen canaries
// are sampled like them, or follow their own fixed-repeats schedule (Andrew et al. 2024 Sec.
// 5.2).
FederatedParticipation participation(const FedAvgConfig& c, std::size_t seen) {
  FederatedParticipation p;
  p.schedule.sampling = parse_sampling(c.sampling);
  p.schedule.rounds = c.rounds;
  p.schedule.q = c.q;
  p.schedule.per_round = c.clients_per_round;
  p.schedule.seed = c.seed;
  p.schedule.stream = streams::kFedAvgSchedule;
  p.clients = c.clients;
  p.canaries = seen;
  p.canary_repeats = c.canary_repeats;
  p.repeats_stream = streams::kFedAvgRepeats;
  return p;
}

// run.json's analytic_epsilon, from the run accountant (lib/accounting/run_accountant.hpp;
// z = 0 gives inf): eps_run for every client and seen canary and what it assumes,
// max_participations, eps_gaussian_per_round (Andrew et al. 2024 footnote 5's one
// participation), and for a Poisson run its clients' PLD interval, RDP and which of the two
// is the headline. With adaptive clipping z is the round's total, count query included
// (adaptive_clip.hpp).
Json analytic_epsilons(const FedAvgConfig& c, const FederatedModel& model) {
  const FederatedEpsilon e = federated_epsilon(model, c.effective_delta());
  Json j;
  j["eps_gaussian_per_round"] = json_number(e.eps_per_round);
  j["max_participations"] = model.max_participations;
  j["eps_run"] = json_number(e.eps_run);
  j["assumes"] = e.assumes;
  // What a final-model audit (scores_final.csv) reads against: the last-iterate heuristic of
  // every client and seen canary, the worse.
  LastIterate last = last_iterate_heuristic(model.clients, c.effective_delta());
  if (model.canaries)
    last.epsilon = std::max(last.epsilon,
                            last_iterate_heuristic(*model.canaries, c.effective_delta()).epsilon);
  j["eps_last_iterate_heuristic"] = json_number(last.epsilon);
  j["last_iterate_assumes"] = last.assumes;
  if (model.clients.sampling != Sampling::poisson) return j;
  const RunEpsilon& p = e.clients;
  if (model.clients.noise_multiplier > 0) {
    if (p.pld)
      j["eps_pld_poisson"] = {{"upper", json_number(p.pld->upper)},
                              {"lower", json_number(p.pld->lower)}};
    j["poisson_headline"] = accountant_name(p.accountant);
  }
  j["eps_rdp_poisson"] =
      json_number(p.rdp ? p.rdp->epsilon : std::numeric_limits<double>::infinity());
  return j;
}

// What a dp-train fedavg run attaches to the library round (train/torch/fedavg_round.hpp):
// the seen canaries it inserts (Andrew et al. 2024 Alg. 3 lines 3-9: projected to the clip
// norm), and per release the adaptive clip's update (Andrew et al. 2021), every canary's
// cosine with the aggregate (Andrew et al. 2024 Alg. 3 lines 10-12), the saved deltas and
// metrics.csv's row.
class RunObserver : public FedAvgObserver {
 public:
  RunObserver(const FedAvgConfig& c, const CanaryPanel& canaries,
              const FederatedSchedule& schedules, AdaptiveClip& adaptive, std::size_t dim)
      : c_(c),
        canaries_(canaries),
        schedules_(schedules),
        adaptive_(adaptive),
        dim_(dim),
        seen_max(RoundReduce::max, canaries.seen()),
        unseen_max(RoundReduce::max, canaries.unseen()) {}

  std::size_t insert(std::size_t t, double clip, UpdateSum& sum,
                     std::vector<double>& norms) override {
    std::vector<double> canary(dim_);
    for (std::size_t j : schedules_.canaries[t]) {
      canaries_.seen_canary(j, canary.data());
      project_to_norm(canary.data(), dim_, clip);
      sum.add(canary.data());
      norms.push_back(clip);
    }
    return schedules_.canaries[t].size();
  }

  void released(const FedAvgRelease& release) override {
    const std::vector<double>& rho_bar = release.rho_bar;
    RoundMetrics row;
    row.round = release.round + 1;
    row.clip = adaptive_.clip();
    row.train_loss = release.train_loss;
    row.update_norm = l2_norm(rho_bar.data(), dim_);
    canary_insertions += release.inserted;
    PhiloxStream count_noise_stream(c_.seed, streams::kFedAvgClip + release.round);
    adaptive_.update(release.norms, count_noise_stream);
    canaries_.cosines(rho_bar, seen_cos_, unseen_cos_);
    seen_max.add(seen_cos_);
    unseen_max.add(unseen_cos_);
    if (c_.save_deltas) deltas.insert(deltas.end(), rho_bar.begin(), rho_bar.end());
    metrics.push_back(row);
  }

 private:
  const FedAvgConfig& c_;
  const CanaryPanel& canaries_;
  const FederatedSchedule& schedules_;
  AdaptiveClip& adaptive_;
  std::size_t dim_;
  std::vector<double> seen_cos_, unseen_cos_;

 public:
  RoundReduction seen_max, unseen_max;  // every canary's largest cosine over the rounds
  std::vector<double> deltas;           // every rho_bar (--save-deltas)
  std::vector<RoundMetrics> metrics;
  std::size_t canary_insertions = 0;
};

// The rounds of the run (Andrew et al. 2024 Alg. 2): each trains the round's clients and
// combines their clipped updates with the seen canaries through the library round (across the
// ranks of `ranks` when there are several processes), evaluating the model every c.eval_every
// rounds and after the last (on rank 0). Returns the last test accuracy (-1 on ranks > 0).
double train_rounds(const FedAvgConfig& c, torch::nn::Sequential& model, const Dataset& test,
                    ClientTrainer& trainer, const FederatedSchedule& schedules,
                    double update_noise_multiplier, const AdaptiveClip& adaptive,
                    RunObserver& observer, std::vector<double>& theta, RankGroup* ranks) {
  FedAvgRound round(trainer, theta.size(), c.server_lr, c.server_momentum, c.seed,
                    streams::kFedAvgBatch);
  std::optional<DistributedRound> across;
  if (ranks != nullptr) across.emplace(round, *ranks);
  const bool evaluates = ranks == nullptr || ranks->rank() == 0;
  double accuracy = -1;
  cli::Progress progress("dp-train fedavg", c.rounds, c.quiet);
  for (std::size_t t = 0; t < c.rounds; ++t) {
    // Ranks > 0 see no release: rank 0's adaptive clip is theirs.
    const double clip =
        across && c.adaptive_clip ? across->agree(adaptive.clip()) : adaptive.clip();
    PhiloxStream noise(c.seed, streams::kFedAvgNoise + t);
    const double noise_std = update_noise_multiplier * clip;
    const std::vector<std::size_t>& ids = schedules.clients[t];
    // A diverged run (huge learning rates or noise) would write NaN scores and exit 0.
    if (!(across ? across->run(t, ids, clip, noise_std, noise, observer, theta)
                 : round.run(t, ids, clip, noise_std, noise, observer, theta)))
      throw DataError("training diverged: the model is not finite after round " +
                          std::to_string(t + 1) +
                          " (try a smaller --server-lr, --client-lr or --noise-multiplier)",
                      c.out);
    if (evaluates && ((t + 1) % c.eval_every == 0 || t + 1 == c.rounds)) {
      assign_parameters(*model, to_float_tensor(theta));
      observer.metrics.back().test_accuracy = accuracy = evaluate(model, test).accuracy;
    }
    progress.update(t + 1);
  }
  return accuracy;
}

// final_model.npy, delta.npy, deltas.npy (when asked), scores_final.csv, scores_all.csv and
// metrics.csv into the staging folder.
void write_outputs(const StagingDir& staging, const FedAvgConfig& c, const CanaryPanel& canaries,
                   const RunObserver& observer, const std::vector<double>& theta0,
                   const std::vector<double>& theta) {
  const std::size_t dim = theta.size();
  // Alg. 2 lines 10-11: cosines with theta_T - theta_0 (exact: once a run).
  std::vector<double> delta(dim);
  for (std::size_t i = 0; i < dim; ++i) delta[i] = theta[i] - theta0[i];
  std::vector<double> seen_final, unseen_final;
  canaries.exact_cosines(delta, seen_final, unseen_final);

  staging.write([&] {
    save_npy(staging.path("final_model.npy"), theta.data(), {dim});
    save_npy(staging.path("delta.npy"), delta.data(), {dim});
    if (c.save_deltas)
      save_npy(staging.path("deltas.npy"), observer.deltas.data(), {c.rounds, dim}, NpyDtype::f4);
    write_scores_csv(staging.path("scores_final.csv"), label_scores(seen_final, unseen_final), dim);
    // Maxima over rounds are not single cosines: no dim column (the cosine null does not apply).
    write_scores_csv(staging.path("scores_all.csv"),
                     label_scores(observer.seen_max.result(), observer.unseen_max.result()), 0);
    write_metrics_csv(staging.path("metrics.csv"), observer.metrics);
  });
}

void write_timings(AtomicOutput& timings, const FedAvgConfig& c, double train_seconds,
                   double wall_seconds, const RankGroup* ranks) {
  Json j{{"seconds_per_round", train_seconds / static_cast<double>(c.rounds)},
         {"wall_seconds", wall_seconds},
         {"peak_memory_mb", peak_memory_mb()},
         {"threads", c.threads}};
  if (ranks != nullptr) {
    // Every transfer goes through rank 0 (the gather and the broadcast): its bytes are all.
    j["ranks"] = ranks->size();
    j["bytes_per_round"] = static_cast<double>(ranks->bytes_sent() + ranks->bytes_received()) /
                           static_cast<double>(c.rounds);
  }
  timings.stream() << j.dump(2) << '\n';
  timings.commit();
}

// What ranks > 0 use of the configuration (quiet, no canaries kept in memory: they only
// train clients).
FedAvgConfig worker_config(const FedAvgConfig& c) {
  FedAvgConfig w = c;
  w.quiet = true;
  w.canary_memory_mb = 0;
  return w;
}

// run.json's content.
Json run_json(const FedAvgConfig& c, std::size_t dim, const CanaryPanel& canaries,
              const RunObserver& observer, const PartitionSummary& partition_summary,
              double update_noise_multiplier, double count_noise, const AdaptiveClip& adaptive,
              const Json& analytic, double accuracy) {
  Json run;
  run["config"] = c.to_json();
  run["dim"] = dim;
  run["seen_canaries"] = canaries.seen();
  run["unseen_canaries"] = canaries.unseen();
  run["canary_insertions"] = observer.canary_insertions;
  run["canaries_in_memory"] = canaries.in_memory();
  run["partition_summary"] = {
      {"empty_clients", partition_summary.empty_clients},
      {"mean_classes_per_client", partition_summary.mean_classes_per_client}};
  run["delta"] = c.effective_delta();
  run["update_noise_multiplier"] = update_noise_multiplier;
  run["final_clip"] = adaptive.clip();
  if (c.adaptive_clip) run["clip_count_noise"] = count_noise;
  run["analytic_epsilon"] = analytic;
  run["test_accuracy"] = accuracy;
  run["final_train_loss"] = observer.metrics.back().train_loss;
  return run;
}

}  // namespace

std::optional<Json> run_fedavg(const FedAvgConfig& config) {
  const auto start = std::chrono::steady_clock::now();
  check_options(config);
  const ModelKind kind = parse_model_kind(config.model);
  const PartitionKind partition = parse_partition(config.partition);
  parse_sampling(config.sampling);  // fail on a bad name before the data set is read
  const std::optional<LaunchEnv> env = launch_env_from_process();
  const bool writes = !env || env->rank == 0;  // only rank 0 writes
  const FedAvgConfig c = writes ? config : worker_config(config);
  std::optional<StagingDir> staging;  // a non-empty --out is refused before any work
  if (writes) staging.emplace(c.out, c.force);
  const std::unique_ptr<AtomicOutput> timings = writes ? open_timings(c.timings) : nullptr;
  const std::unique_ptr<RankGroup> ranks = join_ranks(env, c.ranks);
  const TrainTest data = load_task(c.task, c.data_dir, c.seed);
  const ClientIndices clients =
      partition_clients(data.train, c.clients, partition, c.alpha, c.seed);

  at::set_num_threads(1);  // parallelism is over clients (train/torch/fedavg_client.hpp)
  torch::nn::Sequential model =
      make_model({kind, data.train.example_shape, data.train.num_classes, c.hidden}, c.seed);
  const std::size_t dim = static_cast<std::size_t>(parameter_count(*model));
  const CanaryPanel canaries(c, dim);
  const FederatedParticipation who = participation(c, canaries.seen());
  const FederatedSchedule schedules = federated_schedule(who);
  const Json analytic = analytic_epsilons(c, federated_model(who, schedules, c.noise_multiplier));

  if (writes)
    staging->write([&] {
      if (!canaries.made_seen_spec_json().empty())
        write_whole(staging->path("canaries.json"), canaries.made_seen_spec_json());
      if (!canaries.made_unseen_spec_json().empty())
        write_whole(staging->path("unseen.json"), canaries.made_unseen_spec_json());
    });

  ClientTrainer trainer(model, data.train, clients, {c.local_epochs, c.local_batch, c.client_lr},
                        c.threads);
  // With adaptive clipping the count query takes part of the budget (adaptive_clip.hpp).
  const double count_noise = c.effective_count_noise(canaries.seen());
  const double update_noise_multiplier =
      c.adaptive_clip ? adaptive_update_noise_multiplier(c.noise_multiplier, count_noise)
                      : c.noise_multiplier;
  AdaptiveClip adaptive(c.clip, c.target_quantile, c.adaptive_clip ? c.clip_lr : 0.0, count_noise);
  const std::vector<double> theta0 = to_doubles(flatten_parameters(*model));
  std::vector<double> theta = theta0;
  RunObserver observer(c, canaries, schedules, adaptive, dim);
  const auto train_start = std::chrono::steady_clock::now();
  const double accuracy =
      train_rounds(c, model, data.test, trainer, schedules, update_noise_multiplier, adaptive,
                   observer, theta, ranks.get());
  if (!writes) return std::nullopt;
  const double train_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - train_start).count();
  write_outputs(*staging, c, canaries, observer, theta0, theta);
  const Json run = run_json(c, dim, canaries, observer, summarize_partition(data.train, clients),
                            update_noise_multiplier, count_noise, adaptive, analytic, accuracy);
  staging->write([&] { write_whole(staging->path("run.json"), run.dump(2) + "\n"); });
  // Timings differ from run to run: never in --out, which the same --seed makes byte-identical.
  if (timings) write_timings(*timings, c, train_seconds, seconds_since(start), ranks.get());
  staging->commit();
  return run;
}

}  // namespace dpaudit::dp_train
