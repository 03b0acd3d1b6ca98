// Crafter/distinguisher names, Matsumoto et al. 2022, Table 1's pairing and the decision rules (Eq.
// 4-7).
#include <cmath>

#include <doctest/doctest.h>

#include "core/error.hpp"
#include "games/ldp_adversary.hpp"
#include "mechanisms/ldp_sgd.hpp"

using namespace dpaudit;

namespace {

// Fraction of correct white-box guesses (Eq. 5) for the pair (g, -g) over `trials`
// games in which the crafter picks g1 or g2 with a fair coin.
double flip_accuracy(const Eigen::VectorXd& g, double eps, int trials) {
  const Eigen::VectorXd flipped = -g;
  Eigen::VectorXd report(g.size());
  int correct = 0;
  for (int t = 0; t < trials; ++t) {
    PhiloxStream rng(5, static_cast<std::uint64_t>(t));
    const bool first = rng.uniform() < 0.5;
    ldp_sgd_randomize(first ? g : flipped, {eps, 1}, rng, report);
    correct += white_box_guess(report, g, flipped) == first;
  }
  return static_cast<double>(correct) / trials;
}

}  // namespace

TEST_CASE("crafter and distinguisher names round-trip; unknown names are usage errors") {
  for (const char* name : {"benign", "input-perturbation", "parameter-retrogression",
                           "gradient-flip", "collusion", "dummy-gradient"})
    CHECK(to_string(parse_ldp_crafter(name)) == name);
  CHECK(parse_ldp_crafter("dummy-gradient") == LdpCrafter::dummy_gradient);
  CHECK(parse_ldp_distinguisher("black-box") == LdpDistinguisher::black_box);
  CHECK(to_string(LdpDistinguisher::white_box) == "white-box");
  CHECK_THROWS_AS(parse_ldp_crafter("dummy"), UsageError);
  CHECK_THROWS_AS(parse_ldp_distinguisher("grey-box"), UsageError);
}

TEST_CASE("black-box rules follow Matsumoto et al. 2022, Table 1") {
  CHECK(black_box_rule(LdpCrafter::benign) == BlackBoxRule::loss_change);
  CHECK(black_box_rule(LdpCrafter::input_perturbation) == BlackBoxRule::loss_decrease);
  CHECK(black_box_rule(LdpCrafter::parameter_retrogression) == BlackBoxRule::loss_decrease);
  CHECK(black_box_rule(LdpCrafter::gradient_flip) == BlackBoxRule::loss_decrease);
  CHECK(black_box_rule(LdpCrafter::collusion) == BlackBoxRule::loss_decrease);
  CHECK(black_box_rule(LdpCrafter::dummy_gradient) == BlackBoxRule::sign_sum);
}

TEST_CASE("decision rules on known inputs") {
  Eigen::Vector3d g1(1, 0, 0), g2(0, 2, 0), r(0.6, 0.8, 0);
  CHECK_FALSE(white_box_guess(r, g1, g2));  // cos 0.6 < cos 0.8
  CHECK(white_box_guess(Eigen::Vector3d(0.8, 0.6, 0), g1, g2));
  CHECK(white_box_guess(r, g1, g1));                             // ties go to g1
  CHECK_FALSE(white_box_guess(r, Eigen::Vector3d::Zero(), g2));  // cos with 0 is 0
  CHECK(loss_decrease_guess(2.0, 1.5));
  CHECK(loss_decrease_guess(2.0, 2.0));
  CHECK_FALSE(loss_decrease_guess(2.0, 2.1));
  CHECK(loss_change_guess(1.0, 0.5, 1.0, 1.2));  // |-0.5| >= |0.2|
  CHECK_FALSE(loss_change_guess(1.0, 1.1, 3.0, 2.0));
  // Descent from the positive dummy gradient: theta_t - theta_{t+1} mostly positive.
  Eigen::VectorXd before = Eigen::VectorXd::Zero(5), after(5);
  after << -0.1, -0.2, 0.3, -0.1, 0.0;
  CHECK(sign_sum_guess(before, after));
  CHECK_FALSE(sign_sum_guess(before, -after));
}

TEST_CASE("WhiteBoxDistinguisher scores reports of one pair like Eq. 5") {
  // g1 points at 0 deg, g2 at 45 deg: a report at angle a prefers g1 iff
  // cos a >= cos(a - 45 deg), i.e. for a in [-157.5, 22.5] deg.
  const Eigen::Vector2d g1(2, 0), g2(3, 3);
  const WhiteBoxDistinguisher pair(g1, g2);
  for (double degrees : {-90.0, 0.0, 22.0, 23.0, 90.0, 200.0, 202.0, 203.0}) {
    const double a = degrees * M_PI / 180;
    const Eigen::Vector2d r(3 * std::cos(a), 3 * std::sin(a));  // the report's norm does not matter
    CHECK(pair.guess(r) == white_box_guess(r, g1, g2));
    CHECK(pair.guess(r) == (std::cos(a) >= std::cos(a - M_PI / 4)));
  }
  // A zero g1 has cosine 0: g1 is guessed iff cos(r, g2) <= 0.
  const Eigen::Vector2d zero(0, 0);
  CHECK(WhiteBoxDistinguisher(zero, g2).guess(Eigen::Vector2d(-1, 0)));
  CHECK_FALSE(WhiteBoxDistinguisher(zero, g2).guess(Eigen::Vector2d(1, 0)));
}

TEST_CASE(
    "white-box with a flipped gradient of norm >= L reaches e^eps/(1+e^eps) (Matsumoto et al. "
    "2022, Prop. 1)") {
  const int trials = 20000;
  const Eigen::VectorXd dummy = Eigen::VectorXd::Constant(64, 1 / std::sqrt(64.0));  // L/sqrt(d)
  for (double eps : {0.5, 2.0, 4.0}) {
    const double p = ldp_sgd_keep_probability(eps);
    CHECK(std::abs(flip_accuracy(dummy, eps, trials) - p) <= 5 * std::sqrt(p * (1 - p) / trials));
  }
}

TEST_CASE("a flipped gradient of norm a L is guessed with probability 1/2 + a (p - 1/2)") {
  // The norm projection flips z with probability (1 - a)/2 (Matsumoto et al. 2022, Sec. 2.2, first
  // fact).
  const int trials = 20000;
  const Eigen::VectorXd short_gradient = Eigen::VectorXd::Constant(16, 0.25 * 0.4);  // a = 0.4
  const double p = ldp_sgd_keep_probability(4), want = 0.5 + 0.4 * (p - 0.5);
  CHECK(std::abs(flip_accuracy(short_gradient, 4, trials) - want) <=
        5 * std::sqrt(want * (1 - want) / trials));
}
