#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/error.hpp"
#include "stats/one_run.hpp"

using namespace dpaudit;

namespace {

double logit(double p) {
  return std::log(p / (1 - p));
}

// P[Binomial(r, q) >= v] by summing the pmf term by term (independent of Boost's ibeta).
double binomial_upper_tail(int r, int v, double q) {
  double sum = 0;
  for (int k = v; k <= r; ++k)
    sum += std::exp(std::lgamma(r + 1.0) - std::lgamma(k + 1.0) - std::lgamma(r - k + 1.0) +
                    k * std::log(q) + (r - k) * std::log1p(-q));
  return sum;
}

double logistic(double eps) {
  return 1 / (1 + std::exp(-eps));
}

OneRunOptions at(double delta, double alpha = 0.05,
                 ThresholdChoice choice = ThresholdChoice::bonferroni) {
  OneRunOptions o;
  o.delta = delta;
  o.alpha = alpha;
  o.strategy.choice = choice;
  return o;
}

// m canaries, each in with probability 1/2 (seeded), in scores ~ N(shift, 1), out ~ N(0, 1).
ScoreSet one_run_game(std::size_t m, double shift, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> z;
  std::vector<double> in, out;
  for (std::size_t i = 0; i < m; ++i) {
    if (rng() & 1)
      in.push_back(z(rng) + shift);
    else
      out.push_back(z(rng));
  }
  return ScoreSet(in, out);
}

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
  // (tests/golden/jax_privacy/jax_privacy_auditing.csv; its brentq stops at 1e-6).
  CHECK(std::abs(one_run_epsilon(1000, 10, 10, 0, 0.05) - 1.0518732154273494) < 1e-6);
}

TEST_CASE("delta 0: the bound is where P[Binomial(r, e^eps/(1+e^eps)) >= v] = alpha") {
  struct Case {
    int r, v;
    double alpha;
  };
  for (const Case c :
       {Case{100, 98, 0.05}, Case{250, 237, 0.05}, Case{2500, 1971, 0.05}, Case{400, 300, 1e-6}}) {
    const double eps = one_run_epsilon(10000, c.r, c.v, 0, c.alpha);
    REQUIRE(eps > 0);
    CHECK(binomial_upper_tail(c.r, c.v, logistic(eps)) == doctest::Approx(c.alpha).epsilon(1e-8));
    CHECK(one_run_p_value(10000, c.r, c.v, eps, 0) <= c.alpha);  // the safe side of the root
  }
}

TEST_CASE("golden: jax_privacy's _epsilon_one_run at explicit guess counts") {
  // tests/golden/jax_privacy/jax_privacy_auditing.csv, rows with guesses = top (computed by the
  // CEO with jax_privacy's auditing code, alpha 0.05); (m, r, v) are the canaries, the
  // k top scores and the label-1 scores among them in tests/golden/jax_privacy/<file>.
  // jax_privacy's brentq stops at 1e-6 absolute, so agreement is to 1e-6.
  struct Golden {
    const char* file;
    std::size_t m, r, v;
    double delta, eps;
  };
  const std::vector<Golden> golden{
      {"onerun_0", 1000, 10, 10, 1e-5, 1.0149862038481974},
      {"onerun_0", 1000, 50, 50, 1e-5, 2.7562194720722912},
      {"onerun_0", 1000, 100, 98, 1e-5, 2.7109631340457816},
      {"onerun_0", 1000, 250, 237, 1e-5, 2.4199808616030727},
      {"onerun_0", 1000, 10, 10, 0, 1.0518732154273494},
      {"onerun_0", 1000, 100, 98, 0, 2.7231823711894236},
      {"onerun_0", 1000, 250, 237, 0, 2.4234220068369914},
      {"onerun_1", 1000, 100, 100, 1e-5, 3.465376229385333},
      {"onerun_1", 1000, 250, 250, 1e-5, 4.391223793667449},
      {"onerun_1", 1000, 250, 250, 0, 4.4182747700170335},
      {"onerun_2", 10000, 10, 8, 1e-5, 0},
      {"onerun_2", 10000, 50, 47, 1e-5, 1.634245429631741},
      {"onerun_2", 10000, 100, 90, 1e-5, 1.5805597458013363},
      {"onerun_2", 10000, 2500, 1971, 1e-5, 1.2326123694293842},
      {"onerun_2", 10000, 2500, 1971, 0, 1.2339899437958672},
      {"onerun_3", 10000, 10, 10, 1e-5, 0.6137932929134875},
      {"onerun_3", 10000, 2500, 2490, 1e-5, 4.946136357675965},
      {"onerun_3", 10000, 2500, 2490, 0, 4.987652252023381},
      {"onerun_4", 200, 10, 10, 1e-5, 1.0445890582363753},
      {"onerun_4", 200, 100, 100, 1e-5, 3.487464024328827},
  };
  for (const Golden& g : golden) {
    CAPTURE(g.file);
    CAPTURE(g.r);
    CAPTURE(g.delta);
    CHECK(std::abs(one_run_epsilon(g.m, g.r, g.v, g.delta, 0.05) - g.eps) <= 1e-6);
  }
}

