// `dp-train ldp`: Matsumoto et al. 2022's privacy test of LDP-SGD. Declares the options, runs the K
// trials (games/torch/ldp_sgd_game.hpp) and prints the decisions CSV `label,guess` or a JSON
// summary.

#include "command.hpp"
#include <cmath>

#include "cli/progress.hpp"
#include "cli/tool.hpp"
#include "core/error.hpp"
#include "games/torch/ldp_sgd_game.hpp"
#include "io/atomic_output.hpp"

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

struct LdpOptions {
  LdpGameConfig game;
  std::string crafter, distinguisher = "white-box", out = "-";
  bool json = false;
};

// Validates, plays the trials and writes the decisions CSV and/or the JSON summary.
int run_ldp(LdpOptions& o) {
  LdpGameConfig& g = o.game;
  g.crafter = parse_ldp_crafter(o.crafter);
  g.distinguisher = parse_ldp_distinguisher(o.distinguisher);
  validate(g);
  cli::Progress progress("dp-train ldp", g.trials, g.quiet);
  const LdpGameResult result =
      run_ldp_game(g, [&progress](std::size_t done) { progress.update(done); });
  const bool csv = !o.json || o.out != "-";
  if (csv) {
    AtomicOutput out(o.out);
    out.stream() << "label,guess\n";
    for (std::size_t k = 0; k < result.labels.size(); ++k)
      out.stream() << int(result.labels[k]) << ',' << int(result.guesses[k]) << '\n';
    out.commit();
  }
  if (o.json) write_whole("-", json_line(result.summary(g)));
  return 0;
}

std::function<int()> declare_ldp(CLI::App& sub) {
  auto o = std::make_shared<LdpOptions>();
  auto& g = o->game;
  sub.description(
      "LDP privacy test of Matsumoto et al. 2022: a crafter makes gradients g1, g2; one of them, "
      "chosen by a fair coin, is randomized by the LDP-SGD client; a white-box (Eq. 5) or "
      "black-box "
      "(Eq. 4, 6, 7) distinguisher guesses which. Writes one row `label,guess` per trial (1 = g1) "
      "for eps-from-scores --decisions (Matsumoto et al. 2022, Eq. 3).");
  sub.footer(
      "\nEXAMPLES:\n"
      "  dp-train ldp --crafter dummy-gradient --eps 4 --trials 10000 |\n"
      "      eps-from-scores --decisions - --method threshold          # about 4 (Matsumoto et al. "
      "2022, Prop. 1)\n"
      "  dp-train ldp --crafter benign --distinguisher black-box --eps 4 --json\n"
      "  dp-train ldp --crafter collusion --eps 2 --threads 2 -o decisions.csv\n"
      "  dp-train ldp --crafter dummy-gradient --dim 100000 --eps 4 --distinguisher black-box "
      "--clients 10\n"
      "  dp-train ldp --crafter dummy-gradient --dummy-norm 0.5 --eps 4 --json   # Matsumoto et "
      "al. 2022, Fig. 3: "
      "below L\n"
      "  dp-train ldp --crafter benign --distinguisher black-box --eps 4 --trial-seed 2 --json  # "
      "held-out trials\n"
      "  (see dp-train(1), section LDP)\n");
  sub.add_option(
         "--crafter", o->crafter,
         "benign | input-perturbation | parameter-retrogression | gradient-flip | collusion | "
         "dummy-gradient (Matsumoto et al. 2022, Sec. 3.4)")
      ->required();
  sub.add_option("--distinguisher", o->distinguisher,
                 "white-box (Eq. 5) | black-box (Table 1's Eq. 4, 6 or 7)")
      ->capture_default_str();
  sub.add_option("--eps", g.ldp.eps, "local privacy parameter eps of LDP-SGD (> 0)")->required();
  sub.add_option("--clip,-L", g.ldp.clip, "l2 clipping norm L (> 0)")->capture_default_str();
  sub.add_option("--trials,-K", g.trials, "number of trials K (>= 1)")
      ->check(whole_number("the number of trials K", 1))
      ->capture_default_str();
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
  sub.add_option("-o,--output", o->out, "decisions CSV file (- = stdout)")->capture_default_str();
  sub.add_flag("--json", o->json,
               "print a JSON summary on stdout (FPR, FNR, Eq. 3's eps) instead of the CSV");
  sub.add_flag("--quiet,-q", g.quiet, "no progress on stderr");
  return [o] { return run_ldp(*o); };
}

const Registration registration{{"ldp", declare_ldp, "the model (--model) or --dim, and --trials"}};

}  // namespace

}  // namespace dpaudit::dp_train
