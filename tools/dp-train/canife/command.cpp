// `dp-train canife`: Maddock et al. 2023's crafted canaries and per-round empirical privacy, at
// sample or user level (canife/run.hpp). Declares the options and prints the run's eps_hat.
#include <memory>

#include "canife/run.hpp"
#include "cli/tool.hpp"
#include "command.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "io/atomic_output.hpp"
#include "ranks.hpp"

namespace dpaudit::dp_train {

namespace {

struct CanifeOptions {
  CanifeConfig config;
  std::string level = "sample", loss = "cov", init = "random", accountant = "pld",
              eps_hat = "code-2023";
  std::size_t clients_per_round = 100;
  bool json = false;
  CLI::Option *q = nullptr, *lr = nullptr, *noise = nullptr, *eps = nullptr;
  std::vector<CLI::Option*> user_only;  // the options of --level user only
};

void describe(CLI::App& sub) {
  sub.description(
      "CANIFE (Maddock et al. 2023): DP-SGD with every client one example (--level sample) or "
      "DP-FedAvg over "
      "fedavg's clients (--level user); every --audit-every rounds a rogue client crafts one input "
      "whose update is "
      "nearly orthogonal to the others' (Alg. 1), inserts it in every other of n mock rounds and "
      "scores them; eps_r "
      "per audit and Alg. 2's eps_hat for the run. Writes scores.csv, audits.csv, canaries.npy, "
      "metrics.csv and run.json into "
      "--out; prints eps_hat.");
  sub.footer(
      "\nEXAMPLES:\n"
      "  dp-train canife --noise-multiplier 0.2 --audit-every 100 --out run/      # Andrew et al. "
      "2024, Sec. 5.4's "
      "setting\n"
      "  eps-from-scores run/scores.csv --per round --method canife              # eps_r per "
      "audit\n"
      "  dp-train canife --noise-multiplier 0.2 --audit-every 100 --eps-hat code-2022 --out r22/  "
      "# the first public code's recipe\n"
      "  dp-train canife --task synthetic --q 0.05 --rounds 60 --audit-every 20 --design-steps 200 "
      "\\\n"
      "      --noise-multiplier 1 --out toy/ --json\n"
      "  dp-train canife --level user --clients 3000 --partition label-skew --clients-per-round "
      "100 --rounds 300 \\\n"
      "      --eps 50 --audit-every 20 --design-pool 100 --design-steps 1000 --out user/  # "
      "Maddock et al. 2023 "
      "Fig. 4's setting\n"
      "  eps-from-scores user/scores.csv --per round --method canife | rdp-compose --empirical - "
      "--q 0.0333333 \\\n"
      "      --rounds 300 --round-delta 0.01 --delta 1e-5 --sigma-if-inf \"$(jq .noise_multiplier "
      "user/run.json)\"\n"
      "  (see dp-train(1), section CANIFE)\n");
}

// The data, the model and the sampling rate.
void declare_model_options(CLI::App& sub, CanifeOptions& o) {
  CanifeConfig& c = o.config;
  sub.add_option("--level", o.level, "sample (each client one example) | user (fedavg's clients)")
      ->capture_default_str();
  sub.add_option("--task", c.task, "fashion-mnist | synthetic")->capture_default_str();
  sub.add_option("--data", c.data_dir, "folder of the Fashion-MNIST gzip IDX files");
  sub.add_option("--model", c.model, "mlp | logreg")->capture_default_str();
  sub.add_option("--hidden", c.hidden, "mlp hidden width")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 20));
  o.q = sub.add_option("--q", c.q, "Poisson rate of a client (sample level: one example) per round")
            ->capture_default_str();
}

