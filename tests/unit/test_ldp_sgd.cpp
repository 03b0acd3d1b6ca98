// LDP-SGD client and server (Matsumoto et al. 2022, Alg. 1-2).
#include <cmath>

#include <doctest/doctest.h>

#include "core/error.hpp"
#include "mechanisms/ldp_sgd.hpp"

using namespace dpaudit;

namespace {

// |got - want| <= k standard errors of a binomial proportion over n draws.
void check_proportion(double successes, double n, double p, double k = 5) {
  const double se = std::sqrt(p * (1 - p) / n);
  CHECK(std::abs(successes / n - p) <= k * se);
}

// Fraction of reports of `x` in the hemisphere {u : <u, x> > 0}.
double hemisphere_fraction(const Eigen::VectorXd& x, const LdpSgdConfig& config, int trials,
                           std::uint64_t seed) {
  int inside = 0;
  Eigen::VectorXd report(x.size());
  for (int t = 0; t < trials; ++t) {
    PhiloxStream rng(seed, static_cast<std::uint64_t>(t));
    ldp_sgd_randomize(x, config, rng, report);
    inside += report.dot(x) > 0;
  }
  return static_cast<double>(inside) / trials;
}

}  // namespace

TEST_CASE("keep probability is e^eps/(1+e^eps)") {
  // mpmath 1.2.1: 1/(1+exp(-1)) = 0.73105857863000487925
  CHECK(ldp_sgd_keep_probability(1) == doctest::Approx(0.73105857863000487925).epsilon(1e-15));
  CHECK(ldp_sgd_keep_probability(800) == 1.0);  // no overflow for large eps
  CHECK(ldp_sgd_keep_probability(0.5) == doctest::Approx(std::exp(0.5) / (1 + std::exp(0.5))));
}

TEST_CASE("unbiasing constant against a direct computation for small d") {
  const LdpSgdConfig unit{1, 1};
  const double coth_half = 2.1639534137386528488;  // mpmath: 1/tanh(1/2)
  // d sqrt(pi)/2 Gamma((d+1)/2)/Gamma(d/2+1): d=1 -> 1, d=2 -> pi/2, d=3 -> 2 exactly.
  CHECK(ldp_sgd_unbiasing_constant(1, unit) == doctest::Approx(coth_half).epsilon(1e-14));
  CHECK(ldp_sgd_unbiasing_constant(2, unit) ==
        doctest::Approx(M_PI / 2 * coth_half).epsilon(1e-14));
  CHECK(ldp_sgd_unbiasing_constant(3, unit) == doctest::Approx(2 * coth_half).epsilon(1e-14));
  // Direct evaluation with std::tgamma for d = 10 (mpmath: 3.8656315854718158989).
  const double direct10 = 10 * std::sqrt(M_PI) / 2 * std::tgamma(5.5) / std::tgamma(6.0);
  CHECK(direct10 == doctest::Approx(3.8656315854718158989).epsilon(1e-13));
  CHECK(ldp_sgd_unbiasing_constant(10, unit) ==
        doctest::Approx(direct10 * coth_half).epsilon(1e-13));
  // Linear in L; eps = 4: coth(2) = 1.0373147207275480959 (mpmath).
  CHECK(ldp_sgd_unbiasing_constant(100, {4, 2.5}) ==
        doctest::Approx(2.5 * 12.501848174018745379 * 1.0373147207275480959).epsilon(1e-13));
}

TEST_CASE("unbiasing constant does not overflow at d = 1e7") {
  // mpmath 1.2.1, 30 digits: d sqrt(pi)/2 Gamma((d+1)/2)/Gamma(d/2+1) at d = 1e7.
  const double c = ldp_sgd_unbiasing_constant(10'000'000, {1, 1});
  CHECK(std::isfinite(c));
  CHECK(c == doctest::Approx(3963.3271985228298117 * 2.1639534137386528488).epsilon(1e-12));
  // Naive tgamma overflows there, which is why the ratio is evaluated as a ratio.
  CHECK(std::isinf(std::tgamma(5e6)));
}

TEST_CASE("reports are unit vectors, a pure function of the stream") {
  Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(50, -1, 2);
  PhiloxStream a(7, 3), b(7, 3), c(7, 4);
  const Eigen::VectorXd ra = ldp_sgd_randomize(x, {2, 1}, a);
  const Eigen::VectorXd rb = ldp_sgd_randomize(x, {2, 1}, b);
  const Eigen::VectorXd rc = ldp_sgd_randomize(x, {2, 1}, c);
  CHECK(ra.norm() == doctest::Approx(1).epsilon(1e-14));
  CHECK(ra == rb);
  CHECK(ra != rc);
  // Draws: projection coin, d normals, response coin (2 + d + 2 words).
  CHECK(a.position() == 2 + 50 + 2);
}

TEST_CASE("report lies in z's hemisphere with probability e^eps/(1+e^eps)") {
  // ||x|| >= L: the norm projection keeps the sign, so P(<report, x> > 0) = p(eps).
  Eigen::VectorXd x = Eigen::VectorXd::Constant(20, 1.0);  // norm sqrt(20) > L = 1
  for (double eps : {0.5, 1.0, 4.0})
    check_proportion(hemisphere_fraction(x, {eps, 1}, 20000, 11) * 20000, 20000,
                     ldp_sgd_keep_probability(eps));
}

