#include "adversaries/watermark.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include <boost/math/constants/constants.hpp>

#include "accounting/log_space.hpp"
#include "core/error.hpp"
#include "core/names.hpp"

namespace dpaudit {

namespace {

constexpr Named<WatermarkScore> kScores[] = {{"llr", WatermarkScore::llr},
                                             {"paper", WatermarkScore::paper},
                                             {"sum", WatermarkScore::sum},
                                             {"epoch-max", WatermarkScore::epoch_max}};

// exp(a) is finite below log(DBL_MAX) = 709.78; llr switches form before it.
constexpr double kLargeExponent = 700;

}  // namespace

Watermark select_watermark(const float* movement, std::size_t d, std::size_t pairs) {
  if (pairs == 0)
    throw std::invalid_argument("select_watermark: the watermark needs at least one pair");
  if (pairs > d / 2)
    throw std::invalid_argument("select_watermark: " + std::to_string(2 * pairs) +
                                " coordinates asked of a " + std::to_string(d) +
                                "-dimensional model");
  if (std::any_of(movement, movement + d, [](float m) { return std::isnan(m); }))
    throw std::invalid_argument("select_watermark: the accumulated movement has a NaN");
  // Order by (movement, index): a strict total order, so the 2n smallest are unique.
  std::vector<std::size_t> order(d);
  std::iota(order.begin(), order.end(), std::size_t{0});
  const auto less = [movement](std::size_t a, std::size_t b) {
    return movement[a] < movement[b] || (movement[a] == movement[b] && a < b);
  };
  const std::size_t count = 2 * pairs;
  std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count - 1),
                   order.end(), less);
  Watermark w;
  w.coords.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count));
  std::sort(w.coords.begin(), w.coords.end());
  w.signs.resize(count);
  for (std::size_t p = 0; p < count; ++p) w.signs[p] = p % 2 == 0 ? 1.0 : -1.0;  // C4 lines 4-7
  return w;
}

void add_watermark(const Watermark& w, double norm, float* grad) {
  const double entry = norm / std::sqrt(static_cast<double>(w.coords.size()));
  for (std::size_t p = 0; p < w.coords.size(); ++p) {
    float& g = grad[w.coords[p]];
    g = static_cast<float>(g + w.signs[p] * entry);
  }
}

double watermark_projection(const Watermark& w, const float* v) {
  double sum = 0;
  for (std::size_t p = 0; p < w.coords.size(); ++p) sum += w.signs[p] * v[w.coords[p]];
  return sum;
}

WatermarkScore parse_watermark_score(const std::string& name) {
  return parse_named(kScores, name, "score", "{score}");
}

std::string to_string(WatermarkScore score) {
  return name_of(kScores, score);
}

double watermark_step_score(WatermarkScore s, double d, double sigma, double q) {
  const double variance = sigma * sigma;
  switch (s) {
    case WatermarkScore::llr: {
      // log p1(d) - log p0(d) for p1 = N(1, s^2), p0 = N(0, s^2); the step's density
      // under "present with probability q" is (1 - q) p0 + q p1.
      const double a = (2 * d - 1) / (2 * variance);
      if (q == 1) return a;
      if (q == 0) return 0;
      if (a < kLargeExponent) return std::log1p(q * std::expm1(a));
      // (1 - q) + q e^a = q e^a (1 + (1 - q) e^-a / q); the last term's exponent stays
      // below -700 + 745 (log q >= log of the least double), so it cannot overflow.
      return std::log(q) + a + std::log1p(std::exp(std::log1p(-q) - std::log(q) - a));
    }
    case WatermarkScore::paper: {
      // Eq. 6 (D3 line 15) in normalised units, as a log density: log N(d; 1, s^2).
      const double r = d - 1;
      return -r * r / (2 * variance) -
             0.5 * std::log(boost::math::constants::two_pi<double>() * variance);
    }
    case WatermarkScore::sum:
    case WatermarkScore::epoch_max:  // not a step's score (WatermarkScorer): the raw d
      break;                         // the raw projection, d
  }
  return d;
}

double epoch_max_log_ratio(double m, double sigma, std::uint64_t steps, double p) {
  const double l = static_cast<double>(steps);
  // log of the bracket: (L-1)/L Phi((m-1)/s) / Phi(m/s), and 1/L times the density ratio.
  const double others = steps > 1 ? std::log((l - 1) / l) + log_normal_cdf((m - 1) / sigma) -
                                        log_normal_cdf(m / sigma)
                                  : -std::numeric_limits<double>::infinity();
  const double spike = -std::log(l) + (2 * m - 1) / (2 * sigma * sigma);
  const double bracket = log_add(others, spike);
  if (p >= 1) return bracket;
  return log_add(std::log1p(-p), std::log(p) + bracket);
}

WatermarkScorer::WatermarkScorer(WatermarkScore score, double sigma, double q,
                                 std::uint64_t epoch_steps)
    : kind_(score), sigma_(sigma), q_(q), epoch_steps_(epoch_steps) {}

void WatermarkScorer::add(double d) {
  if (kind_ != WatermarkScore::epoch_max) {
    total_ += watermark_step_score(kind_, d, sigma_, q_);
    return;
  }
  epoch_max_ = in_epoch_ == 0 ? d : std::max(epoch_max_, d);
  if (++in_epoch_ == epoch_steps_) close_epoch();
}

void WatermarkScorer::close_epoch() {
  const double p = static_cast<double>(in_epoch_) / static_cast<double>(epoch_steps_);
  total_ += epoch_max_log_ratio(epoch_max_, sigma_, in_epoch_, p);
  in_epoch_ = 0;
}

double WatermarkScorer::score() {
  if (kind_ == WatermarkScore::epoch_max && in_epoch_ > 0) close_epoch();
  return total_;
}

}  // namespace dpaudit
