#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <boost/math/distributions/normal.hpp>

#include "accounting/analytic_gaussian.hpp"
#include "accounting/pld.hpp"
#include "accounting/rdp.hpp"
#include "accounting/tradeoff_curve.hpp"
#include "core/error.hpp"

using namespace dpaudit;

namespace {

// The Gaussian mechanism's exact trade-off curve G_mu(x) = Phi(Phi^-1(1 - x) - mu)
// (Dong, Roth & Su 2022, Eq. 6), as Phi(-(Phi^-1(x) + mu)) so small x keep their digits.
double gaussian_tradeoff(double mu, double x) {
  if (x <= 0) return 1;
  if (x >= 1) return 0;
  const boost::math::normal n;
  return boost::math::cdf(boost::math::complement(n, boost::math::quantile(n, x) + mu));
}

// The curve's own privacy profile, delta_f(eps) = max_x (1 - f(x) - e^eps x), attained at a
// vertex (the curve is piecewise linear), and the smallest eps with delta_f(eps) <= delta
// (bisection; delta_f decreases in eps).
double curve_delta(const TradeoffCurve& f, double eps) {
  double d = 0;
  for (const TradeoffVertex& v : f.vertices) d = std::max(d, 1 - v.fnr - std::exp(eps) * v.fpr);
  return d;
}
double curve_epsilon(const TradeoffCurve& f, double delta) {
  double lo = 0, hi = 100;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    (curve_delta(f, mid) <= delta ? hi : lo) = mid;
  }
  return hi;
}

// The largest G_mu(x) - f(x) and the smallest over x = i / n and a log grid down to 1e-9.
struct Gap {
  double above = -1, below = 1;  // max and min of G - f
};
Gap gap_to_gaussian(const TradeoffCurve& f, double mu) {
  Gap g;
  std::vector<double> xs;
  for (int i = 0; i <= 20000; ++i) xs.push_back(i / 20000.0);
  for (int i = 0; i <= 900; ++i) xs.push_back(std::pow(10.0, -9 + i / 100.0));
  for (double x : xs) {
    const double d = gaussian_tradeoff(mu, x) - f(x);
    g.above = std::max(g.above, d);
    g.below = std::min(g.below, d);
  }
  return g;
}

}  // namespace

TEST_CASE(
    "pure DP: (eps, 0) gives the three vertices (0,1), (x*,x*), (1,0) with x* = 1/(1+e^eps)") {
  for (double eps : {0.0, 0.5, 1.0, 4.0, 20.0}) {
    const TradeoffCurve f = tradeoff_envelope({{eps, 0}});
    const double x = 1 / (1 + std::exp(eps));
    REQUIRE(f.vertices.size() == 3);  // eps 0: the line 1 - x, (1/2, 1/2) on it
    // Every vertex lowered by 1e-15 for rounding, never raised.
    CHECK(f.vertices[0].fpr == 0);
    CHECK(f.vertices[0].fnr == doctest::Approx(1).epsilon(2e-15));
    CHECK(f.vertices[0].fnr <= 1);
    CHECK(f.vertices[1].fpr == doctest::Approx(x).epsilon(1e-14));
    CHECK(f.vertices[1].fnr == f.vertices[1].fpr);
    CHECK(f.vertices[1].fpr <= x);
    CHECK(f.vertices[2].fpr == doctest::Approx(1).epsilon(2e-15));
    CHECK(f.vertices[2].fnr == 0);
    // f(x) between the vertices: 1 - e^eps x on the left, e^-eps (1 - x) on the right.
    CHECK(f(x / 2) == doctest::Approx(1 - std::exp(eps) * x / 2).epsilon(1e-13));
    CHECK(f((1 + x) / 2) == doctest::Approx(std::exp(-eps) * (1 - (1 + x) / 2)).epsilon(1e-13));
    CHECK(f(1) == 0);
  }
}

