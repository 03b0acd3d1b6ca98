// `dp-train sgd`: Nasr et al. 2021's distinguishing game on central DP-SGD, many trials.
// Its options are sgd/options.hpp; here it calibrates the noise (sgd/accounting.hpp),
// plays the trials (lib/games/torch/sgd_game.hpp) and writes the scores CSV
// `trial,label,score` as the trials finish (trial_rows.hpp), or a JSON summary.
#include <memory>
#include <vector>

#include "cli/progress.hpp"
#include "command.hpp"
#include "core/format.hpp"
#include "games/torch/sgd_game.hpp"
#include "io/atomic_output.hpp"
#include "io/config_hash.hpp"
#include "io/json.hpp"
#include "io/shard_stamp.hpp"
#include "sgd/accounting.hpp"
#include "sgd/options.hpp"
#include "stats/estimate.hpp"
#include "stats/scores.hpp"
#include "trial_rows.hpp"

namespace dpaudit::dp_train {

namespace {

// The trials' labels: the game's scores alternate out (even k) and in (odd k).
std::vector<int> trial_labels(std::size_t n) {
  std::vector<int> labels(n);
  for (std::size_t k = 0; k < n; ++k) labels[k] = int(k % 2);
  return labels;
}

// The estimates --json reports: the point estimate, Nasr et al. 2021's (Clopper-Pearson at
// the best threshold, as the paper: not a bound) and the honest one (Bonferroni over the
// thresholds), at the run's delta, each through the estimator interface
// (stats/estimate.hpp); "guarantee" says what each is and assumes.
Json estimates(const std::vector<double>& scores, double delta) {
  const ScoreSet set = score_set_of(trial_labels(scores.size()), scores);
  Json j;
  const auto put = [&](const char* key, const char* method, ThresholdChoice choice) {
    EstimateRequest r;
    r.method = method;
    r.delta = delta;
    r.thresholds = choice;
    validate(r);
    r.scores = set;
    const Estimate e = estimate(r);
    j[key] = json_number(e.epsilon);
    j["guarantee"][key] = {{"guarantee", guarantee_name(e.guarantee.kind)},
                           {"assumes", assumption_name(e.guarantee.assumes)}};
  };
  put("eps_threshold", "threshold", ThresholdChoice::max);
  put("eps_lower_cp_best_threshold", "clopper-pearson", ThresholdChoice::max);
  put("eps_lower_cp", "clopper-pearson", ThresholdChoice::bonferroni);
  return j;
}

// The scores CSV `trial,label,score`, and the shard columns (io/shard_stamp.hpp) with a
// --trial-range: the configuration's hash is over its JSON and the noise multiplier used.
// Each delivery of trials is written as it comes (trial_rows.hpp).
class ScoreWriter {
 public:
  ScoreWriter(TrialRows& rows, const SgdOptions& o, double sigma) : rows_(rows), c_(o.config) {
    if (o.shard) {
      Json config = c_.to_json();
      config["noise_multiplier"] = json_number(sigma);
      stamp_ =
          "," +
          shard_fields({config_hash(config), c_.seed, {c_.first_trial, c_.last_trial}, c_.trials});
    }
    rows_.stream() << "trial,label,score" << (o.shard ? std::string(",") + kShardColumns : "")
                   << '\n';
  }

  bool write(std::size_t begin, const double* scores, std::size_t n) {
    for (std::size_t k = 0; k < 2 * n; ++k)
      rows_.stream() << c_.first_trial + begin + k / 2 << ',' << k % 2 << ','
                     << format_number(scores[k]) << stamp_ << '\n';
    return rows_.flush();
  }

