// `dp-train ldp`: Matsumoto et al. 2022's privacy test of LDP-SGD. Its options are
// ldp/options.hpp; here it runs the K trials (games/torch/ldp_sgd_game.hpp) and prints the
// decisions CSV `label,guess` as the trials finish, or a JSON summary.

#include <memory>

#include "command.hpp"

#include "cli/progress.hpp"
#include "cli/tool.hpp"
#include "games/torch/ldp_sgd_game.hpp"
#include "io/atomic_output.hpp"
#include "io/config_hash.hpp"
#include "io/shard_stamp.hpp"
#include "ldp/options.hpp"
#include "trial_rows.hpp"

namespace dpaudit::dp_train {

namespace {

// The decisions CSV `label,guess`, written as the trials finish (trial_rows.hpp); a shard's
// (--trial-range) adds the trial and the shard columns (io/shard_stamp.hpp), its
// configuration's hash over the configuration's JSON and the game's dimension, radius and
// learning rate as resolved before the first trial.
class DecisionWriter {
 public:
  DecisionWriter(TrialRows& rows, const LdpGameConfig& g) : rows_(rows), g_(g) {}

  bool write(const LdpGameResult& result, std::size_t begin, std::size_t end) {
    if (begin == 0) header(result);
    for (std::size_t k = begin; k < end; ++k) {
      rows_.stream() << int(result.labels[k]) << ',' << int(result.guesses[k]);
      if (g_.trial_range) rows_.stream() << ',' << g_.trial_range->first + k << stamp_;
      rows_.stream() << '\n';
    }
    return rows_.flush();
  }

 private:
  void header(const LdpGameResult& result) {
    if (g_.trial_range) {
      Json config = g_.to_json();
      config["dim"] = result.dim;
      config["radius"] = json_number(result.radius);
      config["learning_rate"] = json_number(result.learning_rate);
      stamp_ = "," + shard_fields({config_hash(config), g_.seed, *g_.trial_range, g_.trials});
    }
    rows_.stream() << "label,guess"
                   << (g_.trial_range ? std::string(",trial,") + kShardColumns : "") << '\n';
  }

  TrialRows& rows_;
  const LdpGameConfig& g_;
  std::string stamp_;
};

// Validates, plays the trials and writes the decisions CSV and/or the JSON summary.
int run_ldp(LdpOptions& o) {
  complete_ldp_options(o);
  const LdpGameConfig& g = o.game;
  std::unique_ptr<TrialRows> rows;
  if (!o.json || o.out != "-") rows = std::make_unique<TrialRows>(o.out);
  std::unique_ptr<DecisionWriter> writer;
  if (rows) writer = std::make_unique<DecisionWriter>(*rows, g);
  cli::Progress progress("dp-train ldp", g.played().size(), g.quiet);
  const LdpGameResult result = run_ldp_game(
      g,
      [&](const LdpGameResult& r, std::size_t begin, std::size_t end) {
        return !writer || writer->write(r, begin, end);
      },
      [&progress](std::size_t done) { progress.update(done); });
  if (rows) {
    if (result.labels.empty()) writer->write(result, 0, 0);  // no trials: the header alone
    rows->commit();
    if (rows->reader_closed()) return 0;  // the reader has decided: a quiet stop
  }
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
