#include <doctest/doctest.h>

#include <limits>
#include <vector>

#include "accounting/empirical_composition.hpp"
#include "core/error.hpp"

using namespace dpaudit;

namespace {

// Andrew et al. 2024, Sec. 5.4's run: q = 128/60000, one epoch of 469 rounds, audits every 100
// rounds.
EmpiricalCompositionOptions run_options(AuditCover cover) {
  EmpiricalCompositionOptions o;
  o.q = 128.0 / 60000;
  o.total_rounds = 469;
  o.round_delta = 0.01;
  o.delta = 1e-5;
  o.cover = cover;
  o.sigma_if_inf = 0.2;
  return o;
}

std::vector<AuditEpsilon> constant(double eps) {
  return {{0, eps}, {100, eps}, {200, eps}, {300, eps}, {400, eps}};
}

}  // namespace

TEST_CASE("each audit stands for its rounds; both coverings cover the run once") {
  const auto back = compose_empirical(constant(1), run_options(AuditCover::backward));
  CHECK(back.covered == std::vector<long long>{1, 100, 100, 100, 168});
  const auto fwd = compose_empirical(constant(1), run_options(AuditCover::forward));
  CHECK(fwd.covered == std::vector<long long>{100, 100, 100, 100, 69});
  // A constant eps_r composes to the same eps_hat whichever audit covers which round.
  CHECK(back.epsilon == doctest::Approx(fwd.epsilon).epsilon(1e-12));
}

TEST_CASE("GetNoise and GetPrivacy: values computed with rdp-compose") {
  // GetNoise of Maddock et al. 2023, Alg. 2 (rdp-compose --eps E --q 1 --steps 1 --delta
  // 0.01, one Gaussian step at delta 1/n, n = 100): eps_r 3 -> sigma 0.936; 0.15 (the floor)
  // -> 9.20; and GetPrivacy over the run of Andrew et al. 2024, Sec. 5.4 (q 128/60000, 469
  // rounds, delta 1e-5): a constant eps_r of 3 -> eps_hat 0.92, 3.88 -> 1.52, 2 -> 0.44.
  const auto three = compose_empirical(constant(3), run_options(AuditCover::backward));
  CHECK(three.sigma[0] == doctest::Approx(0.936).epsilon(1e-3));
  CHECK(three.epsilon == doctest::Approx(0.92).epsilon(0.01));
  CHECK(compose_empirical(constant(3.88), run_options(AuditCover::backward)).epsilon ==
        doctest::Approx(1.52).epsilon(0.01));
  CHECK(compose_empirical(constant(2), run_options(AuditCover::backward)).epsilon ==
        doctest::Approx(0.44).epsilon(0.02));
  const auto zero = compose_empirical(constant(0), run_options(AuditCover::backward));
  CHECK(zero.sigma[0] == doctest::Approx(9.20).epsilon(1e-3));
  // The running estimate grows with the rounds covered.
  for (std::size_t j = 1; j < three.running_eps.size(); ++j)
    CHECK(three.running_eps[j] > three.running_eps[j - 1]);
}

TEST_CASE("an infinite eps_r uses the run's sigma; bad audits are refused") {
  const double inf = std::numeric_limits<double>::infinity();
  const auto r = compose_empirical({{0, 1}, {100, inf}}, run_options(AuditCover::forward));
  CHECK(r.sigma[1] == 0.2);
  auto o = run_options(AuditCover::forward);
  CHECK_THROWS_AS(compose_empirical({}, o), UsageError);
  CHECK_THROWS_AS(compose_empirical({{100, 1}, {100, 1}}, o), UsageError);
  CHECK_THROWS_AS(compose_empirical({{469, 1}}, o), UsageError);
  CHECK_THROWS_AS(compose_empirical({{0, -1}}, o), UsageError);
  o.sigma_if_inf = 0;
  CHECK_THROWS_AS(compose_empirical({{0, inf}}, o), UsageError);
}

TEST_CASE("segment rule (the first public code): eps_r is the eps of its whole segment") {
  const double inf = std::numeric_limits<double>::infinity();
  auto o = run_options(AuditCover::backward);
  o.rule = EmpiricalRule::segment;
  o.sigma_if_inf = 0;  // not needed: infinite audits are skipped
  // One finite audit stands for the whole run: eps_hat is its eps_r (the noise was chosen so).
  const auto one = compose_empirical({{0, inf}, {100, 2.5}, {200, inf}}, o);
  CHECK(one.covered == std::vector<long long>{0, 469, 0});
  CHECK(one.sigma[0] == inf);
  CHECK(one.epsilon == doctest::Approx(2.5).epsilon(1e-6));
  CHECK(one.running_eps == std::vector<double>{inf, one.epsilon, one.epsilon});
  // tests/golden/canife_composition.py (RDP by quadrature, brentq on each segment's noise).
  const auto three = compose_empirical(constant(3), o);
  CHECK(three.covered == std::vector<long long>{1, 100, 100, 100, 168});
  CHECK(three.sigma[1] == doctest::Approx(0.57696335485189).epsilon(1e-5));
  CHECK(three.epsilon == doctest::Approx(3.4339565440691926).epsilon(1e-5));
  // Skipped audits' rounds join the next finite audit's, the trailing ones the last finite's.
  const auto mixed = compose_empirical({{0, inf}, {100, 3}, {200, inf}, {300, 2}, {400, inf}}, o);
  CHECK(mixed.covered == std::vector<long long>{0, 101, 0, 368, 0});
  CHECK(mixed.epsilon == doctest::Approx(3.029678442444057).epsilon(1e-5));
  CHECK(mixed.running_eps[0] == inf);
  CHECK(mixed.running_eps[2] == inf);
  CHECK(mixed.running_eps[4] == mixed.epsilon);
  // Every audit separated: nothing measured, eps_hat inf.
  CHECK(compose_empirical({{0, inf}, {100, inf}}, o).epsilon == inf);
  // The same audits under Alg. 2's one-step rule need the run's sigma for the infinite ones.
  o.rule = EmpiricalRule::one_step;
  CHECK_THROWS_AS(compose_empirical({{0, inf}, {100, 2.5}}, o), UsageError);
}