// The clients of --level user (fedavg's).
void declare_user_options(CLI::App& sub, CanifeOptions& o) {
  UserLevelConfig& u = o.config.user;
  auto* clients = sub.add_option("--clients", u.clients, "user level: number of clients")
                      ->capture_default_str();
  auto* per_round =
      sub.add_option("--clients-per-round", o.clients_per_round,
                     "user level: expected clients per round, q = M / clients (unless --q)")
          ->capture_default_str();
  per_round->excludes(o.q);
  auto* partition = sub.add_option("--partition", u.partition, "user level: iid | label-skew")
                        ->capture_default_str();
  auto* alpha =
      sub.add_option("--alpha", u.alpha, "user level: Dirichlet concentration of label-skew")
          ->capture_default_str()
          ->check(cli::positive());
  auto* local_epochs =
      sub.add_option("--local-epochs", u.local_epochs, "user level: local epochs per update")
          ->capture_default_str();
  auto* local_batch =
      sub.add_option("--local-batch", u.local_batch, "user level: local minibatch size")
          ->capture_default_str();
  auto* client_lr =
      sub.add_option("--client-lr", u.client_lr, "user level: client SGD learning rate")
          ->capture_default_str()
          ->check(cli::positive());
  auto* server_lr = sub.add_option("--server-lr", u.server_lr, "user level: server learning rate")
                        ->capture_default_str()
                        ->check(cli::positive());
  o.user_only = {clients,      per_round,   partition, alpha,
                 local_epochs, local_batch, client_lr, server_lr};
}

// The training: rounds, step, clipping, noise and its accountant.
void declare_training_options(CLI::App& sub, CanifeOptions& o) {
  CanifeConfig& c = o.config;
  sub.add_option("--rounds", c.rounds, "rounds (default: one epoch, ceil(1/q))");
  o.lr = sub.add_option("--lr", c.lr, "sample level: learning rate of the averaged update")
             ->capture_default_str()
             ->check(cli::non_negative());
  sub.add_option("--clip", c.clip, "clip norm C of each client's update")
      ->capture_default_str()
      ->check(cli::positive());
  o.noise = sub.add_option("--noise-multiplier", c.noise_multiplier,
                           "z: noise N(0, (z C)^2 I) on each round's sum")
                ->check(cli::positive());
  o.eps = sub.add_option("--eps", c.eps,
                         "calibrate z so the whole run is (eps, delta)-DP by --accountant")
              ->check(cli::positive());
  o.noise->excludes(o.eps);
  sub.add_option("--accountant", o.accountant,
                 "pld (the privacy-loss distribution: the tightest sound bound) | rdp (Renyi DP, "
                 "looser): calibrates --eps and gives the analytic eps")
      ->capture_default_str();
  sub.add_option("--delta", c.delta, "delta of the run and of eps_hat")
      ->capture_default_str()
      ->check(cli::open_unit_interval());
}

// The audits: their period, mock rounds and the crafting of Alg. 1.
void declare_audit_options(CLI::App& sub, CanifeOptions& o) {
  CanifeConfig& c = o.config;
  sub.add_option("--audit-every", c.audit_every, "S: audit before rounds 0, S, 2S, ...")
      ->capture_default_str();
  sub.add_option("--audit-rounds", c.audit_rounds, "n mock rounds per audit (eps_r at delta 1/n)")
      ->capture_default_str();
  sub.add_option("--design-pool", c.design_pool, "M design examples from the test split")
      ->capture_default_str();
  sub.add_option("--design-steps", c.craft.steps, "T Adam steps of Alg. 1")->capture_default_str();
  sub.add_option("--design-lr", c.craft.lr, "Adam's learning rate")
      ->capture_default_str()
      ->check(cli::positive());
  sub.add_option("--design-minibatch", c.craft.minibatch,
                 "m design updates per step (0: the expected lot size)")
      ->default_val(0);
  sub.add_option("--loss", o.loss, "cov (Maddock et al. 2023's Loss 2, default) | mean (Loss 1)")
      ->capture_default_str();
  sub.add_option("--norm-constant", c.craft.norm_constant,
                 "C_n of the squared norm hinge (0: none)")
      ->capture_default_str()
      ->check(cli::non_negative());
  sub.add_option("--init", o.init,
                 "random (uniform pixels, random class) | sample (a design example)")
      ->capture_default_str();
  sub.add_option("--eps-hat", o.eps_hat,
                 "the run's eps_hat (run.json has all four): code-2023 (Maddock et al.'s code "
                 "since Feb. 2023: eps_r -> one Gaussian step at delta 1/n, an infinite eps_r -> "
                 "the run's z, rounds since the previous audit) | forward (the rounds until the "
                 "next audit, Alg. 2 as printed) | capped (an infinite eps_r read as the largest "
                 "finite one n scores show) | code-2022 (their first public code, Oct. 2022: "
                 "eps_r at the max-accuracy threshold at --delta, inf when either error count is "
                 "0 and then skipped, each finite eps_r read as the eps of its audit's whole "
                 "segment of rounds at q)")
      ->capture_default_str();
}

