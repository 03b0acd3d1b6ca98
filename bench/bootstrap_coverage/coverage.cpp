// bench/bootstrap_coverage/coverage.cpp: the coverage of eps-from-scores --bootstrap's
// interval of gauss-fit's eps_est, by simulation. Run r of a cell draws n in scores ~
// N(mu, SD_IN^2) and n out scores ~ N(0, 1) (Philox streams 0 and 1 under seed
// 1000003 * cell + r, cell = 10 mu + log10 n + 100 SD_IN, rounded), and runs the library's two
// interval paths exactly as eps-from-scores does (delta 1e-5, alpha 0.05, B replicates, --seed r,
// default jackknife groups): `bca` (bootstrap_epsilon + bca_interval, the interval
// before bench/bootstrap_coverage.md) and `region` (gauss_fit_interval), on the same
// scores. The truth is the two-Gaussian eps of N(0,1) vs N(mu,SD_IN^2) at delta.
// usage: coverage METHOD MU N RUNS B [SD_IN]   (METHOD: bca, region or both; SD_IN 1)
// Prints per method one row: method mu sd_in n runs truth coverage lower_miss upper_miss
// mean(eps_est)/truth mean(replicate mean)/truth at_extreme cpu_s_per_run, where
// lower_miss = fraction with lower > truth, upper_miss = upper < truth, at_extreme =
// fraction with a BCa end at or between the two outermost replicates (0 for region)
// and the CPU seconds of one interval (one thread, reading excluded).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "accounting/two_gaussian.hpp"
#include "random/philox_stream.hpp"
#include "stats/bootstrap.hpp"
#include "stats/epsilon_estimators.hpp"
#include "stats/gauss_fit_interval.hpp"

using namespace dpaudit;

namespace {

struct Tally {
  std::size_t runs = 0, covered = 0, lower_miss = 0, upper_miss = 0, extreme = 0;
  double estimate = 0, replicate_mean = 0, cpu = 0;
  void add(double lower, double upper, double truth, double est, double rep_mean, bool at_extreme,
           double seconds) {
    ++runs;
    lower_miss += lower > truth;
    upper_miss += upper < truth;
    covered += lower <= truth && truth <= upper;
    extreme += at_extreme;
    estimate += est;
    replicate_mean += rep_mean;
    cpu += seconds;
  }
  void print(const char* method, double mu, double sd_in, std::size_t n, double truth) const {
    const double k = static_cast<double>(runs);
    fmt::print("{} {} {} {} {} {:.6f} {:.4f} {:.4f} {:.4f} {:.4f} {:.4f} {:.4f} {:.4f}\n", method,
               mu, sd_in, n, runs, truth, covered / k, lower_miss / k, upper_miss / k,
               estimate / k / truth, replicate_mean / k / truth, extreme / k, cpu / k);
  }
};

std::vector<double> normals(std::size_t n, double mean, double sd, std::uint64_t seed,
                            std::uint64_t stream) {
  std::vector<double> x(n);
  PhiloxStream(seed, stream).fill_normal(x.data(), n);
  for (double& v : x) v = mean + sd * v;
  return x;
}

double cpu_now() {
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6 && argc != 7) {
    std::fprintf(stderr, "usage: coverage bca|region|both MU N RUNS B [SD_IN]\n");
    return 2;
  }
  const std::string method = argv[1];
  const double mu = std::atof(argv[2]);
  const std::size_t n = std::strtoul(argv[3], nullptr, 10),
                    runs = std::strtoul(argv[4], nullptr, 10);
  EstimatorOptions e;
  e.method = Method::gauss_fit;
  e.delta = 1e-5;
  e.alpha = 0.05;
  const double sd_in = argc == 7 ? std::atof(argv[6]) : 1.0;
  const double truth = two_gaussian_epsilon({0, 1}, {mu, sd_in}, e.delta);
  const std::uint64_t cell = static_cast<std::uint64_t>(
      std::lround(10 * mu + std::log10(static_cast<double>(n)) + 100 * sd_in));
  Tally bca, region;
  for (std::size_t r = 0; r < runs; ++r) {
    const std::uint64_t seed = 1000003 * cell + r;
    const ScoreSet scores(normals(n, mu, sd_in, seed, 0), normals(n, 0, 1, seed, 1));
    BootstrapOptions o;
    o.replicates = std::strtoul(argv[5], nullptr, 10);
    o.seed = r;
    o.threads = 1;
    if (method == "bca" || method == "both") {
      const double t0 = cpu_now();
      const BootstrapDistribution d = bootstrap_epsilon(scores, e, o);
      const BcaInterval ci = bca_interval(d, e.alpha);
      const double t1 = cpu_now();
      double sum = 0;
      for (double x : d.replicates) sum += x;
      bca.add(ci.lower.value, ci.upper.value, truth, d.estimate,
              sum / static_cast<double>(d.replicates.size()),
              ci.lower.at_extreme || ci.upper.at_extreme, t1 - t0);
    }
    if (method == "region" || method == "both") {
      const double t0 = cpu_now();
      const GaussFitInterval g = gauss_fit_interval(scores, e, o);
      const double t1 = cpu_now();
      region.add(g.lower, g.upper, truth, g.estimate, g.replicate_mean, false, t1 - t0);
    }
  }
  if (bca.runs) bca.print("bca", mu, sd_in, n, truth);
  if (region.runs) region.print("region", mu, sd_in, n, truth);
}
