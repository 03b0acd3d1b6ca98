#include "canife/run.hpp"

#include <ATen/Parallel.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>

#include "accounting/analytic_gaussian.hpp"
#include "accounting/empirical_composition.hpp"
#include "accounting/rdp.hpp"
#include "cli/progress.hpp"
#include "core/error.hpp"
#include "core/parallel.hpp"
#include "io/atomic_output.hpp"
#include "io/format.hpp"
#include "io/npy.hpp"
#include "models.hpp"
#include "sgd/trainer.hpp"
#include "staging_dir.hpp"
#include "stats/canife_epsilon.hpp"
#include "stats/epsilon_from_rates.hpp"

namespace dpaudit::dp_train {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct MeanSd {
  double mean = 0, sd = 0;
};
MeanSd mean_sd(const std::vector<double>& v) {
  MeanSd m;
  for (double x : v) m.mean += x / double(v.size());
  for (double x : v) m.sd += (x - m.mean) * (x - m.mean) / double(v.size() > 1 ? v.size() - 1 : 1);
  m.sd = std::sqrt(m.sd);
  return m;
}

// One audit's outcome: a row of audits.csv, its scores and its canary.
struct Audit {
  std::size_t round = 0;
  CraftedCanary canary;
  std::vector<double> scores;  // mock round k: label k % 2
  CanifeEpsilon eps;
  double test_accuracy = 0;
  double design_seconds = 0, mock_seconds = 0;
};

class Auditor {
 public:
  Auditor(const CanifeConfig& c, const TrainTest& data, const PerExampleModel& model,
          std::vector<std::int64_t> widths, double sigma)
      : c_(c), data_(data), model_(model), widths_(std::move(widths)), sigma_(sigma) {
    // The design pool: M test examples drawn once, uniformly without replacement.
    const std::size_t m = std::min(c.design_pool, data.test.size());
    std::vector<std::size_t> order(data.test.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    PhiloxStream rng(c.seed, kCanifePoolStream);
    shuffle_prefix(order, m, rng);
    pool_.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(m));
  }

  Audit audit(std::size_t round, const std::vector<float>& theta) const {
    Audit a;
    a.round = round;
    const auto start = std::chrono::steady_clock::now();
    // Design updates: the pool's per-example gradients at theta, clipped to C.
    const std::size_t d = theta.size(), width = data_.test.example_size();
    std::vector<float> updates(pool_.size() * d, 0.0f);
    parallel_blocks(pool_.size(), c_.threads, [&](std::size_t begin, std::size_t end, std::size_t) {
      auto model = model_.clone();
      for (std::size_t i = begin; i < end; ++i)
        model->add_clipped_sum(theta.data(), data_.test.example(pool_[i]), &data_.test.labels[pool_[i]], 1, c_.clip,
                               updates.data() + i * d);
    });
    PhiloxStream rng(c_.seed, kCanifeCraftStream + round);
    std::vector<float> x0(width);
    std::int64_t label;
    if (c_.init == CanaryInit::random) {  // uniform pixels and a uniform class (000's code)
      for (float& v : x0) v = static_cast<float>(rng.uniform());
      label = static_cast<std::int64_t>(uniform_below(rng, static_cast<std::size_t>(data_.test.num_classes)));
    } else {  // the first design example
      std::copy_n(data_.test.example(pool_[0]), width, x0.begin());
      label = data_.test.labels[pool_[0]];
    }
    CraftOptions o = c_.craft;
    if (o.minibatch == 0)
      o.minibatch = std::max<std::size_t>(1, std::llround(c_.q * static_cast<double>(data_.train.size())));
    const CanaryCrafter crafter(widths_, theta, updates, pool_.size());
    a.canary = crafter.craft(x0, label, o, rng);
    if (!(a.canary.gradient_norm > 0))
      throw DataError("the crafted canary's gradient is zero at round " + std::to_string(round));
    a.design_seconds = seconds_since(start);
    a.scores = mock_rounds(round, theta, a.canary);
    a.mock_seconds = seconds_since(start) - a.design_seconds;
    std::vector<double> in, out;
    for (std::size_t k = 0; k < a.scores.size(); ++k) (k % 2 ? in : out).push_back(a.scores[k]);
    a.eps = canife_epsilon(in, out, 1.0 / double(c_.audit_rounds));
    a.test_accuracy = accuracy(theta);
    return a;
  }

