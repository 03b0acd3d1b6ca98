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
// end, where p <= alpha was checked (the safe side).
#pragma once
#include <cstddef>
#include <optional>

#include "stats/scores.hpp"

namespace dpaudit {

// p(eps, delta) above. Throws UsageError unless v <= r <= m, eps >= 0 (finite) and
// 0 <= delta < 1.
double one_run_p_value(std::size_t m, std::size_t r, std::size_t v, double eps, double delta);

// The largest eps whose (eps, delta) claim the outcome (r guesses, v correct, among m
// canaries) rejects at level alpha; 0 when none is (r = 0 included). Throws
// UsageError unless v <= r <= m, 0 <= delta < 1 and 0 < alpha < 1.
double one_run_epsilon(std::size_t m, std::size_t r, std::size_t v, double delta, double alpha);

struct OneRunEstimate {
  double epsilon = 0;
  std::size_t canaries = 0;      // m: all scores, in and out
  std::size_t guesses_in = 0;    // k+ of the reported guesses
  std::size_t guesses_out = 0;   // k-
  std::size_t correct = 0;       // v
  std::optional<double> threshold_in;   // guesses "in" are the scores >= this (k+ > 0)
  std::optional<double> threshold_out;  // guesses "out" are the scores <= this (k- > 0)
  std::size_t counts_tried = 1;  // guess counts the maximum ran over
  double alpha_per_count = 0;    // the level each count was tested at
};

// Fixed guesses: "in" for the k_in highest scores, "out" for the k_out lowest.
// UsageError when k_in + k_out exceeds the scores or is 0; DataError when a cut
// falls inside tied scores (which of them to guess would be arbitrary, and a rule
// that broke ties by row order could see the labels).
OneRunEstimate one_run_fixed(const ScoreSet& scores, std::size_t k_in, std::size_t k_out, double delta,
                             double alpha);

// Searched guesses: "in" for the scores >= t, for every distinct score t (k- = 0, as
// jax_privacy), each count tested at level alpha_per_count; the best count is reported.
// Valid at level alpha overall with alpha_per_count = alpha / (number of distinct
// scores) (Bonferroni); with alpha_per_count = alpha it is the uncorrected maximum.
OneRunEstimate one_run_search(const ScoreSet& scores, double delta, double alpha_per_count);

// The number of guess counts one_run_search tries: the distinct scores.
std::size_t one_run_search_counts(const ScoreSet& scores);

}  // namespace dpaudit
