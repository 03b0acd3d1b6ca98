// What each estimate says it is (stats/guarantee.hpp): the table of eps-from-scores(1),
// "What each number assumes", row by row.
#include <doctest/doctest.h>

#include <string>

#include "stats/epsilon_estimators.hpp"
#include "stats/gdp_audit.hpp"
#include "stats/guarantee.hpp"
#include "stats/one_run.hpp"

using namespace dpaudit;

namespace {

EstimatorOptions options_of(Method method, ThresholdChoice choice) {
  EstimatorOptions o;
  o.method = method;
  o.strategy.choice = choice;
  return o;
}

bool same(const Guarantee& a, GuaranteeKind kind, Assumption assumes) {
  return a.kind == kind && a.assumes == assumes;
}

}  // namespace

TEST_CASE("names as --json prints them") {
  CHECK(guarantee_name(GuaranteeKind::lower_bound) == "lower bound");
  CHECK(guarantee_name(GuaranteeKind::approximate_bound) == "approximate bound");
  CHECK(guarantee_name(GuaranteeKind::point_estimate) == "point estimate");
  CHECK(guarantee_name(GuaranteeKind::not_a_bound) == "not a bound");
  CHECK(assumption_name(Assumption::none) == "none");
  CHECK(assumption_name(Assumption::gaussian_tradeoff_curve) == "gaussian trade-off curve");
  CHECK(assumption_name(Assumption::gaussian_scores) == "gaussian scores");
}

TEST_CASE("a rule chosen without paying for the choice is not a bound") {
  for (ThresholdChoice c : {ThresholdChoice::bonferroni, ThresholdChoice::split,
                            ThresholdChoice::multi_split, ThresholdChoice::fixed})
    CHECK(bound_kind(c) == GuaranteeKind::lower_bound);
  CHECK(bound_kind(ThresholdChoice::max) == GuaranteeKind::not_a_bound);
  CHECK(bound_kind(ThresholdChoice::uncorrected, GuaranteeKind::approximate_bound) ==
        GuaranteeKind::not_a_bound);
  CHECK(bound_kind(ThresholdChoice::split, GuaranteeKind::approximate_bound) ==
        GuaranteeKind::approximate_bound);
}

TEST_CASE("the rate-based estimators") {
  using K = GuaranteeKind;
  using A = Assumption;
  CHECK(same(estimate_guarantee(options_of(Method::clopper_pearson, ThresholdChoice::bonferroni)),
             K::lower_bound, A::none));
  CHECK(same(estimate_guarantee(options_of(Method::clopper_pearson, ThresholdChoice::max)),
             K::not_a_bound, A::none));
  // A game's decisions are one fixed rule, whatever the strategy field holds.
  CHECK(same(estimate_guarantee(options_of(Method::clopper_pearson, ThresholdChoice::max), true),
             K::lower_bound, A::none));
  CHECK(same(estimate_guarantee(options_of(Method::jeffreys, ThresholdChoice::split)),
             K::approximate_bound, A::none));
  CHECK(same(estimate_guarantee(options_of(Method::jeffreys, ThresholdChoice::uncorrected)),
             K::not_a_bound, A::none));
  CHECK(same(estimate_guarantee(options_of(Method::threshold, ThresholdChoice::bonferroni)),
             K::point_estimate, A::none));
  CHECK(same(estimate_guarantee(options_of(Method::gauss_fit, ThresholdChoice::bonferroni)),
             K::point_estimate, A::gaussian_scores));
}

TEST_CASE("gdp's eps and one-run-fdp's Gaussian curve assume a Gaussian trade-off curve") {
  CHECK(same(gdp_epsilon_guarantee(ThresholdChoice::bonferroni), GuaranteeKind::lower_bound,
             Assumption::gaussian_tradeoff_curve));
  CHECK(same(gdp_epsilon_guarantee(ThresholdChoice::max), GuaranteeKind::not_a_bound,
             Assumption::gaussian_tradeoff_curve));
  OneRunOptions o;
  CHECK(same(one_run_guarantee(o), GuaranteeKind::lower_bound, Assumption::none));
  o.test = OneRunTest::fdp;
  o.curve = FdpCurve::gaussian;
  CHECK(
      same(one_run_guarantee(o), GuaranteeKind::lower_bound, Assumption::gaussian_tradeoff_curve));
  o.curve = FdpCurve::dp;
  CHECK(same(one_run_guarantee(o), GuaranteeKind::lower_bound, Assumption::none));
  o.strategy.choice = ThresholdChoice::max;
  CHECK(same(one_run_guarantee(o), GuaranteeKind::not_a_bound, Assumption::none));
}

TEST_CASE(
    "a note exactly when a number is not a plain bound or estimate valid for every mechanism") {
  CHECK_FALSE(guarantee_note({GuaranteeKind::lower_bound, Assumption::none}, "x"));
  CHECK_FALSE(guarantee_note({GuaranteeKind::approximate_bound, Assumption::none}, "x"));
  CHECK_FALSE(guarantee_note({GuaranteeKind::point_estimate, Assumption::none}, "x"));
  const auto curve = guarantee_note(
      {GuaranteeKind::lower_bound, Assumption::gaussian_tradeoff_curve}, "gdp's eps");
  REQUIRE(curve);
  CHECK(curve->rfind("gdp's eps assumes the mechanism's trade-off curve is Gaussian", 0) == 0);
  const auto scores =
      guarantee_note({GuaranteeKind::point_estimate, Assumption::gaussian_scores}, "x");
  REQUIRE(scores);
  CHECK(scores->find("not a lower bound") != std::string::npos);
  const auto max =
      guarantee_note({GuaranteeKind::not_a_bound, Assumption::gaussian_tradeoff_curve}, "x");
  REQUIRE(max);
  CHECK(max->find("over-stated") != std::string::npos);
  CHECK(max->find("also assumes the mechanism's trade-off curve is Gaussian") != std::string::npos);
}