 private:
  // n mock rounds at the frozen theta: a fresh Poisson lot and noise each, the canary's
  // clipped gradient added in the odd ones; score <noisy sum, g / ||g||> / C.
  std::vector<double> mock_rounds(std::size_t round, const std::vector<float>& theta, const CraftedCanary& cn) const {
    const std::size_t d = theta.size(), width = data_.train.example_size(), n = c_.audit_rounds;
    std::vector<double> scores(n);
    parallel_blocks(n, c_.threads, [&](std::size_t begin, std::size_t end, std::size_t) {
      auto model = model_.clone();
      std::vector<float> sum(d), x;
      std::vector<std::int64_t> y;
      std::vector<std::size_t> lot;
      std::vector<double> noise(d);
      for (std::size_t k = begin; k < end; ++k) {
        PhiloxStream rng(c_.seed, kCanifeMockStream + round * n + k);
        x.clear();
        y.clear();
        draw_poisson_lot(data_.train.size(), c_.q, rng, lot);
        for (std::size_t i : lot) {
          x.insert(x.end(), data_.train.example(i), data_.train.example(i) + width);
          y.push_back(data_.train.labels[i]);
        }
        std::fill(sum.begin(), sum.end(), 0.0f);
        model->add_clipped_sum(theta.data(), x.data(), y.data(), y.size(), c_.clip, sum.data());
        rng.fill_normal(noise.data(), d);
        const double in_factor = std::min(1.0, c_.clip / cn.gradient_norm);
        double dot = 0;
        for (std::size_t j = 0; j < d; ++j) {
          double v = double(sum[j]) + sigma_ * c_.clip * noise[j];
          if (k % 2) v += in_factor * cn.gradient[j];
          dot += v * cn.gradient[j];
        }
        scores[k] = dot / cn.gradient_norm / c_.clip;
      }
    });
    return scores;
  }

  double accuracy(const std::vector<float>& theta) const {
    return test_accuracy(*model_.clone(), theta, data_.test);
  }

  const CanifeConfig& c_;
  const TrainTest& data_;
  const PerExampleModel& model_;
  std::vector<std::int64_t> widths_;
  double sigma_;
  std::vector<std::size_t> pool_;
};

// audits.csv: one row per audit.
void write_audits_csv(const std::string& path, const std::vector<Audit>& audits, std::size_t n, double sigma,
                      double delta) {
  AtomicOutput out(path);
  out.stream() << "round,n,canary_label,health,initial_loss,final_loss,canary_grad_norm,with_mean,with_sd,"
                  "without_mean,without_sd,eps_r,eps_r_lower,eps_r_upper,eps_r_theory_delta,eps_r_theory_1n,"
                  "test_accuracy,design_seconds,mock_seconds\n";
  // The theoretical eps of one round without amplification (q = 1, one step), at the
  // run's delta and at 000's 1/n.
  const double theory = rdp_epsilon({{sigma, 1.0, 1}}, delta).epsilon;
  const double theory_1n = rdp_epsilon({{sigma, 1.0, 1}}, 1.0 / double(n)).epsilon;
  for (const Audit& a : audits) {
    std::vector<double> in, outs;
    for (std::size_t k = 0; k < a.scores.size(); ++k) (k % 2 ? in : outs).push_back(a.scores[k]);
    const MeanSd w = mean_sd(in), wo = mean_sd(outs);
    out.stream() << a.round << ',' << n << ',' << a.canary.label << ',' << format_number(a.canary.health) << ','
                 << format_number(a.canary.initial_loss) << ',' << format_number(a.canary.final_loss) << ','
                 << format_number(a.canary.gradient_norm) << ',' << format_number(w.mean) << ','
                 << format_number(w.sd) << ',' << format_number(wo.mean) << ',' << format_number(wo.sd) << ','
                 << format_number(a.eps.epsilon) << ',' << format_number(a.eps.epsilon_lower) << ','
                 << format_number(a.eps.epsilon_upper) << ',' << format_number(theory) << ','
                 << format_number(theory_1n) << ',' << format_number(a.test_accuracy) << ','
                 << format_number(a.design_seconds) << ',' << format_number(a.mock_seconds) << '\n';
  }
  out.commit();
}

}  // namespace

