// Nasr et al. 2021's gradient watermark (Crafter 4) and Distinguisher 3's per-step scores.
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include <doctest/doctest.h>
#include <boost/math/distributions/normal.hpp>

#include "adversaries/watermark.hpp"
#include "core/error.hpp"
#include "relative_close.hpp"

using namespace dpaudit;

TEST_CASE("C4 selects the 2n least-moved coordinates, ties by index, alternating signs") {
  // Sorted by (movement, index): 3 (0.0), 1 (0.1), 0, 2, 4 (0.2 each), 5 (0.5).
  const std::vector<float> movement{0.2f, 0.1f, 0.2f, 0.0f, 0.2f, 0.5f};
  Watermark w = select_watermark(movement.data(), movement.size(), 1);
  CHECK(w.coords == std::vector<std::size_t>{1, 3});
  CHECK(w.signs == std::vector<double>{1, -1});
  // The cut falls inside the three-way tie at 0.2: indices 0 and 2 go in, 4 stays out.
  w = select_watermark(movement.data(), movement.size(), 2);
  CHECK(w.coords == std::vector<std::size_t>{0, 1, 2, 3});
  CHECK(w.signs == std::vector<double>{1, -1, 1, -1});
  w = select_watermark(movement.data(), movement.size(), 3);  // all of them
  CHECK(w.coords == std::vector<std::size_t>{0, 1, 2, 3, 4, 5});
  CHECK(w.signs == std::vector<double>{1, -1, 1, -1, 1, -1});
  // All equal: the lowest indices.
  const std::vector<float> flat(7, 1.5f);
  CHECK(select_watermark(flat.data(), flat.size(), 2).coords ==
        std::vector<std::size_t>{0, 1, 2, 3});
}

TEST_CASE("C4's selection refuses no pairs, more coordinates than the model has, and NaN") {
  const std::vector<float> movement{0.3f, 0.1f, 0.2f, 0.4f, 0.5f};
  CHECK_THROWS_AS(select_watermark(movement.data(), movement.size(), 0), std::invalid_argument);
  CHECK_THROWS_AS(select_watermark(movement.data(), movement.size(), 3),
                  std::invalid_argument);  // 6 > 5
  CHECK(select_watermark(movement.data(), movement.size(), 2).coords ==
        std::vector<std::size_t>{0, 1, 2, 3});
  std::vector<float> bad = movement;
  bad[4] = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_AS(select_watermark(bad.data(), bad.size(), 1), std::invalid_argument);
}

TEST_CASE("the watermark gradient has norm C and projects to C sqrt(2n)") {
  // 2n = 4, C = 1: entries +-1/2, exact in float, so the norm is exactly 1 (C4 line 6).
  const std::vector<float> movement{0.9f, 0.0f, 0.8f, 0.1f, 0.2f, 0.7f, 0.3f, 0.6f};
  const Watermark w = select_watermark(movement.data(), movement.size(), 2);
  REQUIRE(w.coords == std::vector<std::size_t>{1, 3, 4, 6});
  std::vector<float> grad(movement.size(), 0.0f);
  add_watermark(w, 1.0, grad.data());
  CHECK(grad == std::vector<float>{0, 0.5f, 0, -0.5f, 0.5f, 0, -0.5f, 0});
  double norm2 = 0;
  for (float g : grad) norm2 += static_cast<double>(g) * g;
  CHECK(norm2 == 1.0);
  CHECK(watermark_projection(w, grad.data()) == 2.0);  // C sqrt(2n) = 1 * 2

  // 2n = 6, C = 3: entries 3/sqrt(6) rounded to float, so norm and projection hold to
  // float precision (2^-24 relative per entry).
  const std::vector<float> m2{0.5f, 0.4f, 0.3f, 0.2f, 0.1f, 0.0f, 0.6f};
  const Watermark w6 = select_watermark(m2.data(), m2.size(), 3);
  std::vector<float> g6(m2.size(), 0.0f);
  add_watermark(w6, 3.0, g6.data());
  norm2 = 0;
  for (float g : g6) norm2 += static_cast<double>(g) * g;
  CHECK(close(std::sqrt(norm2), 3.0, 1e-7));
  CHECK(close(watermark_projection(w6, g6.data()), 3.0 * std::sqrt(6.0), 1e-7));
  CHECK(g6[6] == 0.0f);  // coordinate 6 moved most: untouched

  // add_watermark adds to what is there (the lot's other gradients).
  std::vector<float> base{1, 1, 1, 1, 1, 1, 1, 1};
  add_watermark(w, 1.0, base.data());
  CHECK(base == std::vector<float>{1, 1.5f, 1, 0.5f, 1.5f, 1, 0.5f, 1});
}

