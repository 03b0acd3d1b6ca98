// games/canife_audit: an audit's eps_r goes through the estimator interface (the "canife" row
// of stats/estimate.cpp) and is Maddock et al. 2023's rule at delta 1/n, by hand here.
#include <cmath>
#include <limits>
#include <vector>

#include <doctest/doctest.h>

#include "data/datasets.hpp"
#include "games/canife_audit.hpp"
#include "random/philox_stream.hpp"

using namespace dpaudit;
using namespace dpaudit;

namespace {

Audit audit_of(std::size_t round, std::vector<double> scores) {
  Audit a;
  a.round = round;
  a.scores = std::move(scores);
  return a;
}

}  // namespace

TEST_CASE("split_scores: mock round k holds the canary when k is odd") {
  const Audit a = audit_of(0, {0, 3, 1, 4, 2, 6});
  std::vector<double> in, out;
  split_scores(a, in, out);
  CHECK(in == std::vector<double>{3, 4, 6});
  CHECK(out == std::vector<double>{0, 1, 2});
}

TEST_CASE("estimate_audit_epsilons: Maddock et al. 2023's eps_r at delta 1/n, per audit") {
  // Round 20: out 0, 1, 2, 5 and in 3, 4, 6, 7 (n = 8, delta 1/8). "In when score >= gamma":
  // gamma = 4 has FPR 1/4 (5) and FNR 1/4 (3), eps = log((1 - 1/8 - 1/4) / (1/4)) = log 2.5;
  // gamma = 5 gives log((1 - 1/8 - 1/2) / (1/4)) = log 1.5; the thresholds where one rate is
  // 0 (3, 6) are skipped. Round 0: separated scores, eps_r = inf.
  std::vector<Audit> audits{audit_of(0, {0, 1, 0.1, 0.9}), audit_of(20, {0, 3, 1, 4, 2, 6, 5, 7})};
  estimate_audit_epsilons(audits);
  CHECK(std::isinf(audits[0].eps.epsilon));
  CHECK(audits[1].eps.epsilon == doctest::Approx(std::log(2.5)).epsilon(1e-12));
  CHECK(audits[1].eps.threshold == 4);
  CHECK(audits[1].eps.false_positives == 1);
  CHECK(audits[1].eps.false_negatives == 1);
  // the interval is canife_epsilon's, two-sided at alpha 0.05
  const CanifeEpsilon direct = canife_epsilon({3, 4, 6, 7}, {0, 1, 2, 5}, 1.0 / 8, 0.05);
  CHECK(audits[1].eps.epsilon_lower == direct.epsilon_lower);
  CHECK(audits[1].eps.epsilon_upper == direct.epsilon_upper);
  CHECK(direct.epsilon_lower < std::log(2.5));
  CHECK(direct.epsilon_upper > std::log(2.5));
  std::vector<Audit> none;
  estimate_audit_epsilons(none);  // nothing to estimate
  CHECK(none.empty());
}

TEST_CASE("initial_canary: uniform pixels and class, or a design example") {
  Dataset pool{{1, 2, 2}, {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f}, {3, 7}, 10};
  PhiloxStream rng(1, 2);
  const CanaryStart s = initial_canary(CanaryInit::sample, pool, 1, rng);
  CHECK(s.x == std::vector<float>{0.5f, 0.6f, 0.7f, 0.8f});
  CHECK(s.label == 7);
  const CanaryStart r = initial_canary(CanaryInit::random, pool, 1, rng);
  REQUIRE(r.x.size() == 4);
  for (float v : r.x) CHECK((v >= 0 && v < 1));
  CHECK((r.label >= 0 && r.label < 10));
}