Json run_canife(const CanifeConfig& c) {
  c.validate();
  at::set_num_threads(1);
  const auto start = std::chrono::steady_clock::now();
  StagingDir staging(c.out, c.force);
  const TrainTest data = load_task(c.task, c.data_dir, c.seed);
  if (c.design_pool > data.test.size())
    throw UsageError("the design pool " + std::to_string(c.design_pool) + " exceeds the " +
                         std::to_string(data.test.size()) + " test examples",
                     "--design-pool");
  const ModelConfig mc = model_config(c.model, data.train, c.hidden);
  std::vector<float> theta;
  const auto model = PerExampleModel::make(mc, c.seed, theta);
  const std::int64_t inputs = static_cast<std::int64_t>(data.train.example_size());
  std::vector<std::int64_t> widths{inputs};
  if (mc.kind == ModelKind::mlp) widths.push_back(c.hidden);
  widths.push_back(mc.classes);

  const std::size_t rounds = c.total_rounds();
  const auto steps = static_cast<long long>(rounds);
  const double sigma = c.eps > 0 ? rdp_sigma_for_epsilon(c.eps, c.q, steps, c.delta) : c.noise_multiplier;
  SgdConfig training;
  training.train_size = data.train.size();
  training.q = c.q;
  training.steps = rounds;
  training.lr = c.lr;
  training.clip = c.clip;
  training.seed = c.seed;

  // Train, auditing the frozen model before the rounds 0, S, 2S, ...
  Auditor auditor(c, data, *model, widths, sigma);
  std::vector<Audit> audits;
  const std::size_t planned = (rounds + c.audit_every - 1) / c.audit_every;
  cli::Progress progress("dp-train canife", planned, c.quiet);
  DpSgdTrainer trainer(training, data.train, *model, sigma);
  PhiloxStream rng(c.seed, kCanifeTrainStream);
  trainer.train(theta, rng, nullptr, [&](std::size_t t, const float*) {
    if (t % c.audit_every) return;
    audits.push_back(auditor.audit(t, theta));
    progress.update(audits.size());
  });

  // Outputs: the scores, the audits, the crafted inputs and run.json.
  const std::size_t n = c.audit_rounds;
  {
    AtomicOutput out(staging.path("scores.csv"));
    out.stream() << "round,trial,label,score\n";
    for (const Audit& a : audits)
      for (std::size_t k = 0; k < a.scores.size(); ++k)
        out.stream() << a.round << ',' << k << ',' << k % 2 << ',' << format_number(a.scores[k]) << '\n';
    out.commit();
  }
  write_audits_csv(staging.path("audits.csv"), audits, n, sigma, c.delta);
  std::vector<double> crafted;
  for (const Audit& a : audits) crafted.insert(crafted.end(), a.canary.x.begin(), a.canary.x.end());
  save_npy(staging.path("canaries.npy"), crafted.data(), {audits.size(), data.train.example_size()}, NpyDtype::f4);

  Json run;
  run["config"] = c.to_json();
  run["noise_multiplier"] = json_number(sigma);
  run["parameters"] = theta.size();
  run["analytic"] = {
      {"eps_rdp_run", json_number(rdp_epsilon({{sigma, c.q, steps}}, c.delta).epsilon)},
      {"eps_one_round_rdp", json_number(rdp_epsilon({{sigma, 1.0, 1}}, c.delta).epsilon)},
      {"eps_one_round_gaussian", json_number(gaussian_mechanism_epsilon(sigma, c.delta))},
      {"assumes", "Poisson lots at rate q over the training set, add/remove-one adjacency; one_round: a single "
                  "round of the Gaussian mechanism without amplification (003 Sec. 5.4 quotes it)"}};
  std::vector<AuditEpsilon> estimates;
  for (const Audit& a : audits) estimates.push_back({static_cast<long long>(a.round), a.eps.epsilon});
  EmpiricalCompositionOptions o;
  o.q = c.q;
  o.total_rounds = steps;
  o.round_delta = 1.0 / double(n);
  o.delta = c.delta;
  o.sigma_if_inf = sigma;
  auto composed = [&](const std::vector<AuditEpsilon>& e, AuditCover cover) {
    o.cover = cover;
    const EmpiricalComposition r = compose_empirical(e, o);
    Json j = {{"eps_hat", json_number(r.epsilon)}, {"sigma_r", r.sigma}, {"rounds_covered", r.covered}};
    j["running_eps_hat"] = Json::array();
    for (double v : r.running_eps) j["running_eps_hat"].push_back(json_number(v));
    return j;
  };
  run["empirical_backward"] = composed(estimates, AuditCover::backward);
  run["empirical_forward"] = composed(estimates, AuditCover::forward);
  // 000's rule sends a separated audit (eps_r = inf) to the run's own sigma. Beside it,
  // the same composition with inf read as the largest finite eps_r the n scores can show
  // (one error on each side, 3.88 at n = 100; 0 when n is too small for any): an
  // estimate of what a perfect audit at least shows, comparable with 000's and 003's.
  std::vector<AuditEpsilon> capped = estimates;
  const double n_in = double(n / 2), n_out = double(n - n / 2);
  const double cap = epsilon_from_rates(1 / n_out, 1 / n_in, 1.0 / double(n));
  for (AuditEpsilon& e : capped)
    if (std::isinf(e.epsilon)) e.epsilon = cap;
  run["eps_hat_inf_capped"] = composed(capped, AuditCover::backward)["eps_hat"];
  run["eps_hat"] = run["empirical_backward"]["eps_hat"];
  Json per_audit = Json::array();
  for (const Audit& a : audits)
    per_audit.push_back({{"round", a.round}, {"eps_r", json_number(a.eps.epsilon)}, {"health", a.canary.health}});
  run["audits"] = per_audit;
  run["test_accuracy"] = test_accuracy(*model, theta, data.test);
  run["seconds"] = seconds_since(start);
  run["peak_memory_mb"] = peak_memory_mb();
  write_whole(staging.path("run.json"), run.dump(2) + "\n");
  staging.commit();
  return run;
}

}  // namespace dpaudit::dp_train