 private:
  TrialRows& rows_;
  const SgdConfig& c_;
  std::string stamp_;
};

// --json's keys beside the configuration: the accounting, the game's figures and the
// estimates on the trials played.
Json summary(const SgdOptions& o, const SgdAccounting& accounting, const SgdGameResult& result,
             const std::vector<double>& scores) {
  const SgdConfig& c = o.config;
  Json j = c.to_json();
  j["noise_multiplier"] = json_number(accounting.noise_multiplier);
  j["analytic_eps"] = json_number(accounting.epsilon);
  j["accountant"] = accounting.accountant;
  j["accountant_assumes"] = accounting.assumes;
  if (accounting.last_iterate) {
    j["eps_last_iterate_heuristic"] = json_number(accounting.last_iterate->epsilon);
    j["last_iterate_assumes"] = accounting.last_iterate->assumes;
  }
  if (c.sampling == Sampling::poisson) {
    if (accounting.pld)
      j["eps_pld"] = {{"upper", json_number(accounting.pld->upper)},
                      {"lower", json_number(accounting.pld->lower)}};
    j["eps_rdp"] = json_number(accounting.rdp);
  }
  if (result.parameters) j["parameters"] = result.parameters;
  j["setup_seconds"] = result.setup_seconds;
  if (crafts_input(c.threat))
    j["crafted"] = {{"shadow_loss_initial", json_number(result.crafted_initial_loss)},
                    {"shadow_loss_final", json_number(result.crafted_final_loss)}};
  if (c.threat == SgdThreat::adaptive_poison) {
    j["crafts"] = result.crafts;
    j["craft_seconds"] = result.craft_seconds;
  }
  if (result.evaluated) {
    j["test_accuracy"] = result.test_accuracy;
    j["test_accuracy_models"] = result.evaluated;
  }
  j["estimates"] = estimates(scores, c.delta);
  j["seconds"] = result.seconds;
  j["trials_per_second"] = result.seconds > 0 ? double(result.trials) / result.seconds : 0.0;
  return j;
}

int run_sgd(const SgdOptions& o) {
  const SgdConfig& c = o.config;
  std::unique_ptr<TrialRows>
      rows;  // opened first: an -o that cannot be written fails before the trials
  if (!o.json || o.out != "-") rows = std::make_unique<TrialRows>(o.out);
  // A noise multiplier no trainer can use is said as such, before the accountant meets it.
  if (!(c.eps > 0)) c.check_arithmetic(c.noise_multiplier);
  const SgdAccounting accounting = account_sgd_run(c);
  if (c.eps > 0) c.check_arithmetic(accounting.noise_multiplier);
  std::unique_ptr<ScoreWriter> writer;
  if (rows) writer = std::make_unique<ScoreWriter>(*rows, o, accounting.noise_multiplier);
  std::vector<double> scores;  // kept for --json's estimates
  cli::Progress progress("dp-train sgd", c.last_trial - c.first_trial, c.quiet);
  const SgdGameResult result = play_sgd_game(
      c, accounting.noise_multiplier, o.json ? o.evaluate : 0,
      [&](std::size_t begin, const double* s, std::size_t n) {
        c.check_scores(accounting.noise_multiplier, c.first_trial + begin, s, n);
        if (o.json) scores.insert(scores.end(), s, s + 2 * n);
        return !writer || writer->write(begin, s, n);
      },
      [&](std::size_t done) { progress.update(done); });
  if (rows) {
    rows->commit();
    if (rows->reader_closed()) return 0;  // the reader has decided: a quiet stop
  }
  if (o.json) write_whole("-", json_line(summary(o, accounting, result, scores)));
  return 0;
}

std::function<int()> declare_sgd(CLI::App& sub) {
  auto o = std::make_shared<SgdOptions>();
  const std::function<void()> resolve = declare_sgd_options(sub, *o);
  return [o, resolve] {
    resolve();
    return run_sgd(*o);
  };
}

const Registration registration{
    {"sgd", declare_sgd,
     "the model (--model, --hidden), --train-size, --threads (a model per thread) and --trials"}};

}  // namespace

}  // namespace dpaudit::dp_train
