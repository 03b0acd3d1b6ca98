#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "stats/one_run.hpp"

using namespace dpaudit;

namespace {

double logit(double p) { return std::log(p / (1 - p)); }

// P[Binomial(r, q) >= v] by summing the pmf term by term (independent of Boost's ibeta).
double binomial_upper_tail(int r, int v, double q) {
  double sum = 0;
  for (int k = v; k <= r; ++k)
    sum += std::exp(std::lgamma(r + 1.0) - std::lgamma(k + 1.0) - std::lgamma(r - k + 1.0) + k * std::log(q) +
                    (r - k) * std::log1p(-q));
  return sum;
}

double logistic(double eps) { return 1 / (1 + std::exp(-eps)); }

}  // namespace

TEST_CASE("delta 0, all guesses correct: the closed form logit(alpha^(1/r))") {
  // P[Binomial(r, q) >= r] = q^r = alpha at the bound.
  for (std::size_t r : {10, 50, 1000}) {
    const double want = logit(std::pow(0.05, 1.0 / double(r)));
    CHECK(one_run_epsilon(2 * r, r, r, 0, 0.05) == doctest::Approx(want).epsilon(1e-11));
  }
  // Below 1/2 the claim eps = 0 is not rejected: one correct guess of one (q^1 = 0.05).
  CHECK(one_run_epsilon(2, 1, 1, 0, 0.05) == 0);
  // m = 1000 canaries, 10 of 10 correct: jax_privacy's row 1.0518732154273494
  // (../shared/reference/jax_privacy_auditing.csv; its brentq stops at 1e-6).
  CHECK(std::abs(one_run_epsilon(1000, 10, 10, 0, 0.05) - 1.0518732154273494) < 1e-6);
}

TEST_CASE("delta 0: the bound is where P[Binomial(r, e^eps/(1+e^eps)) >= v] = alpha") {
  struct Case { int r, v; double alpha; };
  for (const Case c : {Case{100, 98, 0.05}, Case{250, 237, 0.05}, Case{2500, 1971, 0.05}, Case{400, 300, 1e-6}}) {
    const double eps = one_run_epsilon(10000, c.r, c.v, 0, c.alpha);
    REQUIRE(eps > 0);
    CHECK(binomial_upper_tail(c.r, c.v, logistic(eps)) == doctest::Approx(c.alpha).epsilon(1e-8));
    CHECK(one_run_p_value(10000, c.r, c.v, eps, 0) <= c.alpha);  // the safe side of the root
  }
}

TEST_CASE("golden: jax_privacy's _epsilon_one_run at explicit guess counts") {
  // ../shared/reference/jax_privacy_auditing.csv, rows with guesses = top (computed by the
  // CEO with jax_privacy's auditing code, alpha 0.05); (m, r, v) are the canaries, the
  // k top scores and the label-1 scores among them in ../shared/reference/scores/<file>.
  // jax_privacy's brentq stops at 1e-6 absolute, so agreement is to 1e-6.
  struct Golden { const char* file; std::size_t m, r, v; double delta, eps; };
  const std::vector<Golden> golden{
      {"onerun_0", 1000, 10, 10, 1e-5, 1.0149862038481974},  {"onerun_0", 1000, 50, 50, 1e-5, 2.7562194720722912},
      {"onerun_0", 1000, 100, 98, 1e-5, 2.7109631340457816}, {"onerun_0", 1000, 250, 237, 1e-5, 2.4199808616030727},
      {"onerun_0", 1000, 10, 10, 0, 1.0518732154273494},     {"onerun_0", 1000, 100, 98, 0, 2.7231823711894236},
      {"onerun_0", 1000, 250, 237, 0, 2.4234220068369914},   {"onerun_1", 1000, 100, 100, 1e-5, 3.465376229385333},
      {"onerun_1", 1000, 250, 250, 1e-5, 4.391223793667449}, {"onerun_1", 1000, 250, 250, 0, 4.4182747700170335},
      {"onerun_2", 10000, 10, 8, 1e-5, 0},                   {"onerun_2", 10000, 50, 47, 1e-5, 1.634245429631741},
      {"onerun_2", 10000, 100, 90, 1e-5, 1.5805597458013363}, {"onerun_2", 10000, 2500, 1971, 1e-5, 1.2326123694293842},
      {"onerun_2", 10000, 2500, 1971, 0, 1.2339899437958672}, {"onerun_3", 10000, 10, 10, 1e-5, 0.6137932929134875},
      {"onerun_3", 10000, 2500, 2490, 1e-5, 4.946136357675965}, {"onerun_3", 10000, 2500, 2490, 0, 4.987652252023381},
      {"onerun_4", 200, 10, 10, 1e-5, 1.0445890582363753},   {"onerun_4", 200, 100, 100, 1e-5, 3.487464024328827},
  };
  for (const Golden& g : golden) {
    CAPTURE(g.file);
    CAPTURE(g.r);
    CAPTURE(g.delta);
    CHECK(std::abs(one_run_epsilon(g.m, g.r, g.v, g.delta, 0.05) - g.eps) <= 1e-6);
  }
}