TEST_CASE("alpha = 1/2, delta 0: the raw estimate logit(v/r)") {
  // P[Binomial(r, q) >= v] = 1/2 puts v at the median of the binomial, r q within 1 of v:
  // the bound is the plug-in logit(v / r) up to O(1/r) (derivative 1/(q(1-q)) = 6.25 here).
  CHECK(one_run_epsilon(20000, 10000, 8000, 0, 0.5) == doctest::Approx(logit(0.8)).epsilon(1e-3));
  CHECK(std::abs(one_run_epsilon(20000, 10000, 8000, 0, 0.5) - logit(0.8)) < 6.25 / 10000);
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
  const OneRunEstimate top3 = one_run_fixed(s, 3, 0, at(0));  // 7o 6i 5i
  CHECK(top3.canaries == 8);
  CHECK(top3.correct == 2);
  CHECK(*top3.threshold_in == 5);
  CHECK_FALSE(top3.threshold_out);
  const OneRunEstimate both = one_run_fixed(s, 2, 2, at(0));  // in: 7o 6i; out: 0o 1i
  CHECK(both.correct == 2);
  CHECK(*both.threshold_out == 1);
  CHECK(both.epsilon == one_run_epsilon(8, 4, 2, 0, 0.05));
  // 10 of 10 correct with k+ = k- = 5 on separated scores: the closed form at r = 10.
  const ScoreSet sep({11, 12, 13, 14, 15, 16}, {1, 2, 3, 4, 5, 6});
  CHECK(one_run_fixed(sep, 5, 5, at(0)).epsilon ==
        doctest::Approx(logit(std::pow(0.05, 0.1))).epsilon(1e-11));
  CHECK_THROWS_AS(one_run_fixed(s, 5, 4, at(0)), UsageError);
  CHECK_THROWS_AS(one_run_fixed(s, 0, 0, at(0)), UsageError);
  const ScoreSet tied({1, 2, 2}, {0, 3});  // sorted 0 1 2 2 3: the top 2 end inside the tie at 2
  CHECK_THROWS_AS(one_run_fixed(tied, 2, 0, at(0)), DataError);
  CHECK_NOTHROW(one_run_fixed(tied, 3, 0, at(0)));
}

TEST_CASE("max: the best count over every distinct score, each at alpha") {
  // 20 separated in scores above 20 out scores: the best count is the top 20, all correct.
  std::vector<double> in, out;
  for (int i = 0; i < 20; ++i) {
    in.push_back(100 + i);
    out.push_back(i);
  }
  const ScoreSet s(in, out);
  const OneRunEstimate e = one_run_audit(s, at(0, 0.05, ThresholdChoice::max));
  CHECK(e.guesses_in == 20);
  CHECK(e.correct == 20);
  CHECK(*e.threshold_in == 100);
  CHECK(e.counts_tried == 40);
  CHECK(e.epsilon == doctest::Approx(logit(std::pow(0.05, 1.0 / 20))).epsilon(1e-11));
}

