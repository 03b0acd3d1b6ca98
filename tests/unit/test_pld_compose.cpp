// FFT composition of discrete PLDs against closed forms: the n-fold composition of a
// two-point PLD is binomial; heterogeneous factors against the direct convolution.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "accounting/pld_compose.hpp"
#include "core/error.hpp"
#include "relative_close.hpp"

using namespace dpaudit;

namespace {

double binomial(int n, int k, double p) {
  return std::exp(std::lgamma(n + 1) - std::lgamma(k + 1) - std::lgamma(n - k + 1) +
                  k * std::log(p) + (n - k) * std::log1p(-p));
}

// the mass the composition puts at lattice index k
double at(const ComposedPld& c, long long k) {
  const long long i = k - c.pld.first;
  return i >= 0 && i < static_cast<long long>(c.pld.mass.size())
             ? c.pld.mass[static_cast<std::size_t>(i)]
             : 0.0;
}

}  // namespace

TEST_CASE("n-fold composition of a two-point PLD is binomial") {
  // losses -h (mass 0.3) and +2h (mass 0.7), 40 times: index -40 + 3k with Binomial(40, 0.7)
  const PldPmf one{0.01, -1, {0.3, 0.0, 0.0, 0.7}, 0};
  const std::vector<PldFactor> f{{&one, 40}};
  const CompositionPlan plan = plan_composition(f, 1e-16);
  CHECK(plan.lo >= -40);
  CHECK(plan.hi <= 80);
  const ComposedPld c = compose_plds(f, plan);
  double error = 0;  // l2 distance from the binomial (its own rounding: 1e-15 relative)
  for (long long k = c.pld.first; k < c.pld.first + static_cast<long long>(c.pld.mass.size());
       ++k) {
    const long long j = k + 40;
    const double want =
        j >= 0 && j % 3 == 0 && j / 3 <= 40 ? binomial(40, static_cast<int>(j / 3), 0.7) : 0.0;
    CHECK(std::abs(at(c, k) - want) <= 1e-12 * want + c.roundoff);
    error += (at(c, k) - want) * (at(c, k) - want);
  }
  CHECK(std::sqrt(error) <= c.roundoff);  // the proven bound covers the error
  CHECK(c.roundoff < 1e-12);              // and is not far above it: 40 x ~1e-14
}

TEST_CASE("a long composition: the low frequencies in long double keep the bound small in double") {
  // 20,000-fold composition of the two-point PLD above: Binomial(20000, 0.7) at -20000 + 3k,
  // the exact masses in long double (lgammal: ~1e-14 relative at 2e4, 1e-16 absolute here).
  // The forward transform's error is amplified 20,000 times near frequency 0; recomputed there
  // directly in long double (pld_compose.cpp, DirectTransform): measured when written, the
  // error 3.8e-16 and the proven bound 1.6e-14; with the double transform there, 1.5e-13 and
  // 7.2e-11.
  const int n = 20000;
  const PldPmf one{0.01, -1, {0.3, 0.0, 0.0, 0.7}, 0};
  const std::vector<PldFactor> f{{&one, n}};
  const ComposedPld c = compose_plds(f, plan_composition(f, 1e-16));
  double error = 0;
  for (long long k = c.pld.first; k < c.pld.first + static_cast<long long>(c.pld.mass.size());
       ++k) {
    const long long j = k + n;
    long double want = 0;
    if (j >= 0 && j % 3 == 0 && j / 3 <= n) {
      const long double i = static_cast<long double>(j / 3);
      // the masses as stored (0.3 and 0.7 rounded to double: 1e-12 relative at this count)
      want = expl(lgammal(n + 1.0L) - lgammal(i + 1) - lgammal(n - i + 1) +
                  i * logl(static_cast<long double>(0.7)) +
                  (n - i) * logl(static_cast<long double>(0.3)));
    }
    const double diff = at(c, k) - static_cast<double>(want);
    error += diff * diff;
  }
  INFO("l2 error " << std::sqrt(error) << ", bound " << c.roundoff);
  CHECK(std::sqrt(error) <= c.roundoff + 1e-16);
  CHECK(c.roundoff < 1e-13);
  CHECK(std::sqrt(error) < 1e-14);
}

TEST_CASE("the roundoff bound is the formula of pld_compose.cpp") {
  // One point mass at 0 on a window of 1024: its transform is exactly 1 at every
  // frequency (every butterfly adds 0), so with m = 1 the bound is, per unit sqrt(n),
  //   G gamma_F ||x||_2 + rho_F / (1 - rho_F) + gamma_F + 2 F G,
  // gamma_F = 2 (t + 1) eta / (1 - (t + 1) eta), eta = 16u + gamma_4 (sqrt 2 + 16u), t = 10,
  // rho_F = sqrt(2) gamma_2 (one product), F = 1e-140, and ||x||_1 = ||x||_2 = G = 1 up to
  // the (n + 1) 2^-51 allowed for their sums.
  const PldPmf point{0.5, 0, {1.0}, 0};
  const ComposedPld c = compose_plds({{&point, 1}}, CompositionPlan{0, 1023, 0});
  REQUIRE(c.pld.mass.size() == 1024);
  CHECK(close(c.pld.mass[0], 1.0, 1e-15));
  const double u = std::ldexp(1.0, -53), gamma4 = 4 * u / (1 - 4 * u);
  const double eta = 16 * u + gamma4 * (std::sqrt(2.0) + 16 * u),
               gamma_f = 2 * 11 * eta / (1 - 11 * eta);
  const double rho_f = std::sqrt(2.0) * 2 * u / (1 - 2 * u),
               slack = 1 + 1025 * std::ldexp(1.0, -51);
  const double want = slack * gamma_f * slack + rho_f / (1 - rho_f) + gamma_f + 2e-140 * slack;
  CHECK(close(c.roundoff, want, 1e-12));
  CHECK(c.roundoff < 2e-13);
  // in long double (asked for with a bound below the double one) every constant shrinks
  // by 2^-11, and the result's rounding to double adds 2^-52 ||c||_2
  const ComposedPld l = compose_plds({{&point, 1}}, CompositionPlan{0, 1023, 0}, 1e-20);
  CHECK(close(l.roundoff, std::ldexp(1.0, -11) * (want - 2e-140 * slack) + std::ldexp(1.0, -52),
              0.01));
  CHECK(close(l.pld.mass[0], 1.0, 1e-15));
}

