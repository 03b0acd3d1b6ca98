#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/error.hpp"
#include "stats/sweep_maximum.hpp"

using namespace dpaudit;

namespace {

// Exhaustive maximum, the answer the branch and bound must reproduce.
double brute_force(const std::vector<double>& log_fpr, const std::vector<double>& log_fnr,
                   double delta, Sides sides) {
  double best = 0;
  for (std::size_t i = 0; i < log_fpr.size(); ++i)
    best = std::max(best, epsilon_from_log_rates(log_fpr[i], log_fnr[i], delta, sides));
  return best;
}

// A random ROC-like sweep of n rules: FPR counts rise, FNR counts fall.
void random_sweep(std::mt19937_64& rng, std::size_t n, std::vector<double>& log_fpr,
                  std::vector<double>& log_fnr) {
  std::uniform_int_distribution<int> step(0, 3);
  std::vector<double> fp(n), fn(n);
  double a = 0, b = 0;
  for (std::size_t i = 0; i < n; ++i) {
    a += step(rng);
    b += step(rng);
    fp[i] = a;
    fn[n - 1 - i] = b;
  }
  log_fpr.resize(n);
  log_fnr.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    log_fpr[i] = std::log(fp[i] / (a + 1));
    log_fnr[i] = std::log(fn[i] / (b + 1));
  }
}

}  // namespace

TEST_CASE("branch and bound finds the exhaustive maximum") {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = 1 + trial * 7;
    std::vector<double> fpr, fnr;
    random_sweep(rng, n, fpr, fnr);
    const double delta = trial % 3 == 0 ? 0.0 : 1e-3 * trial;
    const Sides sides = trial % 2 ? Sides::both : Sides::tpr_over_fpr;
    const SweepMaximum m = maximize_epsilon(
        n, [&](std::size_t i) { return fpr[i]; }, [&](std::size_t i) { return fnr[i]; }, delta,
        sides);
    CHECK(m.epsilon == brute_force(fpr, fnr, delta, sides));
    CHECK(m.epsilon == epsilon_from_log_rates(fpr[m.index], fnr[m.index], delta, sides));
    CHECK(m.log_fpr == fpr[m.index]);
  }
}

TEST_CASE("a million rules cost far fewer evaluations than rules") {
  // A concave ROC curve: FPR = (i+1)/(n+1), FNR = ((n-i)/(n+1))^8.
  const std::size_t n = 1000000;
  std::vector<double> fpr(n), fnr(n);
  for (std::size_t i = 0; i < n; ++i) {
    fpr[i] = std::log((i + 1.0) / (n + 1.0));
    fnr[i] = 8 * std::log((n - i + 0.0) / (n + 1.0));
  }
  const SweepMaximum m = maximize_epsilon(
      n, [&](std::size_t i) { return fpr[i]; }, [&](std::size_t i) { return fnr[i]; }, 0,
      Sides::both);
  CHECK(m.epsilon == brute_force(fpr, fnr, 0, Sides::both));
  CHECK(m.evaluations < n / 100);
}

TEST_CASE("any criterion that never increases in either rate: a curve test's margin") {
  // criterion(a, b) = f(a) - b with f(x) = (1 - x)^2 on plain rates: the exhaustive maximum,
  // a rule attaining it.
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 1 + trial * 5;
    std::vector<double> fpr, fnr;
    random_sweep(rng, n, fpr, fnr);
    for (double& v : fpr) v = std::exp(v);
    for (double& v : fnr) v = std::exp(v);
    const auto margin = [](double a, double b) { return (1 - a) * (1 - a) - b; };
    const SweepMaximum m = maximize_over_sweep(
        n, [&](std::size_t i) { return fpr[i]; }, [&](std::size_t i) { return fnr[i]; }, margin);
    std::size_t best = 0;
    for (std::size_t i = 1; i < n; ++i)
      if (margin(fpr[i], fnr[i]) > margin(fpr[best], fnr[best])) best = i;
    CHECK(m.epsilon == margin(fpr[best], fnr[best]));
    CHECK(margin(fpr[m.index], fnr[m.index]) == m.epsilon);
    CHECK(m.log_fpr == fpr[best]);
  }
}

TEST_CASE("no rules is an error") {
  CHECK_THROWS_AS(
      maximize_epsilon(
          0, [](std::size_t) { return 0.0; }, [](std::size_t) { return 0.0; }, 0, Sides::both),
      UsageError);
}