TEST_CASE("the projection is the signed sum over the watermark's coordinates") {
  const Watermark w{{1, 3, 4, 6}, {1, -1, 1, -1}};
  const std::vector<float> v{10, 1, 20, 2, 4, 30, 8, 40};
  CHECK(watermark_projection(w, v.data()) == 1 - 2 + 4 - 8);
}

TEST_CASE("score names round-trip; an unknown one is a usage error naming the score") {
  CHECK(parse_watermark_score("llr") == WatermarkScore::llr);
  CHECK(parse_watermark_score("paper") == WatermarkScore::paper);
  CHECK(parse_watermark_score("sum") == WatermarkScore::sum);
  CHECK(parse_watermark_score("epoch-max") == WatermarkScore::epoch_max);
  for (const char* name : {"llr", "paper", "sum", "epoch-max"})
    CHECK(to_string(parse_watermark_score(name)) == name);
  CHECK_THROWS_AS(parse_watermark_score("LLR"), UsageError);
  try {
    parse_watermark_score("max");
    FAIL("no error");
  } catch (const UsageError& e) {
    CHECK(e.pattern() == "unknown score 'max' (llr, paper, sum or epoch-max) ({score})");
    CHECK(e.kind() == ErrorKind::usage);
  }
}

TEST_CASE("llr closed forms") {
  const auto llr = [](double d, double sigma, double q) {
    return watermark_step_score(WatermarkScore::llr, d, sigma, q);
  };
  // q = 1: log p1(d)/p0(d) for N(1, s^2) vs N(0, s^2) = (2d - 1) / (2 s^2).
  CHECK(llr(0.8, 0.5, 1) == (2 * 0.8 - 1) / (2 * 0.25));
  CHECK(llr(-3, 2, 1) == (2 * -3.0 - 1) / (2 * 4.0));
  CHECK(llr(1e6, 0.1, 1) == (2e6 - 1) / (2 * 0.1 * 0.1));
  // d = 1/2 is where p1 = p0: log(1 - q + q) = 0 whatever q and sigma.
  for (double q : {0.0, 1e-6, 0.01, 0.5, 1.0}) CHECK(llr(0.5, 0.7, q) == 0.0);
  // q = 0: the watermark is never there; the ratio is 1.
  CHECK(llr(1e6, 0.1, 0) == 0.0);
  // Large d: log(1 - q + q e^a) = log q + a + log1p((1 - q) e^-a / q) -> log q + a,
  // a = (2e6 - 1) / 0.02 ~ 1e8, far beyond exp's range; the last term is 0 in double.
  const double a = (2e6 - 1) / (2 * 0.1 * 0.1);
  const double big = llr(1e6, 0.1, 0.01);
  CHECK(std::isfinite(big));
  CHECK(close(big, std::log(0.01) + a, 1e-12));
  CHECK(close(llr(1e6, 0.1, 1e-300), std::log(1e-300) + a, 1e-12));
  // Large negative d: e^a underflows; log(1 - q).
  CHECK(close(llr(-1e6, 0.1, 0.01), std::log1p(-0.01), 1e-15));
  // Moderate a: log(1 - q + q e^a) directly (no cancellation at these values);
  // d = 2, s = 1, q = 0.1: a = 1.5.
  CHECK(close(llr(2, 1, 0.1), std::log(0.9 + 0.1 * std::exp(1.5)), 1e-14));
  // Either side of the switch to the large form (a = 700 at d = 700.5, s = 1), both
  // forms give log q + a (the correction (1 - q) e^-a / q ~ 1e-304 is below rounding).
  for (double d : {700.5 - 1e-6, 700.5, 700.5 + 1e-6})
    CHECK(close(llr(d, 1, 0.25), std::log(0.25) + (2 * d - 1) / 2, 1e-15));
  // Tiny a: Taylor, log(1 + q(e^a - 1)) = q a + q (1 - q) a^2 / 2 + O(a^3); d = 1/2 + 2^-34
  // makes 2d - 1 = 2^-33 exact, a = 2^-34 for s = 1. The naive log(1 - q + q e^a) would
  // lose about 5 of 16 digits here.
  const double tiny = std::ldexp(1.0, -34), q = 0.01;
  CHECK(close(llr(0.5 + tiny, 1, q), q * tiny + q * (1 - q) * tiny * tiny / 2, 1e-14));
  CHECK(close(llr(0.5 - tiny, 1, q), -q * tiny + q * (1 - q) * tiny * tiny / 2, 1e-14));
}

