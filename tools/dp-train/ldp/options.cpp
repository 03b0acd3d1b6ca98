#include "ldp/options.hpp"

#include <cmath>

#include "cli/tool.hpp"
#include "core/error.hpp"
#include "core/trial_range.hpp"

namespace dpaudit::dp_train {

namespace {

// UsageError for eps/L <= 0, K or n < 1, and options that the crafter does not use.
void validate(const LdpGameConfig& g) {
  dpaudit::validate(g.ldp);
  if (g.trials < 1) throw UsageError("the number of trials K must be >= 1", "--trials");
  if (g.clients < 1) throw UsageError("the number of clients n must be >= 1", "--clients");
  if (!(g.radius >= 0) || !std::isfinite(g.radius))
    throw UsageError("the parameter ball radius must be a finite number > 0", "--radius");
  if (!(g.learning_rate >= 0) || !std::isfinite(g.learning_rate))
    throw UsageError("the server learning rate must be a finite number > 0", "--lr");
  if (g.dim != 0 && g.crafter != LdpCrafter::dummy_gradient)
    throw UsageError(
        "--dim only applies to the dummy-gradient crafter (others use the model's dimension)",
        "--dim");
  if (!(g.dummy_norm >= 0) || !std::isfinite(g.dummy_norm))
    throw UsageError("the dummy gradient's norm must be a finite number > 0", "--dummy-norm");
  if (g.dummy_norm != 0 && g.crafter != LdpCrafter::dummy_gradient)
    throw UsageError("--dummy-norm only applies to the dummy-gradient crafter", "--dummy-norm");
  if (g.malicious_label < 0)
    throw UsageError("the malicious label must be >= 0", "--malicious-label");
}

// A whole number >= minimum (CLI11 would wrap "-3" into a huge unsigned count).
CLI::Validator whole_number(const std::string& what, unsigned minimum) {
  return CLI::Validator(
      [what, minimum](std::string& s) -> std::string {
        if (s.empty() || s.size() > 18 || s.find_first_not_of("0123456789") != std::string::npos ||
            std::stoull(s) < minimum)
          return what + " must be a whole number >= " + std::to_string(minimum) + ", got '" + s +
                 "'";
        return {};
      },
      "");
}

// The game: crafter, distinguisher, LDP-SGD's parameters, the task and model, the black-box
// server.
void declare_game_options(CLI::App& sub, LdpOptions& o) {
  LdpGameConfig& g = o.game;
  sub.add_option(
         "--crafter", o.crafter,
         "benign | input-perturbation | parameter-retrogression | gradient-flip | collusion | "
         "dummy-gradient (Matsumoto et al. 2022, Sec. 3.4)")
      ->required();
  sub.add_option("--distinguisher", o.distinguisher,
                 "white-box (Eq. 5) | black-box (Table 1's Eq. 4, 6 or 7)")
      ->capture_default_str();
  sub.add_option("--eps", g.ldp.eps, "local privacy parameter eps of LDP-SGD (> 0)")->required();
  sub.add_option("--clip,-L", g.ldp.clip, "l2 clipping norm L (> 0)")->capture_default_str();
  sub.add_option("--trials,-K", g.trials, "number of trials K (>= 1)")
      ->check(whole_number("the number of trials K", 1))
      ->capture_default_str();
  sub.add_option("--trial-range", o.trial_range,
                 "A:B: play trials [A, B) of the K (a shard; the CSV then carries the trial and "
                 "the shard columns)");
  sub.add_option("--clients,-n", g.clients,
                 "reports the server averages per step; the other n-1 are benign (black-box, "
                 "Matsumoto et al. 2022, Table 3)")
      ->check(whole_number("the number of clients n", 1))
      ->capture_default_str();
  sub.add_option("--task", g.task, "fashion-mnist | synthetic")->capture_default_str();
  sub.add_option("--data", g.data_dir, "folder of the Fashion-MNIST gzip IDX files")
      ->capture_default_str();
  sub.add_option("--model", g.model, "cnn (Matsumoto et al. 2022, Table 2) | mlp | logreg")
      ->capture_default_str();
  sub.add_option("--dim", g.dim,
                 "dummy-gradient only: dimension d (default: the model's parameter count)")
      ->check(whole_number("the dimension d", 1));
  sub.add_option("--dummy-norm", g.dummy_norm,
                 "dummy-gradient only: the l2 norm of g1 = (lambda, ..., lambda) (default L, as "
                 "Matsumoto et al. 2022; "
                 "Matsumoto et al. 2022, Fig. 3 varies it)")
      ->check(cli::positive());
  sub.add_option("--radius", g.radius,
                 "radius ||C|| of the server's parameter ball (default: ||theta_t||, or L when "
                 "theta_t = 0)")
      ->check(cli::positive());  // 0 is the unset default inside: an explicit 0 was silently the
                                 // default
  sub.add_option("--lr", g.learning_rate,
                 "black-box: the server's learning rate eta (default: Matsumoto et al. 2022, Alg. "
                 "2's ||C|| "
                 "sqrt(n)/(L sqrt(d)) "
                 "(e^eps-1)/(e^eps+1))")
      ->check(cli::positive());
  sub.add_flag("--printed-constant", g.printed_constant,
               "black-box: scale reports by Alg. 2's constant as Matsumoto et al. 2022 prints it "
               "(without the factor d that "
               "makes it unbiased), so the server's step is d times smaller");
  sub.add_option("--pretrain-steps", g.pretrain_steps,
                 "SGD steps (batch 32, lr 0.1) that make theta_t")
      ->check(whole_number("the number of pre-training steps", 0))
      ->capture_default_str();
  sub.add_option("--malicious-label", g.malicious_label,
                 "collusion: the one label the malicious model learns")
      ->capture_default_str();
}

// Seeds, threads and the output.
void declare_run_options(CLI::App& sub, LdpOptions& o) {
  LdpGameConfig& g = o.game;
  sub.add_option(
         "--seed", g.seed,
         "seed of the data, theta_t's initialisation and pre-training, and of the trials unless "
         "--trial-seed")
      ->capture_default_str();
  sub.add_option(
      "--trial-seed", g.trial_seed,
      "seed of the trials only (crafting, the coin, the randomizer, the other clients); default: "
      "--seed. Another value plays fresh trials on the same theta_t (held-out trials)");
  sub.add_option("--threads", g.threads,
                 "worker threads, 0: all cores (output does not depend on it)")
      ->capture_default_str()
      ->check(dpaudit::cli::thread_count());
  sub.add_option("-o,--output", o.out,
                 "decisions CSV file, whole at the end (- = stdout: rows as the trials finish)")
      ->capture_default_str();
  sub.add_flag("--json", o.json,
               "print a JSON summary on stdout (FPR, FNR, Eq. 3's eps) instead of the CSV");
  sub.add_flag("--quiet,-q", g.quiet, "no progress on stderr");
}

}  // namespace

void declare_ldp_options(CLI::App& sub, LdpOptions& o) {
  declare_game_options(sub, o);
  declare_run_options(sub, o);
}

void complete_ldp_options(LdpOptions& o) {
  LdpGameConfig& g = o.game;
  g.crafter = parse_ldp_crafter(o.crafter);
  g.distinguisher = parse_ldp_distinguisher(o.distinguisher);
  validate(g);
  if (!o.trial_range.empty()) {
    g.trial_range = parse_trial_range(o.trial_range);
    check_trial_range(*g.trial_range, g.trials);
  }
}

}  // namespace dpaudit::dp_train