TEST_CASE("bonferroni: top-k on the grid 10, 20, 50, ... up to m/2, each at alpha / grid size") {
  CHECK(one_run_guess_grid(1000) == std::vector<std::size_t>{10, 20, 50, 100, 200, 500});
  CHECK(one_run_guess_grid(10000) ==
        std::vector<std::size_t>{10, 20, 50, 100, 200, 500, 1000, 2000, 5000});
  CHECK(one_run_guess_grid(200) == std::vector<std::size_t>{10, 20, 50, 100});
  CHECK(one_run_guess_grid(19) == std::vector<std::size_t>{9});
  CHECK(one_run_guess_grid(1) == std::vector<std::size_t>{1});
  // The old default, every distinct score at alpha / m, refutes nothing at m = 1000,
  // delta = 1e-5 even when the top 100 are all in: the delta term 2 m delta = 0.02 times
  // the pmf's mean stays above alpha / 1000. The grid pays alpha / 6 and certifies.
  const ScoreSet s = one_run_game(1000, 4, 1);
  CHECK(one_run_fixed(s, 100, 0, at(0)).correct == 100);
  CHECK(one_run_audit(s, at(1e-5, 0.05 / 1000, ThresholdChoice::max)).epsilon == 0);
  const OneRunEstimate e = one_run_audit(s, at(1e-5));
  CHECK(e.counts_tried == 6);
  CHECK(e.alpha_per_count == doctest::Approx(0.05 / 6).epsilon(1e-15));
  CHECK(e.epsilon > 2);
  CHECK(e.epsilon == one_run_epsilon(1000, e.guesses_in, e.correct, 1e-5, 0.05 / 6));
  double best = 0;
  for (std::size_t k : one_run_guess_grid(1000))
    best = std::max(best, one_run_fixed(s, k, 0, at(1e-5, 0.05 / 6)).epsilon);
  CHECK(e.epsilon == best);
}

TEST_CASE("bonferroni: a grid cut inside tied scores moves to the nearer end of the tie") {
  // Randomized response's shape: the top 30 of m = 60 scores are one tie at 5 (25 in, 5 out),
  // 30 distinct scores below (15 in). Both grid counts, 10 and 20, cut inside the tie, with
  // nothing above it: both guess the whole tie, 30 guesses, 25 correct, each at alpha / 2.
  // (Moving above the tie, as before, left no guesses and eps 0.)
  std::vector<double> in(25, 5.0), out(5, 5.0);
  for (int i = 0; i < 30; ++i) (i % 2 ? in : out).push_back(i - 40);
  const ScoreSet rr(in, out);
  CHECK(one_run_guess_grid(60) == std::vector<std::size_t>{10, 20});
  const OneRunEstimate tied = one_run_audit(rr, at(0));
  CHECK(tied.guesses_in == 30);
  CHECK(tied.correct == 25);
  CHECK(*tied.threshold_in == 5);
  // delta 0: the eps where P[Binomial(30, q) >= 25] = alpha / 2 (q = e^eps / (1 + e^eps)).
  CHECK(tied.epsilon == doctest::Approx(one_run_epsilon(60, 30, 25, 0, 0.025)).epsilon(1e-12));
  CHECK(binomial_upper_tail(30, 25, logistic(tied.epsilon)) ==
        doctest::Approx(0.025).epsilon(1e-9));
  CHECK(tied.epsilon > 0.6);  // 0.631
  // 8 distinct scores above the tie: count 10 is 2 guesses from the tie's upper end and 28 from
  // its lower end (38 guesses), so it guesses the 8; count 20 (12 against 18) too.
  std::vector<double> in8 = in, out8 = out;
  for (int i = 0; i < 8; ++i) (i < 6 ? in8 : out8).push_back(10 + i);  // 6 in, 2 out
  const OneRunEstimate above = one_run_audit(ScoreSet(in8, out8), at(0, 0.5));
  CHECK(above.guesses_in == 8);
  CHECK(*above.threshold_in == 10);
  CHECK(above.correct == 6);
  // Equal distance goes above: 5 distinct scores over a tie of 10 at 0 over 10 below; count 10
  // is 5 guesses from either end of the tie.
  std::vector<double> in5(5, 0.0), out5(5, 0.0);
  for (int i = 0; i < 5; ++i) in5.push_back(1 + i);
  for (int i = 0; i < 10; ++i) out5.push_back(-1 - i);
  CHECK(one_run_guess_grid(25) == std::vector<std::size_t>{10});
  const OneRunEstimate equal = one_run_audit(ScoreSet(in5, out5), at(0, 0.5));
  CHECK(equal.guesses_in == 5);
  CHECK(equal.correct == 5);
}