TEST_CASE("(eps, delta) and two pairs: the vertices in closed form") {
  // One pair: (0, 1 - delta), ((1 - delta)/(1 + e^eps), same), (1 - delta, 0).
  const double eps = 1.5, delta = 0.01;
  TradeoffCurve f = tradeoff_envelope({{eps, delta}});
  REQUIRE(f.vertices.size() == 3);
  CHECK(f.vertices[0].fnr == doctest::Approx(0.99).epsilon(1e-14));
  CHECK(f.vertices[1].fpr == doctest::Approx(0.99 / (1 + std::exp(1.5))).epsilon(1e-14));
  CHECK(f.vertices[2].fpr == doctest::Approx(0.99).epsilon(1e-14));
  // Two pairs, (2, 1e-6) and (0.5, 0.1): the lines 1 - 1e-6 - e^2 x and 0.9 - e^0.5 x meet
  // at x1 = (0.1 - 1e-6) / (e^2 - e^0.5); the second meets the diagonal at 0.9 / (1 + e^0.5).
  f = tradeoff_envelope({{0.5, 0.1}, {2, 1e-6}, {1, 0.5}});  // (1, 0.5) is below both: no vertex
  const double x1 = (0.1 - 1e-6) / (std::exp(2.0) - std::exp(0.5));
  const double y1 = 0.9 - std::exp(0.5) * x1;
  const double d = 0.9 / (1 + std::exp(0.5));
  REQUIRE(f.vertices.size() == 5);
  const std::vector<std::pair<double, double>> want{
      {0, 1 - 1e-6}, {x1, y1}, {d, d}, {y1, x1}, {1 - 1e-6, 0}};
  for (std::size_t i = 0; i < want.size(); ++i) {
    CAPTURE(i);
    CHECK(f.vertices[i].fpr == doctest::Approx(want[i].first).epsilon(1e-13));
    CHECK(f.vertices[i].fnr == doctest::Approx(want[i].second).epsilon(1e-13));
  }
  // Symmetric: f(f(x)) = x on the strictly decreasing part.
  for (double x : {0.001, 0.02, 0.2, 0.5}) CHECK(f(f(x)) == doctest::Approx(x).epsilon(1e-12));
  // Pairs that say nothing: the curve 0.
  f = tradeoff_envelope({{1, 1}, {3, 2}});
  REQUIRE(f.vertices.size() == 1);
  CHECK(f(0.3) == 0);
}

TEST_CASE(
    "the Gaussian mechanism's exact profile: the envelope lies under G_mu, within 2e-6 of it") {
  // Exact pairs of the Gaussian mechanism (Balle & Wang 2018) on 2,001 eps from 0 to 12:
  // the envelope is a lower bound of G_mu by construction, and the gap is the grid's.
  const double sigma = 0.8, mu = 1 / sigma;
  std::vector<EpsDelta> pairs;
  for (int i = 0; i <= 2000; ++i)
    pairs.push_back({12.0 * i / 2000, gaussian_mechanism_delta(sigma, 12.0 * i / 2000)});
  const Gap g = gap_to_gaussian(tradeoff_envelope(pairs), mu);
  CHECK(g.below >= -1e-14);
  CHECK(g.above <= 2e-6);  // 1.4e-6 measured
  CHECK(g.above > 1e-8);   // a finite grid cannot be exact
}

TEST_CASE("the PLD's curve of the Gaussian mechanism: under G_mu, within 4e-5 max(1, mu)") {
  // q = 1: T steps at sigma are mu-GDP with mu = sqrt(T) / sigma (DRS Cor. 3.3), G_mu exact.
  // The gap is the PLD's own (its pessimistic lattice, relative variance error 1e-4: 3e-5 at
  // mu = 1 and 1e-4 at mu = 5, measured); the grid's share is 1/20 of it (the exact pairs
  // on the same grid: 7e-7 at mu = 1, 5e-6 at mu = 5).
  for (const auto& [sigma, steps] : {std::pair{1.0, 1LL}, {0.5, 1LL}, {4.0, 9LL}, {2.0, 100LL}}) {
    CAPTURE(sigma);
    const double mu = std::sqrt(double(steps)) / sigma;
    const TradeoffCurve f = pld_tradeoff_curve({{sigma, 1, steps}});
    const Gap g = gap_to_gaussian(f, mu);
    CHECK(g.below >= -1e-14);
    CHECK(g.above <= 4e-5 * std::max(1.0, mu));
    // The curve's own eps at delta 1e-5 sits in the PLD's interval (to the grid's 1e-4).
    const PldInterval eps = PldAccountant({{sigma, 1, steps}}).epsilon(1e-5);
    CHECK(curve_epsilon(f, 1e-5) >= eps.lower);
    CHECK(curve_epsilon(f, 1e-5) <= eps.upper * (1 + 1e-4));
    CHECK(f.vertices.front().fnr >= 1 - 1.001e-12);  // delta at the grid's end: 1e-12
  }
}

