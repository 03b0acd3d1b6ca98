// bench/eps_from_scores/bootstrap.cpp: the bootstrap intervals of gauss-fit's eps_est,
// timed: the BCa interval (lib's bootstrap_epsilon and bca_interval, what eps-from-scores
// --bootstrap ran for gauss-fit before bench/bootstrap_coverage.md and still runs for
// threshold) and the fit-region interval (gauss_fit_interval, what it runs for gauss-fit
// now). Built and run by bootstrap.sh.
// usage: bootstrap SCORES.csv B THREADS GROUPS DELTA
// Prints: n_in n_out estimate lower upper z0 a, the wall and CPU seconds (all threads)
// of the BCa bootstrap + interval (reading excluded), the microseconds of one statistic
// call on the full scores, the quantile levels q' the two BCa endpoints read; then the
// fit-region interval's lower, upper, wall and CPU seconds.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include <fmt/format.h>

#include "io/scores_reader.hpp"
#include "stats/bootstrap.hpp"
#include "stats/epsilon_estimators.hpp"
#include "stats/gauss_fit_interval.hpp"

using namespace dpaudit;

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: bootstrap SCORES.csv B THREADS GROUPS DELTA\n");
    return 2;
  }
  const ScoreSet scores(read_scores_csv(argv[1], {}));
  EstimatorOptions e;
  e.method = Method::gauss_fit;
  e.delta = std::atof(argv[5]);
  BootstrapOptions o;
  o.replicates = std::strtoul(argv[2], nullptr, 10);
  o.threads = std::atoi(argv[3]);
  o.jackknife_groups = std::strtoul(argv[4], nullptr, 10);
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  for (int i = 0; i < 20; ++i) estimate_epsilon(scores, e);
  const auto t1 = clock::now();
  const std::clock_t c1 = std::clock();
  const BootstrapDistribution d = bootstrap_epsilon(scores, e, o);
  const BcaInterval ci = bca_interval(d, 0.05);
  const auto t2 = clock::now();
  const double cpu = static_cast<double>(std::clock() - c1) / CLOCKS_PER_SEC;
  const std::clock_t c2 = std::clock();
  const GaussFitInterval g = gauss_fit_interval(scores, e, o);
  const auto t3 = clock::now();
  const double region_cpu = static_cast<double>(std::clock() - c2) / CLOCKS_PER_SEC;
  fmt::print("{} {} {} {} {} {} {} {:.3f} {:.3f} {:.0f} {:.2g} {:.3f} {} {} {:.3f} {:.3f}\n",
             scores.in().size(), scores.out().size(), d.estimate, ci.lower.value, ci.upper.value,
             d.z0, d.acceleration, std::chrono::duration<double>(t2 - t1).count(), cpu,
             std::chrono::duration<double>(t1 - t0).count() / 20 * 1e6, ci.lower.level,
             ci.upper.level, g.lower, g.upper, std::chrono::duration<double>(t3 - t2).count(),
             region_cpu);
}