TEST_CASE("heterogeneous factors: the direct convolution, and +inf mass composes") {
  const PldPmf a{0.1, -2, {0.1, 0.2, 0.3, 0.4}, 0};  // indices -2..1
  const PldPmf b{0.1, 0, {0.5, 0.0, 0.25}, 0.25};    // indices 0, 2; +inf with 0.25
  const std::vector<PldFactor> f{{&a, 2}, {&b, 1}};
  const ComposedPld c = compose_plds(f, plan_composition(f, 1e-16));
  // direct: a * a * b (finite parts)
  std::vector<double> aa(7, 0.0);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      aa[static_cast<std::size_t>(i + j)] +=
          a.mass[static_cast<std::size_t>(i)] * a.mass[static_cast<std::size_t>(j)];
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 3; ++j) {
      double want = 0;
      for (int jj = 0; jj < 3; ++jj)
        if (i + j - jj >= 0 && i + j - jj < 7)
          want += aa[static_cast<std::size_t>(i + j - jj)] * b.mass[static_cast<std::size_t>(jj)];
      CHECK(std::abs(at(c, -4 + i + j) - want) < 1e-15);
      CHECK(std::abs(at(c, -4 + i + j) - want) <= c.roundoff);
    }
  // P(no step is +inf) = 0.75
  CHECK(close(c.pld.inf_mass, 0.25, 1e-15));
}

TEST_CASE("many factors: composed in groups, the same masses within the roundoff bounds") {
  // 40 distinct three-point factors: compose_grouped (7 groups of 6, each on its own window,
  // then the groups) against one transform per factor on the whole window
  std::vector<PldPmf> steps;
  for (int i = 0; i < 40; ++i) {
    const double p = 0.2 + 0.015 * i;
    steps.push_back(PldPmf{0.05, -1 - i % 3, {p, 0.0, 1 - p - 0.01, 0.01}, 1e-4 * i});
  }
  std::vector<PldFactor> f;
  for (int i = 0; i < 40; ++i) f.push_back({&steps[static_cast<std::size_t>(i)], 5 + i});
  const CompositionPlan plan = plan_composition(f, 1e-16);
  const ComposedPld direct = compose_plds(f, plan), grouped = compose_grouped(f, plan);
  REQUIRE(direct.pld.mass.size() == grouped.pld.mass.size());
  double diff = 0;
  for (std::size_t i = 0; i < direct.pld.mass.size(); ++i)
    diff += (direct.pld.mass[i] - grouped.pld.mass[i]) * (direct.pld.mass[i] - grouped.pld.mass[i]);
  CHECK(std::sqrt(diff) <= direct.roundoff + grouped.roundoff);
  CHECK(close(grouped.pld.inf_mass, direct.pld.inf_mass, 1e-12));
  // each group's window leaves out at most 1e-18 and folds at most that back in
  CHECK(grouped.outside_mass <= plan.outside_mass + 2 * 7 * 1e-18);
  CHECK(grouped.outside_mass >= plan.outside_mass);
}

TEST_CASE("the window holds all but the outside mass") {
  // a long composition: the Chernoff window is far narrower than the support
  const PldPmf one{0.01, -50, std::vector<double>(101, 1.0 / 101), 0};  // uniform on [-0.5, 0.5]
  const std::vector<PldFactor> f{{&one, 10000}};
  const CompositionPlan plan = plan_composition(f, 1e-16);
  // sd of the sum: sqrt(10000 * (101^2 - 1) / 12) lattice steps = 2915.5
  CHECK(plan.hi < 20 * 2916);
  CHECK(plan.lo > -20 * 2916);
  CHECK(plan.outside_mass <= 1e-16);
  const ComposedPld c = compose_plds(f, plan);
  double total = 0;
  for (double m : c.pld.mass) total += m;
  CHECK(std::abs(total - 1) < 1e-12);
}

TEST_CASE("invalid compositions") {
  const PldPmf a{0.1, 0, {1.0}, 0}, b{0.2, 0, {1.0}, 0};
  CHECK_THROWS_AS(plan_composition({}, 1e-16), UsageError);
  CHECK_THROWS_AS(plan_composition({{&a, 0}}, 1e-16), UsageError);
  CHECK_THROWS_AS(plan_composition({{&a, 1}, {&b, 1}}, 1e-16), UsageError);
  CHECK_THROWS_AS(plan_composition({{&a, 1}}, 0), UsageError);
}