TEST_CASE("DP-SGD's curve: PLD's is at or above RDP's, both carry their accountant's eps") {
  // Nasr et al. 2021's CI-gate run: sigma 2.248, q 0.1, 100 steps (Poisson).
  const std::vector<AccountingEvent> run{{2.248, 0.1, 100}};
  const TradeoffCurve pld = pld_tradeoff_curve(run);
  const TradeoffCurve rdp = rdp_tradeoff_curve(run, default_rdp_orders());
  for (double delta : {1e-3, 1e-5, 1e-8}) {
    CAPTURE(delta);
    const PldInterval eps = PldAccountant(run).epsilon(delta);
    CHECK(curve_epsilon(pld, delta) >= eps.lower);
    CHECK(curve_epsilon(pld, delta) <= eps.upper * (1 + 1e-4));
    const double r = rdp_epsilon(run, delta).epsilon;
    CHECK(curve_epsilon(rdp, delta) >= eps.lower);
    CHECK(curve_epsilon(rdp, delta) <= r * (1 + 1e-3));
    CHECK(curve_epsilon(rdp, delta) >= r * (1 - 1e-3));
  }
  // PLD's claim is the stronger: at or above RDP's (to the grids' 1e-5).
  for (int i = 0; i <= 1000; ++i) CHECK(pld(i / 1000.0) >= rdp(i / 1000.0) - 1e-5);
  // [golden] tests/golden/run_accountant.py (numpy FFT PLD on a 2e-5 lattice, both rounding
  // ways; RDP by quadrature at these orders): the curve of the run's privacy profile at 0.01
  // lies in [0.96746, 0.96753], RDP's is 0.96087 (a supremum over delta; our grids reach at
  // most that): 0.0066 apart.
  CHECK(pld(0.01) > rdp(0.01) + 0.005);
  CHECK(pld(0.01) <= 0.96753);
  CHECK(pld(0.01) >= 0.96746 - 1e-4);
  CHECK(rdp(0.01) <= 0.96087);
  CHECK(rdp(0.01) >= 0.96087 - 1e-4);
}

TEST_CASE("CSV: written and read back bit for bit; bad curves named by row") {
  const TradeoffCurve f = tradeoff_envelope({{0.5, 0.1}, {2, 1e-6}});
  const std::string text = tradeoff_curve_csv(f);
  CHECK(text.rfind("fpr,fnr\n0,0.999998999", 0) == 0);
  const auto dir = std::filesystem::temp_directory_path();
  const std::string path =
      (dir / ("test_tradeoff_curve_" + std::to_string(::getpid()) + ".csv")).string();
  const auto read = [&](const std::string& content) {
    std::ofstream(path) << content;
    return read_tradeoff_curve(path);
  };
  const TradeoffCurve back = read(text);
  REQUIRE(back.vertices.size() == f.vertices.size());
  for (std::size_t i = 0; i < f.vertices.size(); ++i) {
    CHECK(back.vertices[i].fpr == f.vertices[i].fpr);
    CHECK(back.vertices[i].fnr == f.vertices[i].fnr);
  }
  // Columns by name, in any order.
  CHECK(read("fnr,fpr\n1,0\n0,1\n")(0.25) == 0.75);
  const auto error_of = [&](const std::string& content) -> std::string {
    try {
      read(content);
    } catch (const DataError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(error_of("fpr,fnr\n0.1,0.9\n1,0\n").find("the first vertex must have fpr 0, not 0.1") !=
        std::string::npos);
  CHECK(error_of("fpr,fnr\n0,1\n0.5,0.5\n0.5,0.4\n1,0\n").find("row 4") != std::string::npos);
  CHECK(error_of("fpr,fnr\n0,0.9\n0.5,0.95\n1,0\n").find("fnr 0.95 increases") !=
        std::string::npos);
  CHECK(error_of("fpr,fnr\n0,1\n0.5,0.6\n1,0\n").find("above 1 - fpr") != std::string::npos);
  CHECK(error_of("fpr,fnr\n0,1\n0.5,0.4\n").find("the last vertex must have fnr 0") !=
        std::string::npos);
  CHECK(error_of("fpr,fnr\n0,1\n1.5,0\n").find("outside [0,1]^2") != std::string::npos);
  CHECK(error_of("fpr,fnr\n").find("no vertices") != std::string::npos);
  CHECK(error_of("fpr,fnr\n0,nan\n").find("not a finite number") != std::string::npos);
  CHECK(error_of("fpr,x\n0,1\n").find("fnr") != std::string::npos);
  std::remove(path.c_str());
  CHECK_THROWS_AS(f(1.5), UsageError);
  CHECK_THROWS_AS(tradeoff_envelope({{-1, 0.1}}), UsageError);
  CHECK_THROWS_AS(tradeoff_envelope({{INFINITY, 0.1}}), UsageError);
}
