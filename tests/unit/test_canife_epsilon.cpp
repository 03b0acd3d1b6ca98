#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "stats/canife_epsilon.hpp"

using namespace dpaudit;

namespace {

// 50 out scores 0.00, 0.01, ..., 0.48 and 0.9; 50 in scores 0.1, 0.2 and 1.00, ..., 1.47.
// At gamma = 0.9: FP = 1, FN = 2 of 50 each; gamma = 1.0 has FP = 0 < FN and is skipped.
void round_scores(std::vector<double>& in, std::vector<double>& out) {
  for (int i = 0; i < 49; ++i) out.push_back(i / 100.0);
  out.push_back(0.9);
  in = {0.1, 0.2};
  for (int i = 0; i < 48; ++i) in.push_back(1 + i / 100.0);
}

}  // namespace

TEST_CASE("eps_r: the best threshold with both rates non-zero, and its Clopper-Pearson interval") {
  std::vector<double> in, out;
  round_scores(in, out);
  const CanifeEpsilon e = canife_epsilon(in, out, 0.01);
  // log((1 - 0.01 - 2/50) / (1/50)) = log 47.5.
  CHECK(e.epsilon == doctest::Approx(std::log(47.5)).epsilon(1e-12));
  CHECK(e.threshold == 0.9);
  CHECK(e.false_positives == 1);
  CHECK(e.false_negatives == 2);
  // scipy.stats.beta 1.10: upper bounds beta.ppf(0.975, k+1, n-k), lower bounds
  // beta.ppf(0.025, k, n-k+1) at k = 1, 2 of n = 50, through the same formula.
  CHECK(e.epsilon_lower == doctest::Approx(2.0807392029494514).epsilon(1e-9));
  CHECK(e.epsilon_upper == doctest::Approx(7.573530157880959).epsilon(1e-9));
}

TEST_CASE("eps_r: separated scores are inf; a single zero rate is skipped, not inf") {
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(canife_epsilon({2, 3, 4}, {0, 1}, 0.2).epsilon == inf);
  // in {1, 3}, out {0, 2}: gamma 3 has FP 0, FN 1 (skipped); gamma 2 has FP 1, FN 1:
  // log((1 - 0 - 1/2) / (1/2)) = 0; nothing positive, so 0 (the threshold method says inf).
  const CanifeEpsilon e = canife_epsilon({1, 3}, {0, 2}, 0.0);
  CHECK(e.epsilon == 0);
  CHECK_THROWS_AS(canife_epsilon({}, {1}, 0.01), UsageError);
  CHECK_THROWS_AS(canife_epsilon({1}, {1}, 1.0), UsageError);
}

TEST_CASE("eps_r at n = 100 is capped at log((1 - 3/n) / (2/n)) = log 48.5 short of inf") {
  // 50 + 50 scores separated except one pair: out has 0.5 above an in score of 0.4.
  std::vector<double> in{0.4}, out{0.5};
  for (int i = 0; i < 49; ++i) {
    in.push_back(1 + i);
    out.push_back(-1 - i);
  }
  CHECK(canife_epsilon(in, out, 0.01).epsilon == doctest::Approx(std::log(48.5)).epsilon(1e-12));
}

TEST_CASE("per round: delta 1/n of each round unless given") {
  std::vector<double> in, out;
  round_scores(in, out);
  const std::map<double, ScoreSet> rounds{{3, ScoreSet(in, out)}, {7, ScoreSet({2, 3, 4}, {0, 1})}};
  const auto e = canife_epsilon_per_round(rounds, std::nullopt);
  REQUIRE(e.size() == 2);
  // Round 3 has n = 100 scores: delta 0.01, the first case's log 47.5.
  CHECK(e.at(3).epsilon == doctest::Approx(std::log(47.5)).epsilon(1e-12));
  CHECK(e.at(7).epsilon == std::numeric_limits<double>::infinity());
  // delta 0 given: log((1 - 2/50) / (1/50)) = log 48.
  CHECK(canife_epsilon_per_round(rounds, 0.0).at(3).epsilon ==
        doctest::Approx(std::log(48.0)).epsilon(1e-12));
}

TEST_CASE("eps_r of the first public code: the max-accuracy threshold, inf on one zero count") {
  const double inf = std::numeric_limits<double>::infinity();
  // round_scores: "in" when score > 0.9 is the most accurate rule (98 of 100 right) and has
  // FP = 0, FN = 2: inf, where the threshold search finds log 47.5 at the same threshold.
  std::vector<double> in, out;
  round_scores(in, out);
  const CanifeEpsilon sep = canife_epsilon_max_accuracy(in, out, 0.01);
  CHECK(sep.epsilon == inf);
  CHECK(sep.threshold == 0.9);
  CHECK(sep.false_positives == 0);
  CHECK(sep.false_negatives == 2);
  // out {-1..-48, 0.5, 0.7}, in {0.4, 0.6, 0.65, 1..47}: "in" when > 0.5 and when > -1 are
  // both right 98 times of 100 (the rest at most 97); the higher, 0.5, has FP = FN = 1:
  // log((1 - 1e-5 - 1/50) / (1/50)) at the code's delta 1e-5.
  in = {0.4, 0.6, 0.65};
  out = {0.5, 0.7};
  for (int i = 1; i <= 48; ++i) out.push_back(-i);
  for (int i = 1; i <= 47; ++i) in.push_back(i);
  const CanifeEpsilon e = canife_epsilon_max_accuracy(in, out, 1e-5);
  CHECK(e.threshold == 0.5);
  CHECK(e.false_positives == 1);
  CHECK(e.false_negatives == 1);
  CHECK(e.epsilon == doctest::Approx(3.891810093976932).epsilon(1e-12));
  // scipy.stats.beta 1.10: beta.ppf(0.975, 2, 49) and beta.ppf(0.025, 1, 50) for both rates.
  CHECK(e.epsilon_lower == doctest::Approx(2.1273102381623357).epsilon(1e-9));
  CHECK(e.epsilon_upper == doctest::Approx(7.588007069504395).epsilon(1e-9));
  CHECK_THROWS_AS(canife_epsilon_max_accuracy({}, {1}, 0.01), UsageError);
  CHECK_THROWS_AS(canife_epsilon_max_accuracy({1}, {1}, 1.0), UsageError);
}
