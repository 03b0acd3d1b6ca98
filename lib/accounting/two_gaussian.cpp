#include "accounting/two_gaussian.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/infinity.hpp"

namespace dpaudit {

namespace {

// Region where a x^2 + b x + c > 0 (Andrew et al. 2024, Sec. 3.2: split the line at the roots of
// R(x)).
Region quadratic_positive_region(double a, double b, double c) {
  Region r;
  if (a == 0) {
    if (b > 0)
      r.add(-c / b, kInf);
    else if (b < 0)
      r.add(-kInf, -c / b);
    else if (c > 0)
      r.add(-kInf, kInf);
    return r;
  }
  const double disc = b * b - 4 * a * c;
  if (!(disc > 0)) {  // no sign change: positive everywhere iff a > 0
    if (a > 0) r.add(-kInf, kInf);
    return r;
  }
  // Roots without cancellation: t = -(b + sign(b) sqrt(disc))/2, roots t/a and c/t.
  const double t = -0.5 * (b + std::copysign(std::sqrt(disc), b));
  const double r1 = std::min(t / a, c / t), r2 = std::max(t / a, c / t);
  if (a > 0) {
    r.add(-kInf, r1);
    r.add(r2, kInf);
  } else {
    r.add(r1, r2);
  }
  return r;
}

void check_gaussian(const Gaussian& g, const char* which) {
  if (!std::isfinite(g.mean))
    throw UsageError(fmt::format("mean of {} must be finite, got {}", which, g.mean));
  if (!(g.stddev > 0) || !std::isfinite(g.stddev))
    throw UsageError(fmt::format("standard deviation of {} must be positive and finite, got {}",
                                 which, g.stddev));
}

// delta(eps) is symmetric in the two Gaussians and invariant under x -> (x - m)/s, so
// both are mapped to N(0,1) (the narrower) and N(mu, r) with r >= 1: the squares of
// tiny or huge standard deviations never under- or overflow.
std::pair<Gaussian, Gaussian> standardized(const Gaussian& p, const Gaussian& q) {
  check_gaussian(p, "the first Gaussian");
  check_gaussian(q, "the second Gaussian");
  const Gaussian& narrow = p.stddev <= q.stddev ? p : q;
  const Gaussian& wide = p.stddev <= q.stddev ? q : p;
  // Means near +-1e308 of opposite signs: their difference overflows, its half does not
  // (an infinite quotient is then a separable pair).
  const double gap = wide.mean - narrow.mean;
  const Gaussian other{std::isfinite(gap) ? gap / narrow.stddev
                                          : 2 * ((wide.mean / 2 - narrow.mean / 2) / narrow.stddev),
                       wide.stddev / narrow.stddev};
  if (!std::isfinite(other.stddev))  // legal values beyond double's range: exit 1, not 2
    throw DataError(fmt::format(
        "standard deviations {} and {} differ by more than the double range", p.stddev, q.stddev));
  return {{0, 1}, other};
}

// Means more than 1e150 (narrower) standard deviations apart: the privacy loss
// threshold exceeds 1e299 and delta(eps) = 1 to double precision for every smaller eps,
// so the pair is treated as separable (eps = inf).
bool separable(const Gaussian& other) {
  return !(std::abs(other.mean) <= 1e150);
}

// One direction of the hockey-stick divergence between Gaussians: with the privacy
// loss log p(x)/q(x) = a x^2 + b x + c (Andrew et al. 2024, Sec. 3.2),
//   a = (1/sq^2 - 1/sp^2)/2, b = mp/sp^2 - mq/sq^2,
//   c = ((mq/sq)^2 - (mp/sp)^2)/2 + log sq - log sp,
// delta_{P||Q}(eps) = P(L > eps) - e^eps Q(L > eps).
double log_delta_one_direction(const Gaussian& p, const Gaussian& q, double eps) {
  const double vp = p.stddev * p.stddev, vq = q.stddev * q.stddev;
  const double a = 0.5 * (1 / vq - 1 / vp);
  const double b = p.mean / vp - q.mean / vq;
  const double c =
      0.5 * (q.mean * q.mean / vq - p.mean * p.mean / vp) + std::log(q.stddev / p.stddev);
  const Region loss_above_eps = quadratic_positive_region(a, b, c - eps);
  return log_hockey_stick(log_mass(p, p.mean, loss_above_eps), log_mass(q, q.mean, loss_above_eps),
                          eps);
}

}  // namespace

double two_gaussian_log_delta(const Gaussian& p, const Gaussian& q, double eps) {
  if (eps != kInf) check_epsilon(eps);
  const auto [unit, other] = standardized(p, q);
  if (separable(other)) return 0;
  if (eps == kInf) return -kInf;  // each has a density wherever the other has one: delta(inf) = 0
  return std::max(log_delta_one_direction(unit, other, eps),
                  log_delta_one_direction(other, unit, eps));
}

double two_gaussian_delta(const Gaussian& p, const Gaussian& q, double eps) {
  return std::exp(two_gaussian_log_delta(p, q, eps));
}

double two_gaussian_epsilon(const Gaussian& p, const Gaussian& q, double delta) {
  const auto [unit, other] = standardized(p, q);
  check_delta(delta);
  if (separable(other)) return std::numeric_limits<double>::infinity();
  return smallest_epsilon(
      [&, unit = unit, other = other](double eps) {  // clang 14 cannot capture structured bindings
        return std::max(log_delta_one_direction(unit, other, eps),
                        log_delta_one_direction(other, unit, eps));
      },
      delta);
}

}  // namespace dpaudit
