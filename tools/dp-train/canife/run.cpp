#include "canife/run.hpp"

#include <ATen/Parallel.h>

#include "calibration.hpp"
#include "canife/output.hpp"
#include "cli/progress.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "data/datasets.hpp"
#include "io/atomic_output.hpp"
#include "io/staging_dir.hpp"
#include "ranks.hpp"
#include "train/launch_env.hpp"

namespace dpaudit::dp_train {

namespace {

// z: given, or the smallest meeting (--eps, --delta) for the whole run by the accountant.
double noise_of(const CanifeConfig& c, const AccountantOptions& accounting) {
  const double sigma =
      c.eps > 0 ? sigma_for_eps([&] { return canife_noise_multiplier(c, c.eps, accounting); })
                : c.noise_multiplier;
  if (!(sigma * c.clip < 1e30))  // the noise is drawn in single precision
    throw DataError("the noise's standard deviation z C = " + format_number(sigma * c.clip) +
                        " overflows single precision: " +
                        (c.eps > 0 ? "raise --eps" : "lower --noise-multiplier"),
                    c.eps > 0 ? "--eps" : "--noise-multiplier");
  return sigma;
}

void write_timings(AtomicOutput& timings, const CanifeConfig& c, const std::vector<Audit>& audits,
                   std::chrono::steady_clock::time_point start) {
  Json per_audit = Json::array();
  for (const Audit& a : audits)
    per_audit.push_back({{"round", a.round},
                         {"design_seconds", a.design_seconds},
                         {"mock_seconds", a.mock_seconds}});
  timings.stream() << Json{{"seconds", seconds_since(start)},
                           {"peak_memory_mb", peak_memory_mb()},
                           {"audits", per_audit},
                           {"threads", c.threads}}
                          .dump(2)
                   << '\n';
  timings.commit();
}

}  // namespace

std::optional<Json> run_canife(const CanifeConfig& config) {
  config.validate();
  at::set_num_threads(1);
  const auto start = std::chrono::steady_clock::now();
  const std::optional<LaunchEnv> env = launch_env_from_process();
  if (env && env->world > 1 && config.level == CanifeLevel::sample)
    throw UsageError("the sample level runs in one process (the environment names a rank)",
                     "--level sample");
  const bool writes = !env || env->rank == 0;  // only rank 0 writes
  CanifeConfig c = config;
  if (!writes) c.quiet = true;
  std::optional<StagingDir> staging;  // a non-empty --out is refused before any work
  if (writes) staging.emplace(c.out, c.force);
  const std::unique_ptr<AtomicOutput> timings = writes ? open_timings(c.timings) : nullptr;
  const std::unique_ptr<RankGroup> ranks = join_ranks(env, c.ranks);
  const TrainTest data = load_task(c.task, c.data_dir, c.seed);
  if (c.design_pool > data.test.size())
    throw UsageError("the design pool " + std::to_string(c.design_pool) + " exceeds the " +
                         std::to_string(data.test.size()) + " test examples",
                     "--design-pool");
  AccountantOptions accounting;
  accounting.accountant = c.accountant;
  const double sigma = noise_of(c, accounting);
  const CanifeAnalytic analytic = canife_analytic(c, sigma, accounting);

  cli::Progress progress("dp-train canife", c.planned_audits(), c.quiet);
  const CanifeRun level = play_canife(
      c, data, sigma, [&](std::size_t done) { progress.update(done); }, ranks.get());
  if (!writes) return std::nullopt;

  // Outputs: the scores, the audits, the crafted inputs, the metrics and run.json.
  staging->write(
      [&] { write_audit_files(*staging, level, c, analytic, data.train.example_size()); });
  Json run = level.extra.is_null() ? Json::object() : level.extra;
  run["config"] = c.to_json();
  run["noise_multiplier"] = json_number(sigma);
  run["parameters"] = level.parameters;
  add_estimates(run, level.audits, c, sigma, analytic);
  run["test_accuracy"] = level.test_accuracy;
  staging->write([&] { write_whole(staging->path("run.json"), run.dump(2) + "\n"); });
  if (timings) write_timings(*timings, c, level.audits, start);
  staging->commit();
  return run;
}

}  // namespace dpaudit::dp_train
