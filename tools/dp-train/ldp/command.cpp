// `dp-train ldp`: Matsumoto et al. 2022's privacy test of LDP-SGD. Its options are
// ldp/options.hpp; here it runs the K trials (games/torch/ldp_sgd_game.hpp) and prints the
// decisions CSV `label,guess` or a JSON summary.

#include "command.hpp"

#include "cli/progress.hpp"
#include "cli/tool.hpp"
#include "games/torch/ldp_sgd_game.hpp"
#include "io/atomic_output.hpp"
#include "io/config_hash.hpp"
#include "io/shard_stamp.hpp"
#include "ldp/options.hpp"

namespace dpaudit::dp_train {

namespace {

// The decisions CSV `label,guess`; a shard's (--trial-range) adds the trial and the shard
// columns (io/shard_stamp.hpp), its configuration's hash over the configuration's JSON and
// the game's dimension, radius and learning rate as resolved.
void write_decisions(const std::string& path, const LdpGameConfig& g, const LdpGameResult& result) {
  std::string stamp;
  if (g.trial_range) {
    Json config = g.to_json();
    config["dim"] = result.dim;
    config["radius"] = json_number(result.radius);
    config["learning_rate"] = json_number(result.learning_rate);
    stamp = "," + shard_fields({config_hash(config), g.seed, *g.trial_range, g.trials});
  }
  AtomicOutput out(path);
  out.stream() << "label,guess" << (g.trial_range ? std::string(",trial,") + kShardColumns : "")
               << '\n';
  for (std::size_t k = 0; k < result.labels.size(); ++k) {
    out.stream() << int(result.labels[k]) << ',' << int(result.guesses[k]);
    if (g.trial_range) out.stream() << ',' << g.trial_range->first + k << stamp;
    out.stream() << '\n';
  }
  out.commit();
}

// Validates, plays the trials and writes the decisions CSV and/or the JSON summary.
int run_ldp(LdpOptions& o) {
  complete_ldp_options(o);
  const LdpGameConfig& g = o.game;
  cli::Progress progress("dp-train ldp", g.played().size(), g.quiet);
  const LdpGameResult result =
      run_ldp_game(g, [&progress](std::size_t done) { progress.update(done); });
  const bool csv = !o.json || o.out != "-";
  if (csv) write_decisions(o.out, g, result);
  if (o.json) write_whole("-", json_line(result.summary(g)));
  return 0;
}

std::function<int()> declare_ldp(CLI::App& sub) {
  auto o = std::make_shared<LdpOptions>();
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
      "  dp-train ldp --crafter dummy-gradient --eps 4 --trials 1000 --trial-range 0:500 -o "
      "game0.csv   # a shard\n"
      "  (see dp-train(1), section LDP)\n");
  declare_ldp_options(sub, *o);
  return [o] { return run_ldp(*o); };
}

const Registration registration{{"ldp", declare_ldp, "the model (--model) or --dim, and --trials"}};

}  // namespace

}  // namespace dpaudit::dp_train
