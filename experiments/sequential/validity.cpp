// The validity table of experiments/sequential.md at the size, in process: RUNS
// seeded audits of TRIALS trials each, watched after every trial by the sequential bound
// (stats/sequential_audit.hpp), beside the fixed-N Clopper-Pearson bound re-run after every
// LOOK trials up to FIXED_MAX (stop at the first look above the truth). Calling the tools a
// million times would take days; the library calls are the tools' own (eps-from-scores
// --sequential and its default clopper-pearson with Bonferroni thresholds, or --decisions).
//
//   validity sgd RUNS TRIALS LOOK FIXED_MAX Z Q STEPS TRUTH   the simulated malicious-dataset
//       game of dp-train sgd (correct trainer: signal 1, noise z, Poisson rate q, T steps, llr
//       score; seeds 1..RUNS as dp-train's --seed), TRUTH its eps (an upper bound on it)
//   validity rr RUNS TRIALS LOOK FIXED_MAX EPS                randomized response at pure eps:
//       decisions with fair-coin labels, the guess right with probability e^eps / (1 + e^eps)
//
// Prints one line: runs, the runs whose sequential bound ever exceeded the truth, the runs
// whose re-run fixed-N bound did, and the CPU seconds. Two threads over the runs.
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "core/cpu_time.hpp"
#include "core/parallel.hpp"
#include "games/subsampled_gaussian_game.hpp"
#include "random/philox_stream.hpp"
#include "stats/epsilon_estimators.hpp"
#include "stats/scores.hpp"
#include "stats/sequential_audit.hpp"

using namespace dpaudit;

namespace {

struct Outcome {
  bool sequential_above = false;
  bool fixed_above = false;
};

SequentialOptions sequential_options(double delta) {
  SequentialOptions o;
  o.delta = delta;
  return o;
}

// One audit of the simulated DP-SGD game.
Outcome sgd_run(const SubsampledGaussianGame& game, std::size_t trials, std::size_t look,
                std::size_t fixed_max, double truth) {
  const double delta = 1e-5;
  const std::vector<double> scores = play_subsampled_gaussian_game(game, 0, trials, 1);
  SequentialAudit audit(SequentialInput::score_pairs, sequential_options(delta));
  EstimatorOptions fixed;
  fixed.delta = delta;
  Outcome o;
  std::vector<double> in, out;
  for (std::size_t t = 0; t < trials; ++t) {
    audit.add_pair(scores[2 * t + 1], scores[2 * t]);
    if (t + 1 > fixed_max || o.fixed_above) continue;
    in.push_back(scores[2 * t + 1]);
    out.push_back(scores[2 * t]);
    if ((t + 1) % look == 0)
      o.fixed_above = estimate_epsilon(ScoreSet(in, out), fixed).epsilon > truth;
  }
  o.sequential_above = audit.eps_lo() > truth;  // eps_lo only grows: above at the end = ever
  return o;
}

// One audit of randomized response at pure eps.
Outcome rr_run(std::uint64_t seed, double eps, std::size_t trials, std::size_t look,
               std::size_t fixed_max) {
  PhiloxStream rng(seed, 0x7272);  // "rr"
  const double keep = std::exp(eps) / (1 + std::exp(eps));
  SequentialAudit audit(SequentialInput::decisions, sequential_options(0));
  EstimatorOptions fixed;
  DecisionCounts counts;
  Outcome o;
  for (std::size_t t = 0; t < trials; ++t) {
    const bool label = rng.uniform() < 0.5;
    const bool guess = rng.uniform() < keep ? label : !label;
    audit.add_decision(label, guess);
    (label ? counts.n_in : counts.n_out) += 1;
    if (label && !guess) ++counts.false_negatives;
    if (!label && guess) ++counts.false_positives;
    if (t + 1 <= fixed_max && !o.fixed_above && (t + 1) % look == 0 && counts.n_in && counts.n_out)
      o.fixed_above = estimate_epsilon(counts, fixed).epsilon > eps;
  }
  o.sequential_above = audit.eps_lo() > eps;
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string game = argc > 1 ? argv[1] : "";
  if (!((game == "sgd" && argc == 10) || (game == "rr" && argc == 7))) {
    std::fprintf(stderr,
                 "usage: validity sgd RUNS TRIALS LOOK FIXED_MAX Z Q STEPS TRUTH\n"
                 "       validity rr RUNS TRIALS LOOK FIXED_MAX EPS\n");
    return 2;
  }
  const std::size_t runs = std::strtoull(argv[2], nullptr, 10);
  const std::size_t trials = std::strtoull(argv[3], nullptr, 10);
  const std::size_t look = std::strtoull(argv[4], nullptr, 10);
  const std::size_t fixed_max = std::strtoull(argv[5], nullptr, 10);
  std::vector<Outcome> outcomes(runs);
  parallel_blocks(runs, 2, [&](std::size_t begin, std::size_t end, std::size_t) {
    for (std::size_t r = begin; r < end; ++r) {
      const std::uint64_t seed = r + 1;
      if (game == "rr") {
        outcomes[r] = rr_run(seed, std::atof(argv[6]), trials, look, fixed_max);
        continue;
      }
      SubsampledGaussianGame g;
      g.noise_multiplier = std::atof(argv[6]);
      g.q = std::atof(argv[7]);
      g.steps = std::strtoull(argv[8], nullptr, 10);
      g.seed = seed;
      outcomes[r] = sgd_run(g, trials, look, fixed_max, std::atof(argv[9]));
    }
  });
  std::size_t sequential = 0, fixed = 0;
  for (const Outcome& o : outcomes) {
    sequential += o.sequential_above;
    fixed += o.fixed_above;
  }
  std::printf("%zu %zu %zu %.1f\n", runs, sequential, fixed, dpaudit::process_cpu_seconds());
  return 0;
}