// The seed, the threads and the outputs.
void declare_output_options(CLI::App& sub, CanifeOptions& o) {
  CanifeConfig& c = o.config;
  sub.add_option("--seed", c.seed, "random seed")->capture_default_str();
  sub.add_option("--threads", c.threads,
                 "threads for design updates and mock rounds (0: all cores; output does "
                 "not depend on it)")
      ->capture_default_str()
      ->check(cli::thread_count());
  sub.add_option("--out", c.out, "output folder")->required();
  sub.add_flag("--force", c.force, "replace a non-empty --out");
  sub.add_option("--timings", c.timings,
                 "write the run's seconds, peak memory and each audit's design and mock seconds to "
                 "this JSON file "
                 "(they vary from run to run, so --out has none)");
  sub.add_flag("--json", o.json, "print run.json on stdout instead of eps_hat");
  sub.add_flag("--quiet,-q", c.quiet, "no progress on stderr");
}

// The options' cross rules and names into the configuration.
void resolve(CanifeOptions& o) {
  if (!o.noise->count() && !o.eps->count())
    throw UsageError(
        "give the noise: --noise-multiplier Z or --eps E (calibrated for the whole run)");
  CanifeConfig& c = o.config;
  c.level = parse_canife_level(o.level);
  if (c.level == CanifeLevel::sample) {
    cli::forbid_options(o.user_only, "with --level sample");
  } else {
    cli::forbid_options({o.lr}, "with --level user");
    if (!o.q->count()) {
      if (o.clients_per_round == 0 || o.clients_per_round > c.user.clients)
        throw UsageError("clients per round must lie in [1, " + std::to_string(c.user.clients) +
                             "], the clients",
                         "--clients-per-round");
      c.q = static_cast<double>(o.clients_per_round) / static_cast<double>(c.user.clients);
    }
  }
  c.craft.loss = parse_canary_loss(o.loss);
  c.init = parse_canary_init(o.init);
  c.accountant = parse_canife_accountant(o.accountant);
  c.eps_hat = parse_eps_hat_rule(o.eps_hat);
}

std::function<int()> declare_canife(CLI::App& sub) {
  auto o = std::make_shared<CanifeOptions>();
  describe(sub);
  declare_model_options(sub, *o);
  declare_user_options(sub, *o);
  declare_training_options(sub, *o);
  declare_audit_options(sub, *o);
  declare_output_options(sub, *o);
  declare_ranks(sub, o->config.ranks);
  return [o] {
    resolve(*o);
    if (o->config.ranks.ranks > 0) return run_local(o->config.ranks, o->config.out);
    const std::optional<Json> run = run_canife(o->config);
    if (!run) return 0;                       // a rank other than 0: rank 0 prints
    const Json& eps_hat = (*run)["eps_hat"];  // a number, or "inf"
    write_whole("-", o->json ? json_line(*run)
                             : (eps_hat.is_string() ? eps_hat.get<std::string>()
                                                    : format_number(eps_hat.get<double>())) +
                                   "\n");
    return 0;
  };
}

const Registration registration{
    {"canife", declare_canife,
     "the model (--model, --hidden), --design-pool and --threads (a model per thread)"}};

}  // namespace

}  // namespace dpaudit::dp_train
