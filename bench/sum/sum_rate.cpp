// Micro-benchmark of dp-train sum's work: CPU nanoseconds per canary coordinate of
// gaussian_sum_release (mechanisms/gaussian_sum.hpp), k sphere canaries of dimension d, one
// thread, best of `reps` rounds, on each of its paths (one pass, the terms kept, and two
// passes; GaussianSumConfig::kept_term_bytes forces them), which must give the same bits.
// Usage: sum_rate DIM CANARIES REPS (bench/sum/run.sh builds and runs it).
//
// Built with -DBASELINE and linked with an earlier version's gaussian_sum.cpp (compiled with
// its own header and -Dgaussian_sum_release=baseline_gaussian_sum_release
// -DFixedPointSum=BaselineFixedPointSum), it times that version too, in the same rounds, and
// stops if the two releases differ in any bit.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <limits>
#include <vector>

#include "canary/canary_set.hpp"
#include "core/cpu_time.hpp"
#include "mechanisms/gaussian_sum.hpp"

#ifdef BASELINE
namespace dpaudit {
std::vector<double> baseline_gaussian_sum_release(const GaussianSumConfig& config,
                                                  const CanarySet* canaries,
                                                  const ClientRows* given,
                                                  const std::function<void(std::size_t)>& progress);
}  // namespace dpaudit
#endif

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: sum_rate DIM CANARIES REPS\n");
    return 2;
  }
  const std::size_t d = std::strtoull(argv[1], nullptr, 10),
                    k = std::strtoull(argv[2], nullptr, 10);
  const int reps = std::atoi(argv[3]);
  dpaudit::CanarySpec spec;
  spec.seed = 7;
  spec.count = k;
  spec.dim = d;
  const dpaudit::CanarySet set = dpaudit::CanarySet::from_spec(spec);
  dpaudit::GaussianSumConfig config;
  config.dim = d;
  config.noise = 0.541;
  config.seed = 1;
  config.threads = 1;
  const double per = 1e9 / (static_cast<double>(d) * static_cast<double>(k));
  // Whether the default takes one pass: a term of d doubles fits in the budget.
  const bool one_by_default = d <= config.kept_term_bytes / sizeof(double);
  double best_one = 1e9, best_two = 1e9, best_baseline = 1e9;
  for (int r = 0; r < reps; ++r) {
    config.kept_term_bytes = std::numeric_limits<std::size_t>::max();
    double t0 = dpaudit::process_cpu_seconds();
    const std::vector<double> one = dpaudit::gaussian_sum_release(config, &set);
    best_one = std::min(best_one, (dpaudit::process_cpu_seconds() - t0) * per);
    config.kept_term_bytes = 0;
    t0 = dpaudit::process_cpu_seconds();
    const std::vector<double> two = dpaudit::gaussian_sum_release(config, &set);
    best_two = std::min(best_two, (dpaudit::process_cpu_seconds() - t0) * per);
    if (one != two) {
      std::fprintf(stderr, "sum_rate: the two paths' releases differ\n");
      return 1;
    }
#ifdef BASELINE
    t0 = dpaudit::process_cpu_seconds();
    const std::vector<double> before =
        dpaudit::baseline_gaussian_sum_release(config, &set, nullptr, {});
    best_baseline = std::min(best_baseline, (dpaudit::process_cpu_seconds() - t0) * per);
    if (before != one) {
      std::fprintf(stderr, "sum_rate: the baseline's release differs\n");
      return 1;
    }
#endif
  }
  std::printf("d %zu, k %zu: one pass %.3f, two passes %.3f ns per canary coordinate (default: %s)",
              d, k, best_one, best_two, one_by_default ? "one pass" : "two passes");
  if (best_baseline < 1e9) std::printf(" (baseline %.3f)", best_baseline);
  std::printf(", best of %d\n", reps);
  return 0;
}
