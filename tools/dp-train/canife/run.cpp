#include "canife/run.hpp"

#include <ATen/Parallel.h>

#include "accounting/rdp.hpp"
#include "canife/levels.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "data/datasets.hpp"
#include "io/atomic_output.hpp"
#include "io/staging_dir.hpp"
#include "sgd/accounting.hpp"

namespace dpaudit::dp_train {

Json run_canife(const CanifeConfig& c) {
  c.validate();
  at::set_num_threads(1);
  const auto start = std::chrono::steady_clock::now();
  StagingDir staging(c.out, c.force);
  const std::unique_ptr<AtomicOutput> timings = open_timings(c.timings);
  const TrainTest data = load_task(c.task, c.data_dir, c.seed);
  if (c.design_pool > data.test.size())
    throw UsageError("the design pool " + std::to_string(c.design_pool) + " exceeds the " +
                         std::to_string(data.test.size()) + " test examples",
                     "--design-pool");
  const auto steps = static_cast<long long>(c.total_rounds());
  const double sigma =
      c.eps > 0 ? sigma_for_eps([&] { return rdp_sigma_for_epsilon(c.eps, c.q, steps, c.delta); })
                : c.noise_multiplier;
  if (!(sigma * c.clip < 1e30))  // the noise is drawn in single precision
    throw DataError("the noise's standard deviation z C = " + format_number(sigma * c.clip) +
                        " overflows single precision: " +
                        (c.eps > 0 ? "raise --eps" : "lower --noise-multiplier"),
                    c.eps > 0 ? "--eps" : "--noise-multiplier");

  const std::size_t planned = (c.total_rounds() + c.audit_every - 1) / c.audit_every;
  cli::Progress progress("dp-train canife", planned, c.quiet);
  const LevelRun level = c.level == CanifeLevel::sample ? run_sample_level(c, data, sigma, progress)
                                                        : run_user_level(c, data, sigma, progress);

  // Outputs: the scores, the audits, the crafted inputs and run.json.
  staging.write([&] {
    write_audit_files(staging, level.audits, c, sigma, data.train.example_size());
    write_metrics_csv(staging.path("metrics.csv"), level.metrics);
  });
  Json run = level.extra.is_null() ? Json::object() : level.extra;
  run["config"] = c.to_json();
  run["noise_multiplier"] = json_number(sigma);
  run["parameters"] = level.parameters;
  add_estimates(run, level.audits, c, sigma);
  run["test_accuracy"] = level.test_accuracy;
  staging.write([&] { write_whole(staging.path("run.json"), run.dump(2) + "\n"); });
  if (timings) {
    Json audits = Json::array();
    for (const Audit& a : level.audits)
      audits.push_back({{"round", a.round},
                        {"design_seconds", a.design_seconds},
                        {"mock_seconds", a.mock_seconds}});
    timings->stream() << Json{{"seconds", seconds_since(start)},
                              {"peak_memory_mb", peak_memory_mb()},
                              {"audits", audits},
                              {"threads", c.threads}}
                             .dump(2)
                      << '\n';
    timings->commit();
  }
  staging.commit();
  return run;
}

}  // namespace dpaudit::dp_train
