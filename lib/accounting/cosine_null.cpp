#include "accounting/cosine_null.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <fmt/format.h>
#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/math/tools/toms748_solve.hpp>

#include "core/error.hpp"
#include "core/infinity.hpp"

namespace dpaudit {

namespace {

constexpr double kLogPi = 1.14472988584940017414;
constexpr double kLn2 = 0.69314718055994530942;

void check_dim(std::size_t dim) {
  if (dim < 2) throw UsageError(fmt::format("null dimension must be >= 2, got {}", dim));
}

// Shape a = (d-1)/2 of the Beta(a, a) law of (1+T)/2 (Andrew et al. 2024, Thm 3.1).
double beta_shape(std::size_t dim) {
  return 0.5 * (static_cast<double>(dim) - 1);
}

// log Gamma(a)/Gamma(a + 1/2), accurate for huge a (no lgamma cancellation).
double log_gamma_half_ratio(double a) {
  return std::log(boost::math::tgamma_delta_ratio(a, 0.5));
}

// log B(a, a) = log sqrt(pi) + (1 - 2a) log 2 + log Gamma(a)/Gamma(a + 1/2)
// (Legendre's duplication formula).
double log_beta_symmetric(double a) {
  return 0.5 * kLogPi + (1 - 2 * a) * kLn2 + log_gamma_half_ratio(a);
}

// log I_x(a, a) for x < 1/2 from the continued fraction (DLMF 8.17.22)
// I_x(a,b) = x^a (1-x)^b / (a B(a,b)) / (1 + d1/(1 + d2/(1 + ...))),
// d_{2m+1} = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1)), d_{2m} = m(b-m) x / ((a+2m-1)(a+2m)),
// evaluated by the modified Lentz method. Used where I_x underflows.
double log_ibeta_symmetric_lower_tail(double a, double x) {
  const double b = a;
  constexpr double kTiny = 1e-300;
  double f = 1, c = 1, d = 0;
  for (int j = 1; j <= 100000; ++j) {
    const int m = j / 2;
    const double coeff = (j % 2 == 1) ? -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
                                      : m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
    d = 1 + coeff * d;
    if (std::abs(d) < kTiny) d = kTiny;
    c = 1 + coeff / c;
    if (std::abs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double step = c * d;
    f *= step;
    if (std::abs(step - 1) < 1e-15) {
      return a * std::log(x) + b * std::log1p(-x) - std::log(a) - log_beta_symmetric(a) -
             std::log(f);
    }
  }
  throw DataError(fmt::format("cosine null tail did not converge (a = {}, x = {})", a, x));
}

double exact_log_cdf_nonpositive(double a, double t) {
  const double x = 0.5 * (1 + t);
  const double p = boost::math::ibeta(a, a, x);
  if (p > 1e-280) return std::log(p);
  return log_ibeta_symmetric_lower_tail(a, x);
}

double exact_log_cdf(std::size_t dim, double t) {
  if (t <= -1) return -kInf;
  if (t >= 1) return 0;
  const double a = beta_shape(dim);
  if (t <= 0) return exact_log_cdf_nonpositive(a, t);
  return log_sub(0, exact_log_cdf_nonpositive(a, -t));  // symmetry: P(T <= t) = 1 - P(T <= -t)
}

// log of Gamma(d/2) / (Gamma((d-1)/2) sqrt(pi)), the constant of f_d (Andrew et al. 2024, Thm 3.1).
double exact_log_normaliser(std::size_t dim) {
  return -0.5 * kLogPi - log_gamma_half_ratio(beta_shape(dim));
}

// log f_d(t) = log_normaliser + ((d-3)/2) log(1-t^2); -inf outside [-1,1] (at t = +-1:
// +inf for d = 2, the constant for d = 3, -inf above).
double exact_log_pdf(std::size_t dim, double log_normaliser, double t) {
  const double k = 0.5 * (static_cast<double>(dim) - 3);
  if (!(t >= -1 && t <= 1)) return -kInf;
  if (k == 0) return log_normaliser;
  return log_normaliser + k * (std::log1p(-t) + std::log1p(t));
}

Gaussian gaussian_null(std::size_t dim) {
  return {0, 1 / std::sqrt(static_cast<double>(dim))};
}

double log_normal_pdf(const Gaussian& g, double x) {
  const double z = (x - g.mean) / g.stddev;
  return -0.5 * z * z - std::log(g.stddev) - 0.91893853320467274178;
}

// Roots in (lo, hi) of a function with a sign change over the bracket, to full precision.
template <class F>
double bracketed_root(F f, double lo, double hi) {
  auto tolerance = [](double x, double y) {
    return std::abs(y - x) <= 4 * std::numeric_limits<double>::epsilon() *
                                  std::max(1e-30, std::min(std::abs(x), std::abs(y)));
  };
  std::uintmax_t max_iter = 200;
  const auto r = boost::math::tools::toms748_solve(f, lo, hi, tolerance, max_iter);
  return 0.5 * (r.first + r.second);
}

// The privacy loss L(t) = log f_d(t) - log phi_alt(t) of the exact null against a
// Gaussian on (-1, 1), split into pieces on which it is monotone.
class ExactNullLoss {
 public:
  ExactNullLoss(std::size_t dim, const Gaussian& alt)
      : dim_(dim), alt_(alt), log_normaliser_(exact_log_normaliser(dim)) {
    k_ = 0.5 * (static_cast<double>(dim) - 3);
    // The doubles next to +-1 are breaks too: for a very narrow alternative the maxima of
    // L near the ends, at about +-(1 - k s^2), round onto +-1, and without these breaks
    // the rise of L from -inf at +-1 would hide inside a piece whose ends are both low.
    // Extra breaks are harmless: every piece stays monotone.
    const double first = std::nextafter(-1.0, 0.0), last = std::nextafter(1.0, 0.0);
    breaks_ = {-1.0, first};
    for (double t : critical_points())
      if (t > breaks_.back() && t < last) breaks_.push_back(t);
    breaks_.push_back(last);
    breaks_.push_back(1.0);
  }

  double operator()(double t) const {
    return exact_log_pdf(dim_, log_normaliser_, t) - log_normal_pdf(alt_, t);
  }

  // {t in (-1,1): L(t) > level} (above = true) or {L(t) < level}.
  Region level_set(double level, bool above) const {
    std::vector<double> cuts;
    auto shifted = [&](double t) { return std::clamp((*this)(t), -1e300, 1e300) - level; };
    for (std::size_t i = 0; i + 1 < breaks_.size(); ++i) {
      const double u = breaks_[i], v = breaks_[i + 1];
      cuts.push_back(u);
      const double fu = shifted(u), fv = shifted(v);
      if ((fu < 0 && fv > 0) || (fu > 0 && fv < 0)) cuts.push_back(bracketed_root(shifted, u, v));
    }
    cuts.push_back(1.0);
    Region r;
    for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
      const double mid = 0.5 * (cuts[i] + cuts[i + 1]);
      const double loss = (*this)(mid);
      if (above ? loss > level : loss < level) r.add(cuts[i], cuts[i + 1]);
    }
    return r;
  }

 private:
  // Zeros in (-1,1) of L'(t) = -p(t) / (s^2 (1 - t^2)),
  // p(t) = t^3 - m t^2 + (2 k s^2 - 1) t + m: split (-1,1) at the zeros of
  // p'(t) = 3t^2 - 2m t + (2 k s^2 - 1) and find the sign changes of p.
  std::vector<double> critical_points() const {
    const double m = alt_.mean, s2 = alt_.stddev * alt_.stddev;
    const double c1 = 2 * k_ * s2 - 1;
    auto p = [&](double t) { return ((t - m) * t + c1) * t + m; };
    std::vector<double> ends = {-1.0};
    const double disc = 4 * m * m - 12 * c1;
    if (disc > 0) {
      const double q = -0.5 * (-2 * m + std::copysign(std::sqrt(disc), -2 * m));
      double r1 = q / 3, r2 = c1 / q;
      if (r1 > r2) std::swap(r1, r2);
      for (double r : {r1, r2})
        if (r > -1 && r < 1) ends.push_back(r);
    }
    ends.push_back(1.0);
    std::vector<double> roots;
    for (std::size_t i = 0; i + 1 < ends.size(); ++i) {
      const double pu = p(ends[i]), pv = p(ends[i + 1]);
      if ((pu < 0 && pv > 0) || (pu > 0 && pv < 0))
        roots.push_back(bracketed_root(p, ends[i], ends[i + 1]));
    }
    return roots;
  }

  std::size_t dim_;
  Gaussian alt_;
  double log_normaliser_;
  double k_;
  std::vector<double> breaks_;
};

double log_mass_outside_support(const Gaussian& alt) {
  return log_add(log_cdf(alt, -1), log_sf(alt, 1));
}

// Both directions of the hockey-stick divergence between the exact null P and the
// Gaussian Q: P({L > eps}) - e^eps Q({L > eps}) and
// Q({L < -eps} u {|t| >= 1}) - e^eps P({L < -eps}).
double exact_null_log_delta(const ExactNullLoss& loss, std::size_t dim, const Gaussian& alt,
                            double eps) {
  const CosineNull null{dim, NullKind::exact};
  const Region above = loss.level_set(eps, true);
  const double null_over_alt =
      log_hockey_stick(log_mass(null, 0.0, above), log_mass(alt, alt.mean, above), eps);
  const Region inside = loss.level_set(-eps, false);
  Region below;
  below.add(-kInf, -1);
  for (std::size_t i = 0; i < inside.size; ++i) below.add(inside.parts[i].lo, inside.parts[i].hi);
  below.add(1, kInf);
  const double alt_over_null =
      log_hockey_stick(log_mass(alt, alt.mean, below), log_mass(null, 0.0, below), eps);
  return std::max(null_over_alt, alt_over_null);
}

void check_alternative(const Gaussian& alt) {
  if (!std::isfinite(alt.mean))
    throw UsageError(fmt::format("mean of the alternative must be finite, got {}", alt.mean));
  if (!(alt.stddev > 0) || !std::isfinite(alt.stddev))
    throw UsageError(fmt::format(
        "standard deviation of the alternative must be positive and finite, got {}", alt.stddev));
}

// The exact computation resolves alternatives down to 1e-10 of the null's spread
// 1/sqrt(d) (checked against the N(0,1/d) null, to which it then agrees to 1e-5); far
// narrower ones push eps past 1e21, where the level sets lose their digits.
void check_resolvable(std::size_t dim, const Gaussian& alt) {
  const double ratio = alt.stddev * std::sqrt(static_cast<double>(dim));
  if (ratio < 1e-10)
    throw DataError(
        fmt::format("standard deviation {} of the alternative is {:.3g} times the exact null's "
                    "1/sqrt(d); below 1e-10 the exact null cannot be resolved (use the "
                    "Gaussian null)",
                    alt.stddev, ratio));
}

}  // namespace

double cosine_null_log_cdf(std::size_t dim, double t, NullKind kind) {
  check_dim(dim);
  if (std::isnan(t)) throw UsageError("cosine must not be NaN");
  if (kind == NullKind::gaussian) return log_cdf(gaussian_null(dim), t);
  return exact_log_cdf(dim, t);
}

double cosine_null_log_sf(std::size_t dim, double t, NullKind kind) {
  return cosine_null_log_cdf(dim, -t, kind);  // the null is symmetric about 0
}

double cosine_null_log_pdf(std::size_t dim, double t, NullKind kind) {
  check_dim(dim);
  if (kind == NullKind::gaussian) return log_normal_pdf(gaussian_null(dim), t);
  return exact_log_pdf(dim, exact_log_normaliser(dim), t);
}

double log_cdf(const CosineNull& null, double t) {
  return cosine_null_log_cdf(null.dim, t, null.kind);
}
double log_sf(const CosineNull& null, double t) {
  return cosine_null_log_sf(null.dim, t, null.kind);
}

double null_vs_gaussian_log_delta(std::size_t dim, NullKind kind, const Gaussian& alt, double eps) {
  check_dim(dim);
  check_alternative(alt);
  if (kind == NullKind::gaussian) return two_gaussian_log_delta(gaussian_null(dim), alt, eps);
  if (eps != kInf) check_epsilon(eps);
  check_resolvable(dim, alt);
  // delta(inf): the Gaussian's mass outside [-1, 1], where the null has none.
  if (eps == kInf) return log_mass_outside_support(alt);
  return exact_null_log_delta(ExactNullLoss(dim, alt), dim, alt, eps);
}

double null_vs_gaussian_delta(std::size_t dim, NullKind kind, const Gaussian& alt, double eps) {
  return std::exp(null_vs_gaussian_log_delta(dim, kind, alt, eps));
}

double null_vs_gaussian_epsilon(std::size_t dim, NullKind kind, const Gaussian& alt, double delta) {
  check_dim(dim);
  check_alternative(alt);
  if (kind == NullKind::gaussian) return two_gaussian_epsilon(gaussian_null(dim), alt, delta);
  check_resolvable(dim, alt);
  const ExactNullLoss loss(dim, alt);
  return smallest_epsilon([&](double eps) { return exact_null_log_delta(loss, dim, alt, eps); },
                          delta, log_mass_outside_support(alt));
}

}  // namespace dpaudit
