#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "stats/estimate.hpp"

using namespace dpaudit;

namespace {

// The message a request's first broken rule gives, in words; "" when it is valid.
std::string refusal(const EstimateRequest& r) {
  try {
    validate(r);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

// n_in in scores of which in_low sit at -1 (the rest at 1), n_out out scores of which
// out_high sit at 1 (the rest at -1): "in when score >= 0" has FNR in_low/n_in, FPR
// out_high/n_out.
ScoreSet two_level(std::size_t n_in, std::size_t in_low, std::size_t n_out, std::size_t out_high) {
  std::vector<int> labels;
  std::vector<double> scores;
  for (std::size_t i = 0; i < n_in; ++i) {
    labels.push_back(1);
    scores.push_back(i < in_low ? -1.0 : 1.0);
  }
  for (std::size_t i = 0; i < n_out; ++i) {
    labels.push_back(0);
    scores.push_back(i < out_high ? 1.0 : -1.0);
  }
  return score_set_of(labels, scores);
}

}  // namespace

TEST_CASE("the table of estimators: names, and what each accepts") {
  std::vector<std::string> names;
  for (const Estimator& e : estimators()) names.emplace_back(e.name);
  CHECK(names == std::vector<std::string>{"clopper-pearson", "gauss-fit", "jeffreys", "threshold",
                                          "canife", "one-run", "one-run-fdp", "gdp"});
  CHECK(estimator_names(kAcceptsBootstrap, ", ", ", ") == "gauss-fit, threshold");
  CHECK(estimator_names(kAcceptsGuesses, ", ", " or ") == "one-run or one-run-fdp");
  CHECK(estimator_names(kAcceptsCurve, ", ", " or ") == "one-run-fdp");
  CHECK(find_estimator("gdp") != nullptr);
  CHECK(find_estimator("gauss") == nullptr);
  // The rate-based rows carry estimate_epsilon's method; the others none.
  CHECK(find_estimator("jeffreys")->method == Method::jeffreys);
  CHECK(find_estimator("gauss-fit")->method == Method::gauss_fit);
  CHECK_FALSE(find_estimator("one-run")->method.has_value());
}

TEST_CASE("validate: the rules, in words; a binding renders the pattern its own way") {
  EstimateRequest r;
  CHECK(refusal(r) == "");
  r.splits = 10;  // multi-split's parameter with the default strategy
  CHECK(refusal(r) == "the number of splits is for the threshold strategy multi-split");
  try {
    validate(r);
  } catch (const UsageError& e) {
    CHECK(e.pattern() == "{splits} is for {thresholds} multi-split");
    CHECK(render_parameters(e.pattern(), [](const std::string& p) {
            return p == "splits" ? "--splits" : "--thresholds";
          }) == "--splits is for --thresholds multi-split");
  }
  r.thresholds = ThresholdChoice::multi_split;
  CHECK(refusal(r) == "");
  EstimateRequest gdp;
  gdp.method = "gdp";
  CHECK(refusal(gdp) == "gdp needs delta in (0,1): mu-GDP is not (eps, 0)-DP for any finite eps");
  gdp.delta = 1e-5;
  gdp.input = EstimateInput::rounds;
  CHECK(refusal(gdp) ==
        "gdp takes no per, decisions, the null's dimension, the cosine null or one-sided");
  EstimateRequest boot;
  boot.bootstrap = 100;
  boot.details = true;
  CHECK(refusal(boot) ==
        "the bootstrap replicates is for point estimates (gauss-fit, threshold); clopper-pearson "
        "already gives a confidence bound");
  boot.method = "threshold";
  CHECK(refusal(boot) == "");
  boot.details = false;
  CHECK(refusal(boot) == "the bootstrap replicates adds to the details: give one");
  EstimateRequest canife;
  canife.method = "canife";
  CHECK(refusal(canife) == "the canife method is per audit round: give per round (the estimator)");
  canife.input = EstimateInput::rounds;
  canife.seed = 1;
  CHECK(refusal(canife) == "seed cannot be used with the estimator canife");
  EstimateRequest curve;
  curve.against_curve = true;
  curve.delta = 0.1;
  CHECK(refusal(curve) == "delta cannot be used with the test against a trade-off curve");
}

TEST_CASE("estimate: a game's decisions, Matsumoto et al. 2023's example") {
  // FP 0.1, FN 0.2: eps = log((1 - FNR)/FPR) = log 8 at the observed rates.
  EstimateRequest r;
  r.method = "threshold";
  r.input = EstimateInput::decisions;
  r.decisions = {100, 100, 20, 10};
  validate(r);
  const Estimate e = estimate(r);
  CHECK(e.epsilon == doctest::Approx(std::log(8.0)));
  CHECK(e.method == "threshold");
  CHECK(e.thresholds == "");  // one decision rule
  CHECK(e.guarantee.kind == GuaranteeKind::point_estimate);
  REQUIRE(std::holds_alternative<ScoreEstimate>(e.result));
  CHECK(std::get<ScoreEstimate>(e.result).estimate.fnr == doctest::Approx(0.2));
}

TEST_CASE("estimate: (label, score) per trial, as a training run holds them") {
  // The rule "score >= 0" has FNR 0.2 and FPR 0.1: the threshold estimate is log 8 there,
  // and no other rule of two levels does better.
  EstimateRequest r;
  r.method = "threshold";
  r.scores = two_level(100, 20, 100, 10);
  validate(r);
  const Estimate e = estimate(r);
  CHECK(e.epsilon == doctest::Approx(std::log(8.0)));
  CHECK(e.thresholds == "bonferroni");
  CHECK(*std::get<ScoreEstimate>(e.result).estimate.threshold == 1.0);
  // Clopper-Pearson at the same rule is lower; it is a lower bound that assumes nothing.
  r.method = "clopper-pearson";
  const Estimate cp = estimate(r);
  CHECK(cp.epsilon < e.epsilon);
  CHECK(cp.guarantee.kind == GuaranteeKind::lower_bound);
  CHECK(cp.guarantee.assumes == Assumption::none);
}

TEST_CASE("estimate: the cosine null needs a dimension; per round, the largest epsilon") {
  EstimateRequest r;
  r.null = NullKind::exact;
  r.delta = 1e-5;
  r.scores = ScoreSet({0.1, 0.2, 0.3}, {});
  validate(r);
  CHECK_THROWS_WITH_AS(estimate(r),
                       "the cosine null needs the null's dimension: the scores have "
                       "no dim column",
                       UsageError);
  EstimateRequest rounds;
  rounds.method = "threshold";
  rounds.input = EstimateInput::rounds;
  rounds.rounds = {{1, two_level(100, 20, 100, 10)}, {2, two_level(100, 50, 100, 50)}};
  validate(rounds);
  const Estimate e = estimate(rounds);
  const auto& per_round = std::get<RoundEstimates>(e.result);
  REQUIRE(per_round.size() == 2);
  // delta 1/n = 1/200 per round (CANIFE's): log((1 - 1/200 - 0.2)/0.1) in round 1, the largest.
  CHECK(per_round.at(1).estimate.epsilon == doctest::Approx(std::log((1 - 0.005 - 0.2) / 0.1)));
  CHECK(e.epsilon == per_round.at(1).estimate.epsilon);
}

TEST_CASE("estimate: the one-run audit's errors keep their pattern and name the source") {
  // 2 in and 2 out canaries, guessing 3 in and 2 out: more guesses than canaries.
  EstimateRequest r;
  r.method = "one-run";
  r.guesses = std::pair<std::size_t, std::size_t>{3, 2};
  r.scores = ScoreSet({3, 4}, {1, 2});
  r.source = "c{1}.csv";
  validate(r);
  try {
    estimate(r);
    FAIL("no error");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()) == "3 + 2 guesses exceed the 4 canaries (the guess counts)");
    CHECK(e.pattern() == "3 + 2 guesses exceed the 4 canaries ({guesses})");
  }
  // Tied scores where the top 2 end: a data error, named by the source (a literal).
  r.guesses = std::pair<std::size_t, std::size_t>{2, 0};
  r.scores = ScoreSet({3, 2}, {2, 1});
  try {
    estimate(r);
    FAIL("no error");
  } catch (const DataError& e) {
    CHECK(std::string(e.what()) ==
          "the 2 highest scores end inside tied scores (2): guess a different number (c{1}.csv)");
    CHECK(e.pattern() ==
          "the 2 highest scores end inside tied scores (2): guess a different number (c{{1}}.csv)");
  }
}
