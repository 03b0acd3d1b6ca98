#include "stats/gauss_fit_interval.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>
#include <boost/math/distributions/normal.hpp>

#include "accounting/cosine_null.hpp"
#include "accounting/two_gaussian.hpp"
#include "core/error.hpp"

namespace dpaudit {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr std::size_t kGridAngles = 96;

// The miss probability of the least favourable case at radius r (the header).
double least_favourable_miss(double r) {
  return boost::math::cdf(boost::math::complement(boost::math::normal(), r)) +
         0.5 * std::exp(-0.5 * r * r);
}

// The boundary point at angle t: center + r L (cos t, sin t), L L' = S.
struct Boundary {
  std::array<double, 2> center;
  double l11, l21, l22, r;
  std::array<double, 2> at(double t) const {
    const double c = std::cos(t), s = std::sin(t);
    return {center[0] + r * l11 * c, center[1] + r * (l21 * c + l22 * s)};
  }
};

// Angles in [0, 2 pi) where the boundary crosses x[k] = v: A cos(t - phase) = (v - c_k) / r.
void crossings(const Boundary& b, const AxisLine& line, std::vector<double>& angles) {
  const double a = line.coordinate == 0 ? b.l11 : std::hypot(b.l21, b.l22);
  const double phase = line.coordinate == 0 ? 0.0 : std::atan2(b.l22, b.l21);
  const double target = (line.value - b.center[line.coordinate]) / b.r;
  if (!(a > 0) || std::abs(target) > a) return;
  const double w = std::acos(std::clamp(target / a, -1.0, 1.0));
  for (double t : {phase + w, phase - w}) angles.push_back(t - 2 * kPi * std::floor(t / (2 * kPi)));
}

// Golden-section search for the minimum of g on [a, b] (g's sign flipped for a maximum).
template <class G>
std::pair<double, double> golden_minimum(const G& g, double a, double b) {
  const double inv_phi = (std::sqrt(5.0) - 1) / 2;
  double x1 = b - inv_phi * (b - a), x2 = a + inv_phi * (b - a);
  double g1 = g(x1), g2 = g(x2);
  for (int i = 0; i < 60 && b - a > 1e-9; ++i) {
    if (g1 <= g2) {
      b = x2, x2 = x1, g2 = g1;
      x1 = b - inv_phi * (b - a), g1 = g(x1);
    } else {
      a = x1, x1 = x2, g1 = g2;
      x2 = a + inv_phi * (b - a), g2 = g(x2);
    }
  }
  return g1 <= g2 ? std::pair{x1, g1} : std::pair{x2, g2};
}

}  // namespace

double fit_region_radius(double alpha) {
  if (!(alpha > 0 && alpha < 1)) throw UsageError(fmt::format("alpha {} is not in (0,1)", alpha));
  double lo = 0, hi = 40;  // the miss probability falls from 1 at r = 0 to below 1e-300
  for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i) {
    const double mid = (lo + hi) / 2;
    (least_favourable_miss(mid) > alpha ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

EllipseRange range_over_ellipse(const std::array<double, 2>& center, const std::array<double, 3>& s,
                                double r,
                                const std::function<double(const std::array<double, 2>&)>& f,
                                const std::vector<AxisLine>& kinks,
                                const std::vector<std::array<double, 2>>& points) {
  if (!(r >= 0)) throw UsageError(fmt::format("the region's radius {} is negative", r));
  const double det = s[0] * s[2] - s[1] * s[1];
  if (!(s[0] >= 0 && s[2] >= 0 && det >= -1e-12 * s[0] * s[2]))
    throw UsageError(
        fmt::format("the region's covariance [[{}, {}], [{}, {}]] is not positive semidefinite",
                    s[0], s[1], s[1], s[2]));
  Boundary b{center, std::sqrt(s[0]), 0, 0, r};
  b.l21 = b.l11 > 0 ? s[1] / b.l11 : 0;
  b.l22 = std::sqrt(std::max(0.0, s[2] - b.l21 * b.l21));

  const auto value = [&](const std::array<double, 2>& x) {
    const double v = f(x);
    if (std::isnan(v)) throw DataError(fmt::format("the function is NaN at ({}, {})", x[0], x[1]));
    return v;
  };
  EllipseRange out;
  out.argmin = out.argmax = center;
  out.lower = out.upper = value(center);
  const auto consider = [&](const std::array<double, 2>& x, double v) {
    if (v < out.lower) out.lower = v, out.argmin = x;
    if (v > out.upper) out.upper = v, out.argmax = x;
  };
  // Interior candidates: inside when (x - c)' S^-1 (x - c) <= r^2 (solved through L).
  for (const auto& p : points) {
    const double u1 = b.l11 > 0 ? (p[0] - center[0]) / b.l11 : (p[0] == center[0] ? 0 : INFINITY);
    const double rest = p[1] - center[1] - b.l21 * u1;
    const double u2 = b.l22 > 0 ? rest / b.l22 : (rest == 0 ? 0 : INFINITY);
    if (u1 * u1 + u2 * u2 <= r * r) consider(p, value(p));
  }
  if (r == 0) return out;

  std::vector<double> angles;
  for (std::size_t i = 0; i < kGridAngles; ++i)
    angles.push_back(2 * kPi * static_cast<double>(i) / kGridAngles);
  for (const AxisLine& line : kinks) crossings(b, line, angles);
  std::sort(angles.begin(), angles.end());
  std::vector<double> values(angles.size());
  for (std::size_t i = 0; i < angles.size(); ++i) {
    values[i] = value(b.at(angles[i]));
    consider(b.at(angles[i]), values[i]);
  }
  // Refine about the best grid angle of each kind, between its neighbours (circularly).
  const std::size_t m = angles.size();
  for (int sign : {1, -1}) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < m; ++i)
      if (sign * values[i] < sign * values[best]) best = i;
    if (!std::isfinite(values[best])) continue;
    const double a = best == 0 ? angles[m - 1] - 2 * kPi : angles[best - 1];
    const double c = best + 1 == m ? angles[0] + 2 * kPi : angles[best + 1];
    const auto [t, v] = golden_minimum([&](double x) { return sign * value(b.at(x)); }, a, c);
    consider(b.at(t), sign * v);
  }
  return out;
}