TEST_CASE(
    "paper score is log N(d; 1, sigma^2) (Nasr et al. 2021, Eq. 6 as a log density); sum is d") {
  for (double d : {-2.0, 0.3, 1.0, 4.5}) {
    for (double sigma : {0.1, 0.7, 3.0}) {
      const double want = std::log(boost::math::pdf(boost::math::normal(1.0, sigma), d));
      CHECK(close(watermark_step_score(WatermarkScore::paper, d, sigma, 0.01), want, 1e-13));
      CHECK(watermark_step_score(WatermarkScore::sum, d, sigma, 0.01) == d);
    }
  }
  // Far in the tail, where the pdf underflows, the log density stays finite.
  CHECK(close(watermark_step_score(WatermarkScore::paper, 1e3, 0.1, 0.5),
              -999.0 * 999.0 / 0.02 - 0.5 * std::log(2 * 3.141592653589793 * 0.01), 1e-15));
}

namespace {

double normal_cdf(double z) {
  return 0.5 * std::erfc(-z / std::sqrt(2.0));
}
double normal_pdf(double z) {
  return std::exp(-z * z / 2) / std::sqrt(2 * M_PI);
}

}  // namespace

TEST_CASE("epoch-max: the log-likelihood ratio of an epoch's largest statistic") {
  // One step, the canary surely in it: the Gaussian llr (2m - 1) / (2 s^2).
  CHECK(epoch_max_log_ratio(0.7, 0.5, 1, 1.0) == doctest::Approx((2 * 0.7 - 1) / 0.5));
  // B steps, closed form from the densities of the max: B - 1 draws of N(0, s^2) and one of
  // N(1, s^2) against B of N(0, s^2).
  for (double m : {-1.0, 0.3, 2.5}) {
    for (std::uint64_t b : {2u, 10u}) {
      const double s = 0.8, l = static_cast<double>(b);
      const double ratio = (l - 1) / l * normal_cdf((m - 1) / s) / normal_cdf(m / s) +
                           std::exp((2 * m - 1) / (2 * s * s)) / l;
      CHECK(epoch_max_log_ratio(m, s, b, 1.0) == doctest::Approx(std::log(ratio)).epsilon(1e-12));
      // A cut epoch holding the canary with probability p: 1 - p + p ratio.
      CHECK(epoch_max_log_ratio(m, s, b, 0.25) ==
            doctest::Approx(std::log(0.75 + 0.25 * ratio)).epsilon(1e-12));
    }
  }
  // A likelihood ratio integrates to 1 against the null's density of the max,
  // B phi(m) Phi(m)^(B-1) (s = 1): checks the formula, not only its evaluation.
  for (std::uint64_t b : {1u, 5u, 100u}) {
    const double l = static_cast<double>(b), h = 1e-3;
    double total = 0;
    for (double m = -12; m <= 16; m += h)
      total += h * l * normal_pdf(m) * std::pow(normal_cdf(m), l - 1) *
               std::exp(epoch_max_log_ratio(m, 1.0, b, 1.0));
    CHECK(total == doctest::Approx(1.0).epsilon(1e-6));
  }
  // Far tails stay finite where Phi underflows in double.
  CHECK(std::isfinite(epoch_max_log_ratio(-60, 1.0, 10, 1.0)));
  CHECK(epoch_max_log_ratio(-60, 1.0, 10, 1.0) < std::log(0.9) - 50);
  CHECK(std::isfinite(epoch_max_log_ratio(60, 0.5, 10, 1.0)));
}

TEST_CASE(
    "WatermarkScorer: per-step scores add up; epoch-max closes each epoch and a cut last one") {
  const double d[] = {0.2, -0.4, 1.3, 0.9, 0.1};
  WatermarkScorer llr(WatermarkScore::llr, 0.9, 0.3, 2);
  double sum = 0;
  for (double x : d) {
    llr.add(x);
    sum += watermark_step_score(WatermarkScore::llr, x, 0.9, 0.3);
  }
  CHECK(llr.score() == sum);
  WatermarkScorer epochs(WatermarkScore::epoch_max, 0.9, 0.3, 2);
  for (double x : d) epochs.add(x);
  const double want = epoch_max_log_ratio(0.2, 0.9, 2, 1.0) +
                      epoch_max_log_ratio(1.3, 0.9, 2, 1.0) + epoch_max_log_ratio(0.1, 0.9, 1, 0.5);
  CHECK(epochs.score() == doctest::Approx(want).epsilon(1e-15));
}