TEST_CASE("split and multi-split: label-blind halves, seeded, the same for any thread count") {
  const ScoreSet s = one_run_game(1000, 3, 2);
  OneRunOptions o = at(1e-5, 0.05, ThresholdChoice::split);
  o.strategy.seed = 4;
  const OneRunEstimate a = one_run_audit(s, o);
  CHECK(a.canaries == 500);  // the held-out half
  CHECK(a.epsilon == one_run_epsilon(500, a.guesses_in, a.correct, 1e-5, 0.05));
  CHECK(a.epsilon == one_run_audit(s, o).epsilon);
  o.strategy.choice = ThresholdChoice::multi_split;
  o.strategy.splits = 9;
  const OneRunEstimate m1 = one_run_audit(s, o);
  o.strategy.threads = 4;
  const OneRunEstimate m4 = one_run_audit(s, o);
  CHECK(m1.epsilon == m4.epsilon);
  CHECK(m1.splits == 9);
  CHECK(m1.alpha_per_count == 0.025);
  // 9 splits: the median is the lower middle split's own bound.
  CHECK(m1.epsilon == one_run_epsilon(500, m1.guesses_in, m1.correct, 1e-5, 0.025));
  CHECK(m1.epsilon > 0);
  o.strategy.choice = ThresholdChoice::uncorrected;
  CHECK_THROWS_AS(one_run_audit(s, o), UsageError);
}

TEST_CASE("f-DP through the same game: one_run_audit with the fdp test") {
  OneRunOptions o = at(1e-5);
  o.test = OneRunTest::fdp;
  const ScoreSet s = one_run_game(1000, 4, 3);
  const OneRunEstimate top = one_run_fixed(s, 100, 0, o);
  CHECK(top.epsilon == one_run_fdp_epsilon(1000, 100, top.correct, 1e-5, 0.05, FdpCurve::gaussian));
  o.strategy = {ThresholdChoice::fixed, *top.threshold_in};
  CHECK(one_run_audit(s, o).epsilon == top.epsilon);
  // The grid: the best of its counts at alpha / 6, above one-run's on the same outcomes.
  o.strategy = {ThresholdChoice::bonferroni};
  const OneRunEstimate grid = one_run_audit(s, o);
  CHECK(grid.epsilon == one_run_fdp_epsilon(1000, grid.guesses_in, grid.correct, 1e-5, 0.05 / 6,
                                            FdpCurve::gaussian));
  CHECK(grid.epsilon > one_run_audit(s, at(1e-5)).epsilon);
}

TEST_CASE("labels: both classes, and a split plausible under inclusion with probability 1/2") {
  std::vector<double> in(423, 1.0), out(577, 0.0);
  CHECK_NOTHROW(check_one_run_labels(ScoreSet(in, out)));
  in.pop_back();
  out.push_back(0);  // 422 : 578, two-sided p = 9.4e-7
  CHECK_THROWS_WITH_AS(check_one_run_labels(ScoreSet(in, out)),
                       doctest::Contains("422 in and 578 out of 1000 canaries"), DataError);
  CHECK_THROWS_WITH_AS(check_one_run_labels(ScoreSet({}, {1, 2})),
                       doctest::Contains("both labels, got 0 in and 2 out"), DataError);
  CHECK_NOTHROW(check_one_run_labels(ScoreSet({1}, {2})));  // m = 2: any split is plausible
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

TEST_CASE("one-run: at 10^7 canaries the bound stays below the exact root") {
  // The best grid count of the 10^7-score benchmark (bench/eps_from_scores: make_scores.py),
  // 869,131 correct of 10^6 guesses, at alpha / 18 and delta 1e-5. The exact root of
  // p(eps) = alpha, computed in mpmath at 40 digits (the tail and the running means summed
  // term by term), is 1.3765024020348739147. With a_1 from lgamma the search returned
  // 1.376502402558799, 3.8e-10 above it: a bound past what the outcome proves.
  const double eps = one_run_epsilon(10000000, 1000000, 869131, 1e-5, 0.05 / 18);
  CHECK(eps <= 1.3765024020348739);
  CHECK(eps > 1.3765024020348739 * (1 - 1e-10));
}