GaussFitInterval gauss_fit_interval(const ScoreSet& scores, const EstimatorOptions& options,
                                    const BootstrapOptions& boot) {
  if (options.method != Method::gauss_fit)
    throw UsageError("the fit-region interval is gauss-fit's");
  const std::size_t B = boot.replicates;
  if (B < 2) throw UsageError(fmt::format("the bootstrap needs at least 2 replicates, got {}", B));
  GaussFitInterval out;
  out.radius = fit_region_radius(options.alpha);
  out.replicates = B;
  const EpsilonEstimate e = estimate_epsilon(scores, options);  // its errors pass unchanged
  out.estimate = e.epsilon;

  // The parameters phi of a fit, and F(phi): eps of the Gaussians they stand for.
  const bool null = options.null.has_value();
  const auto parameters = [&](const EpsilonEstimate& x) -> std::array<double, 2> {
    if (null) return {x.fit_in->mean, std::log(x.fit_in->stddev)};
    return {(x.fit_in->mean - x.fit_out->mean) / x.fit_out->stddev,
            std::log(x.fit_in->stddev / x.fit_out->stddev)};
  };
  const auto eps_at = [&](const std::array<double, 2>& phi) {
    const Gaussian in{phi[0], std::exp(phi[1])};
    return null ? null_vs_gaussian_epsilon(options.null->dim, options.null->kind, in, options.delta)
                : two_gaussian_epsilon({0, 1}, in, options.delta);
  };
  out.center = parameters(e);

  const ScoreSet sample = null ? ScoreSet(scores.in(), {}, scores.dim()) : scores;
  std::vector<std::array<double, 2>> phi(B);
  std::vector<double> eps(B);
  for_each_resample(
      sample, B, boot.seed, boot.threads, [&](std::size_t b, const ScoreSet& resample) {
        try {
          const EpsilonEstimate x = estimate_epsilon(resample, options);
          phi[b] = parameters(x);
          eps[b] = x.epsilon;
        } catch (const Error& error) {
          throw DataError(error.what(), fmt::format("bootstrap replicate {} of {}", b + 1, B));
        }
      });

  // Moments in index order, so the sums do not depend on the threads.
  std::array<double, 2> mean{0, 0};
  for (const auto& p : phi) mean[0] += p[0], mean[1] += p[1];
  mean[0] /= static_cast<double>(B), mean[1] /= static_cast<double>(B);
  for (const auto& p : phi) {
    out.covariance[0] += (p[0] - mean[0]) * (p[0] - mean[0]);
    out.covariance[1] += (p[0] - mean[0]) * (p[1] - mean[1]);
    out.covariance[2] += (p[1] - mean[1]) * (p[1] - mean[1]);
  }
  for (double& c : out.covariance) c /= static_cast<double>(B - 1);
  if (std::all_of(eps.begin(), eps.end(), [](double x) { return std::isfinite(x); })) {
    double sum = 0, squares = 0;
    for (double x : eps) sum += x;
    out.replicate_mean = sum / static_cast<double>(B);
    for (double x : eps) squares += (x - out.replicate_mean) * (x - out.replicate_mean);
    out.standard_error = std::sqrt(squares / static_cast<double>(B - 1));
  } else {
    out.replicate_mean = out.standard_error = INFINITY;
  }

  // F's kinks: the two means equal (d or mu_in = 0), the two spreads equal (g = 0, or
  // s_in the null's 1/sqrt(dim)); F = 0 (or its minimum) where both hold.
  const double kink_spread = null ? -0.5 * std::log(static_cast<double>(options.null->dim)) : 0.0;
  const EllipseRange range = range_over_ellipse(out.center, out.covariance, out.radius, eps_at,
                                                {{0, 0.0}, {1, kink_spread}}, {{0.0, kink_spread}});
  out.lower = range.lower;
  out.upper = range.upper;
  return out;
}

}  // namespace dpaudit