TEST_CASE("a short gradient's sign is flipped by the norm projection") {
  // ||x|| = a L: P(<report, x> > 0) = (1/2 + a/2) p + (1/2 - a/2)(1 - p) = 1/2 + a (p - 1/2).
  Eigen::VectorXd x = Eigen::VectorXd::Zero(8);
  x(2) = 0.3;  // L = 1.5, a = 0.2
  const double p = ldp_sgd_keep_probability(2);
  check_proportion(hemisphere_fraction(x, {2, 1.5}, 20000, 12) * 20000, 20000,
                   0.5 + 0.2 * (p - 0.5));
  // A zero gradient gives a uniform report: each half-space has probability 1/2.
  Eigen::VectorXd zero = Eigen::VectorXd::Zero(8), e0 = Eigen::VectorXd::Unit(8, 0);
  int positive = 0;
  for (int t = 0; t < 20000; ++t) {
    PhiloxStream rng(13, static_cast<std::uint64_t>(t));
    positive += ldp_sgd_randomize(zero, {4, 1}, rng).dot(e0) > 0;
  }
  check_proportion(positive, 20000, 0.5);
}

TEST_CASE("the scaled mean of many reports approaches x (unbiasedness)") {
  const int d = 5, n = 200000;
  Eigen::VectorXd x(d);
  x << 0.3, -0.2, 0.1, 0.4, 0.0;  // ||x|| = 0.548 < L = 1: clipping is the identity
  const LdpSgdConfig config{1, 1};
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(d), report(d);
  for (int t = 0; t < n; ++t) {
    PhiloxStream rng(21, static_cast<std::uint64_t>(t));
    ldp_sgd_randomize(x, config, rng, report);
    sum += report;
  }
  const double constant = ldp_sgd_unbiasing_constant(d, config);
  const Eigen::VectorXd estimate = constant * sum / n;
  // Each coordinate of a unit report has variance 1/d, so the estimate's standard
  // error is constant / sqrt(d n) (about 0.0066 here); allow 5 standard errors.
  const double tolerance = 5 * constant / std::sqrt(double(d) * n);
  for (int i = 0; i < d; ++i) CHECK(std::abs(estimate(i) - x(i)) <= tolerance);
  // The constant as printed in Matsumoto et al. 2022, Alg. 2 (without the factor d) would give x /
  // d.
  CHECK((estimate / d - x).norm() > 0.3);
}

TEST_CASE("a clipped gradient is estimated as its clipped version") {
  Eigen::VectorXd x(3);
  x << 3, 0, 4;  // ||x|| = 5, L = 2: clipped to (1.2, 0, 1.6)
  const LdpSgdConfig config{2, 2};
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(3), report(3);
  const int n = 100000;
  for (int t = 0; t < n; ++t) {
    PhiloxStream rng(22, static_cast<std::uint64_t>(t));
    ldp_sgd_randomize(x, config, rng, report);
    sum += report;
  }
  const double constant = ldp_sgd_unbiasing_constant(3, config);
  const Eigen::VectorXd estimate = constant * sum / n;
  const double tolerance = 5 * constant / std::sqrt(3.0 * n);
  CHECK(std::abs(estimate(0) - 1.2) <= tolerance);
  CHECK(std::abs(estimate(1)) <= tolerance);
  CHECK(std::abs(estimate(2) - 1.6) <= tolerance);
}

TEST_CASE("server: learning rate, projection and one step") {
  const LdpSgdConfig config{1, 2};
  // eta = ||C|| sqrt(n) / (L sqrt(d)) tanh(eps/2) = 3 * 2 / (2 * 3) * tanh(1/2).
  CHECK(ldp_sgd_learning_rate(3, 4, 9, config) == doctest::Approx(std::tanh(0.5)).epsilon(1e-15));
  Eigen::VectorXd theta(2);
  theta << 3, 4;
  project_onto_ball(theta, 10);
  CHECK(theta(0) == 3);
  project_onto_ball(theta, 1);
  CHECK(theta(0) == doctest::Approx(0.6));
  CHECK(theta(1) == doctest::Approx(0.8));

  // theta <- Proj_C(theta - eta * constant * sum / n): d = 1, n = 2, ||C|| = 100.
  // d = 1: constant = L coth(eps/2), eta = ||C|| sqrt(2) / L tanh(eps/2), so the step is
  // ||C|| sqrt(2) / 2 * sum = 100 * sqrt(2) / 2 * 0.5.
  Eigen::VectorXd one(1), sum(1);
  one << 1;
  sum << 0.5;
  ldp_sgd_server_step(one, sum, 2, 100, ldp_sgd_learning_rate(100, 2, 1, config), config);
  CHECK(one(0) == doctest::Approx(1 - 100 * std::sqrt(2.0) / 2 * 0.5).epsilon(1e-13));
  // Projection onto the ball of radius 100 is active: -34.35 stays inside; a larger
  // step is clipped to the boundary.
  sum << -5;
  ldp_sgd_server_step(one, sum, 2, 100, ldp_sgd_learning_rate(100, 2, 1, config), config);
  CHECK(one(0) == doctest::Approx(100));
}

TEST_CASE("bad parameters are usage errors") {
  CHECK_THROWS_AS(validate({0, 1}), UsageError);
  CHECK_THROWS_AS(validate({-1, 1}), UsageError);
  CHECK_THROWS_AS(validate({1, 0}), UsageError);
  CHECK_THROWS_AS(validate({INFINITY, 1}), UsageError);
  CHECK_THROWS_AS(ldp_sgd_learning_rate(0, 1, 1, {1, 1}), UsageError);
  CHECK_THROWS_AS(ldp_sgd_unbiasing_constant(0, {1, 1}), UsageError);
  Eigen::VectorXd theta(2), sum(3);
  CHECK_THROWS_AS(ldp_sgd_server_step(theta, sum, 1, 1, 0.1, {1, 1}), DataError);
}