TEST_CASE("the delta term: 2 m delta times the largest mean of the pmf just below v") {
  // r = v = 10, m = 1000, delta 1e-5, eps = 1: W ~ Bin(10, q); the running means of
  // P[W = 9], P[W = 8], ... peak where the next term falls below the mean; brute force:
  const double q = logistic(1.0);
  double best = 0, sum = 0;
  for (int i = 1; i <= 10; ++i) {
    sum += binomial_upper_tail(10, 10 - i, q) - binomial_upper_tail(10, 11 - i, q);
    best = std::max(best, sum / i);
  }
  const double want = binomial_upper_tail(10, 10, q) + 2 * 1000 * 1e-5 * best;
  CHECK(one_run_p_value(1000, 10, 10, 1.0, 1e-5) == doctest::Approx(want).epsilon(1e-12));
  // It only adds: p grows with delta, so the bound shrinks.
  CHECK(one_run_epsilon(1000, 10, 10, 1e-5, 0.05) < one_run_epsilon(1000, 10, 10, 0, 0.05));
  // Capped at 1.
  CHECK(one_run_p_value(1000, 10, 10, 1.0, 0.5) == 1.0);
}

TEST_CASE("no evidence: no guesses, or no better than chance, gives 0") {
  CHECK(one_run_epsilon(100, 0, 0, 1e-5, 0.05) == 0);
  CHECK(one_run_epsilon(100, 50, 25, 1e-5, 0.05) == 0);
  CHECK(one_run_p_value(100, 10, 0, 3.0, 0) == 1.0);
}

TEST_CASE("fixed guesses on scores: top k+ in, bottom k- out") {
  // in: 1 2 5 6 ; out: 0 3 4 7 -> sorted all: 0o 1i 2i 3o 4o 5i 6i 7o
  const ScoreSet s({1, 2, 5, 6}, {0, 3, 4, 7});
  const OneRunEstimate top3 = one_run_fixed(s, 3, 0, 0, 0.05);  // 7o 6i 5i
  CHECK(top3.canaries == 8);
  CHECK(top3.correct == 2);
  CHECK(*top3.threshold_in == 5);
  CHECK_FALSE(top3.threshold_out);
  const OneRunEstimate both = one_run_fixed(s, 2, 2, 0, 0.05);  // in: 7o 6i; out: 0o 1i
  CHECK(both.correct == 2);
  CHECK(*both.threshold_out == 1);
  CHECK(both.epsilon == one_run_epsilon(8, 4, 2, 0, 0.05));
  // 10 of 10 correct with k+ = k- = 5 on separated scores: the closed form at r = 10.
  const ScoreSet sep({11, 12, 13, 14, 15, 16}, {1, 2, 3, 4, 5, 6});
  CHECK(one_run_fixed(sep, 5, 5, 0, 0.05).epsilon == doctest::Approx(logit(std::pow(0.05, 0.1))).epsilon(1e-11));
  CHECK_THROWS_AS(one_run_fixed(s, 5, 4, 0, 0.05), UsageError);
  CHECK_THROWS_AS(one_run_fixed(s, 0, 0, 0, 0.05), UsageError);
  const ScoreSet tied({1, 2, 2}, {0, 3});  // sorted 0 1 2 2 3: the top 2 end inside the tie at 2
  CHECK_THROWS_AS(one_run_fixed(tied, 2, 0, 0, 0.05), DataError);
  CHECK_NOTHROW(one_run_fixed(tied, 3, 0, 0, 0.05));
}

TEST_CASE("searched guesses: the best count, each at alpha / counts") {
  // 20 separated in scores above 20 out scores: the best count is the top 20, all correct.
  std::vector<double> in, out;
  for (int i = 0; i < 20; ++i) {
    in.push_back(100 + i);
    out.push_back(i);
  }
  const ScoreSet s(in, out);
  CHECK(one_run_search_counts(s) == 40);
  const OneRunEstimate e = one_run_search(s, 0, 0.05 / 40);
  CHECK(e.guesses_in == 20);
  CHECK(e.correct == 20);
  CHECK(*e.threshold_in == 100);
  CHECK(e.counts_tried == 40);
  CHECK(e.epsilon == doctest::Approx(logit(std::pow(0.05 / 40, 1.0 / 20))).epsilon(1e-11));
}

TEST_CASE("bad arguments") {
  CHECK_THROWS_AS(one_run_epsilon(10, 11, 5, 0, 0.05), UsageError);
  CHECK_THROWS_AS(one_run_epsilon(10, 5, 6, 0, 0.05), UsageError);
  CHECK_THROWS_AS(one_run_epsilon(10, 5, 5, 1, 0.05), UsageError);
  CHECK_THROWS_AS(one_run_epsilon(10, 5, 5, 0, 0), UsageError);
  CHECK_THROWS_AS(one_run_epsilon(10, 5, 5, NAN, 0.05), UsageError);
  CHECK_THROWS_AS(one_run_p_value(10, 5, 5, NAN, 0), UsageError);
  CHECK_THROWS_AS(one_run_p_value(10, 5, 5, INFINITY, 0), UsageError);
}
