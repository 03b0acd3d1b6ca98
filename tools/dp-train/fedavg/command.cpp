// dp-train fedavg: DP-FedAvg (Andrew et al. 2024, Alg. 2) on Fashion-MNIST or a synthetic task,
// with seen and unseen canary clients observed on the final model and on every round's aggregate
// (Alg. 3). Options here; the run is fedavg/run.cpp.
#include "command.hpp"
#include "cli/tool.hpp"
#include "fedavg/run.hpp"
#include "io/atomic_output.hpp"
#include "ranks.hpp"

namespace dpaudit::dp_train {
namespace {

// The task, its partition into clients and the model.
void declare_data_and_model(CLI::App& sub, FedAvgConfig& c) {
  sub.add_option("--task", c.task, "fashion-mnist or synthetic (10 classes, 8x8, fast)")
      ->capture_default_str();
  sub.add_option(
      "--data", c.data_dir,
      "folder of the Fashion-MNIST gzip IDX files (default: /usr/share/datasets/fashion-mnist)");
  sub.add_option("--model", c.model,
                 "logreg, mlp (784-128-10) or cnn (Matsumoto et al. 2022, Table 2)")
      ->capture_default_str();
  sub.add_option("--hidden", c.hidden, "hidden units of mlp")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  sub.add_option("--clients", c.clients, "number of real clients")->capture_default_str();
  sub.add_option("--partition", c.partition, "iid or label-skew")->capture_default_str();
  sub.add_option("--alpha", c.alpha, "Dirichlet concentration of label-skew")
      ->capture_default_str()
      ->check(cli::positive());
}

// Rounds, client sampling and local training.
void declare_participation(CLI::App& sub, FedAvgConfig& c) {
  sub.add_option("--rounds", c.rounds, "training rounds T")->capture_default_str();
  sub.add_option("--sampling", c.sampling, "poisson or shuffle")->capture_default_str();
  sub.add_option("--q", c.q, "Poisson sampling rate, in (0,1]")->capture_default_str();
  sub.add_option("--clients-per-round", c.clients_per_round,
                 "shuffle: participants per round (canaries included)")
      ->capture_default_str();
  sub.add_option("--local-epochs", c.local_epochs, "local epochs per client update")
      ->capture_default_str();
  sub.add_option("--local-batch", c.local_batch, "local minibatch size")->capture_default_str();
  sub.add_option("--client-lr", c.client_lr, "client SGD learning rate")
      ->capture_default_str()
      ->check(cli::positive());
}

// Clipping (fixed or adaptive), noise and the server step.
void declare_clipping(CLI::App& sub, FedAvgConfig& c) {
  sub.add_option("--clip", c.clip, "L2 clip norm S of client updates")
      ->capture_default_str()
      ->check(cli::positive());
  sub.add_option("--noise-multiplier", c.noise_multiplier, "z: noise N(0, (z S)^2 I) on the sum")
      ->capture_default_str()
      ->check(cli::non_negative());
  sub.add_flag("--adaptive-clip", c.adaptive_clip,
               "adapt the clip norm to a quantile of the update norms (Andrew et al. 2021); --clip "
               "is the start");
  sub.add_option("--target-quantile", c.target_quantile, "adaptive clipping: target quantile gamma")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  sub.add_option("--clip-lr", c.clip_lr,
                 "adaptive clipping: learning rate eta of the geometric update")
      ->capture_default_str()
      ->check(cli::non_negative());
  sub.add_option("--clip-count-noise", c.clip_count_noise,
                 "adaptive clipping: noise sigma_b of the clipped count (default: expected "
                 "participants / 20)")
      ->check(cli::non_negative());
  sub.add_option("--server-lr", c.server_lr, "server learning rate")
      ->capture_default_str()
      ->check(cli::positive());
  sub.add_option("--server-momentum", c.server_momentum, "server momentum, in [0,1)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 0.999999));
}

// The seen and unseen canary clients.
void declare_canaries(CLI::App& sub, FedAvgConfig& c) {
  sub.add_option("--canaries", c.canaries, "seen canaries: spec JSON or NPY (k x D)");
  sub.add_option("--unseen", c.unseen, "unseen canaries: spec JSON or NPY (never inserted)");
  sub.add_option(
         "--canary-repeats", c.canary_repeats,
         "each seen canary takes part in exactly R distinct rounds (0: sampled like real clients)")
      ->capture_default_str();
  sub.add_option("--num-canaries", c.num_canaries,
                 "make K seen sphere canaries, written to DIR/canaries.json");
  sub.add_option("--num-unseen", c.num_unseen,
                 "make K2 unseen sphere canaries, written to DIR/unseen.json");
  sub.add_option("--canary-seed", c.canary_seed,
                 "seed of the canaries made by --num-canaries/--num-unseen")
      ->capture_default_str();
  sub.add_option("--canary-memory", c.canary_memory_mb,
                 "MiB for keeping canaries in memory (else regenerated)")
      ->capture_default_str()
      ->check(cli::non_negative());
}

// The outputs, delta, seed and threads.
void declare_run(CLI::App& sub, FedAvgConfig& c, bool& json) {
  sub.add_option("--out", c.out, "output folder (new or empty)")->required();
  sub.add_flag("--force", c.force, "replace a non-empty --out whole (never merged into)");
  sub.add_option("--timings", c.timings,
                 "write seconds per round, wall seconds and peak memory to this JSON file (they "
                 "vary from run to "
                 "run, so --out has none)");
  sub.add_option("--eval-every", c.eval_every, "test accuracy every N rounds (and at the end)")
      ->capture_default_str();
  sub.add_option(
         "--delta", c.delta,
         "delta of the analytic epsilon (default: clients^-1.1, Andrew et al. 2024, Sec. 5.1)")
      ->check(cli::open_unit_interval());  // 0 stands for the default inside, but an explicit 0 is
                                           // an error
  sub.add_flag("--save-deltas", c.save_deltas,
               "also write deltas.npy: every round's noisy aggregate, T x D");
  sub.add_option("--seed", c.seed,
                 "seed of data partition, model init, sampling, batches and noise")
      ->capture_default_str();
  sub.add_option("--threads", c.threads,
                 "threads, 0: all cores (clients train in parallel; output does not depend on it)")
      ->capture_default_str()
      ->check(cli::thread_count());
  sub.add_flag("--quiet", c.quiet, "no progress on stderr");
  sub.add_flag("--json", json, "print run.json on stdout");
}

std::function<int()> declare_fedavg(CLI::App& sub) {
  auto c = std::make_shared<FedAvgConfig>();
  auto json = std::make_shared<bool>(false);
  sub.description(
      "DP-FedAvg with canary clients (Andrew et al. 2024, Alg. 2-3): writes the final model, "
      "theta_T - theta_0, canary cosines with the final delta (scores_final.csv) and their max "
      "over rounds' noisy aggregates (scores_all.csv), metrics.csv and run.json into --out.");
  sub.footer(
      "\nEXAMPLES:\n"
      "  dp-train fedavg --num-canaries 1000 --num-unseen 1000 --noise-multiplier 0.5 "
      "--clients 3000 \\\n"
      "      --clients-per-round 100 --rounds 40 --out run/\n"
      "  eps-from-scores run/scores_final.csv --null-dim 101770 --delta 1.5e-4       "
      "# eps_est-final\n"
      "  eps-from-scores run/scores_all.csv --method gauss-fit --delta 1.5e-4        "
      "# eps_est-all\n"
      "  dp-train fedavg --task synthetic --model logreg --canaries c.json --canary-repeats 4 "
      "--out r4/\n"
      "  dp-train fedavg --task synthetic --model logreg --clients 200 --clients-per-round 20 "
      "--rounds 5 \\\n"
      "      --num-canaries 10 --ranks 2 --out ranked/    # the same bytes as without --ranks\n"
      "  (see dp-train(1), section FEDAVG; on a cluster: srun -N 4 dp-train fedavg ..., or set "
      "RANK, WORLD_SIZE,\n"
      "  MASTER_ADDR and MASTER_PORT on every rank as torchrun does)\n");
  declare_data_and_model(sub, *c);
  declare_participation(sub, *c);
  declare_clipping(sub, *c);
  declare_canaries(sub, *c);
  declare_run(sub, *c, *json);
  declare_ranks(sub, c->ranks);
  return [c, json] {
    if (c->ranks.ranks > 0) return run_local(c->ranks, c->out);
    const std::optional<Json> run = run_fedavg(*c);
    if (*json && run) write_whole("-", json_line(*run));
    return 0;
  };
}

const Registration fedavg_registration{
    {"fedavg", declare_fedavg,
     "the model (--model, --hidden), the canaries in memory (--canary-memory), "
     "--threads and --save-deltas (--rounds rows)"}};

}  // namespace
}  // namespace dpaudit::dp_train
