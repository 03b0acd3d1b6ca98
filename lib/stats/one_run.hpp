// Privacy auditing with one training run (Steinke, Nasr & Jagielski 2023, "Privacy
// auditing with one (1) training run", NeurIPS; arXiv 2305.08846).
//
// The game: m canaries, each included in training independently with probability 1/2
// (label 1 = included). The auditor guesses "in" for its top k+ scores and "out" for
// its bottom k- and abstains on the rest: r = k+ + k- guesses, v of them correct.
// Under an (eps, delta)-DP claim, their Thm 5.2 / Prop. 5.7 bound the chance of v or
// more correct guesses by
//   p(eps, delta) = min(1, beta + 2 m delta * max_{i=1..v} (P[v-i <= W < v]) / i),
//   beta          = P[W >= v],    W ~ Binomial(r, q),  q = e^eps / (1 + e^eps),
// (delta = 0: just beta, their Thm 3.1). An outcome with p(eps, delta) <= alpha
// rejects the claim at level alpha, so the audit's epsilon lower bound is the largest
// eps with p(eps, delta) <= alpha (0 when even eps = 0 is not rejected).
// The same bound as jax_privacy's auditing module (_epsilon_one_run), whose root
// finder stops at 1e-6 absolute; ours bisects to 1e-12 relative and returns the lower
// end, where p <= alpha was checked (the safe side). The one-run f-DP test of
// Mahloujifar et al. 2025 (one_run_fdp.hpp) plays the same game with another test.
//
// Which guesses (the strategies of threshold_strategy.hpp):
//   bonferroni  top-k for k on the grid 10, 20, 50, 100, 200, 500, ... up to m/2 (just
//               floor(m/2) below m = 20), fixed before the data: each count at alpha / (grid
//               size). Counting every distinct score instead would pay alpha / m, and
//               the delta term 2 m delta does not shrink with alpha, so at m = 1000,
//               delta = 1e-5 nothing is rejected (the old default printed 0).
//   max         "in" for the scores >= t, best over every distinct score t, each at alpha:
//               over-states the confidence.
//   split       the best t on a label-blind random half (max), tested on the other half.
//   multi_split the median over seeded splits, each at alpha / 2.
//   fixed       "in" for the scores >= a given threshold, at alpha.
// A grid cut of top-k inside tied scores moves to the nearer end of the tie (above it on
// equal distance, below it when nothing lies above): the guesses depend on the scores and k
// only, never on the labels, so each count's test keeps its level.
#pragma once
#include <cstddef>
#include <optional>
#include <vector>

#include "stats/guarantee.hpp"
#include "stats/one_run_fdp.hpp"
#include "stats/scores.hpp"
#include "stats/threshold_strategy.hpp"

namespace dpaudit {

// p(eps, delta) above. Throws UsageError unless v <= r <= m, eps >= 0 (finite) and
// 0 <= delta < 1.
double one_run_p_value(std::size_t m, std::size_t r, std::size_t v, double eps, double delta);

// The largest eps whose (eps, delta) claim the outcome (r guesses, v correct, among m
// canaries) rejects at level alpha; 0 when none is (r = 0 included). Throws
// UsageError unless v <= r <= m, 0 <= delta < 1 and 0 < alpha < 1.
double one_run_epsilon(std::size_t m, std::size_t r, std::size_t v, double delta, double alpha);

// Which test turns an outcome into eps.
enum class OneRunTest {
  steinke,  // the binomial test above
  fdp,      // Mahloujifar, Melis & Chaudhuri 2025 against OneRunOptions::curve
};

struct OneRunOptions {
  OneRunTest test = OneRunTest::steinke;
  FdpCurve curve = FdpCurve::gaussian;  // fdp
  double delta = 0;                     // [0,1); (0,1) for fdp against the Gaussian curve
  double alpha = 0.05;
  ThresholdStrategy strategy;  // how the guesses are chosen (not uncorrected)
};

struct OneRunEstimate {
  double epsilon = 0;
  std::size_t canaries = 0;             // m: all scores, in and out (split: the held-out half)
  std::size_t guesses_in = 0;           // k+ of the reported guesses
  std::size_t guesses_out = 0;          // k-
  std::size_t correct = 0;              // v
  std::optional<double> threshold_in;   // guesses "in" are the scores >= this (k+ > 0)
  std::optional<double> threshold_out;  // guesses "out" are the scores <= this (k- > 0)
  std::size_t counts_tried = 1;         // guess counts the maximum ran over
  double alpha_per_count = 0;           // the level each count was tested at
  std::size_t splits = 0;               // multi_split: epsilon is the median over this many
                                        // splits; the guesses are those of the lower middle split
};

// The largest eps the outcome refutes at level alpha under options' test (options.alpha
// is not used: searches test each count at their own level); 0 when eps = 0 is not refuted.
double one_run_outcome_epsilon(const OneRunOptions& options, std::size_t m, std::size_t r,
                               std::size_t v, double alpha);

// What the one-run eps is (stats/guarantee.hpp): a lower bound, that assumes a Gaussian
// trade-off curve for one-run-fdp against the Gaussian curve (the claim tested is that
// curve, so refuting it says nothing of other mechanisms with the same (eps, delta));
// not a bound for --thresholds max.
Guarantee one_run_guarantee(const OneRunOptions& options);

// The Bonferroni grid of guess counts for m canaries (see the header).
std::vector<std::size_t> one_run_guess_grid(std::size_t m);

// DataError unless both labels occur and the split n_in : n_out is plausible under
// independent inclusion with probability 1/2: a two-sided exact binomial test,
// min(1, 2 P[Bin(m, 1/2) <= min(n_in, n_out)]), must exceed 1e-6 (at m = 1000 that
// allows 423 to 577 in; at 10^4, 4755 to 5245).
void check_one_run_labels(const ScoreSet& scores);

// Fixed guesses: "in" for the k_in highest scores, "out" for the k_out lowest.
// UsageError when k_in + k_out exceeds the scores or is 0; DataError when a cut
// falls inside tied scores (which of them to guess would be arbitrary, and a rule
// that broke ties by row order could see the labels).
OneRunEstimate one_run_fixed(const ScoreSet& scores, std::size_t k_in, std::size_t k_out,
                             const OneRunOptions& options);

// Guesses chosen by options.strategy (see the header). UsageError for uncorrected and
// for options out of range.
OneRunEstimate one_run_audit(const ScoreSet& scores, const OneRunOptions& options);

}  // namespace dpaudit
