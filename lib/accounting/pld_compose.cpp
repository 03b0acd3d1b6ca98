#include "accounting/pld_compose.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <utility>

#include <fmt/format.h>
#include <unsupported/Eigen/FFT>

#include "core/error.hpp"

namespace dpaudit {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A factor's positive masses as (log mass, loss) pairs, for the Chernoff bounds.
struct LogFactor {
  std::vector<double> log_mass, loss;
  double count;
};

std::vector<LogFactor> log_factors(const std::vector<PldFactor>& factors) {
  std::vector<LogFactor> out;
  for (const PldFactor& f : factors) {
    LogFactor l{{}, {}, static_cast<double>(f.count)};
    for (std::size_t i = 0; i < f.pld->mass.size(); ++i)
      if (f.pld->mass[i] > 0) {
        l.log_mass.push_back(std::log(f.pld->mass[i]));
        l.loss.push_back(f.pld->loss(i));
      }
    out.push_back(std::move(l));
  }
  return out;
}

// K(t) = log E[e^(t S)] over the finite part of the composition (a sub-probability
// measure: the Chernoff bound holds for it as for a probability), with K' and K''.
// Terms below e^-40 of a factor's largest are left out of K' and K'' only.
struct Cgf {
  double k, k1, k2;
};

Cgf cgf(const std::vector<LogFactor>& factors, double t) {
  Cgf out{0, 0, 0};
  for (const LogFactor& f : factors) {
    double largest = -kInf;
    for (std::size_t i = 0; i < f.loss.size(); ++i) largest = std::max(largest, f.log_mass[i] + t * f.loss[i]);
    if (largest == -kInf) continue;
    double s0 = 0, s1 = 0, s2 = 0;
    for (std::size_t i = 0; i < f.loss.size(); ++i) {
      const double x = f.log_mass[i] + t * f.loss[i] - largest;
      const double w = std::exp(x);
      s0 += w;
      if (x < -40) continue;
      s1 += w * f.loss[i];
      s2 += w * f.loss[i] * f.loss[i];
    }
    const double mean = s1 / s0;
    out.k += f.count * (largest + std::log(s0));
    out.k1 += f.count * mean;
    out.k2 += f.count * std::max(0.0, s2 / s0 - mean * mean);
  }
  return out;
}

// The Chernoff bound P(S >= U) <= e^(K(t) - t U) = tail: U(t) = (K(t) - log tail) / t,
// smallest where g(t) = t K'(t) - K(t) + log tail = 0 (g rises: g' = t K'' >= 0), found
// by bisection with Newton steps on log t to 1e-4 (any t gives a valid bound); `sign`
// -1 gives the lower end through -S. Returns (U, t); U = +inf when g never reaches 0
// (an atom at the largest loss carries more than `tail`: the support is the bound).
std::pair<double, double> chernoff_end(const std::vector<LogFactor>& factors, int sign, double log_tail, double sd) {
  auto g_at = [&](double log_t) {
    const double t = std::exp(log_t);
    const Cgf c = cgf(factors, sign * t);
    return std::pair{t * sign * c.k1 - c.k + log_tail, t * t * c.k2};  // g and dg/d(log t)
  };
  const double log_t0 = std::log(std::sqrt(-2 * log_tail) / sd);  // the Gaussian optimum
  double lo = log_t0 - 30, hi = log_t0 + 10;
  if (g_at(hi).first <= 0) return {kInf, 0.0};
  double s = log_t0;
  for (int i = 0; i < 100 && hi - lo > 1e-4; ++i) {
    const auto [g, slope] = g_at(s);
    (g < 0 ? lo : hi) = s;
    const double next = s - g / slope;
    s = next > lo && next < hi ? next : 0.5 * (lo + hi);
  }
  const double t = std::exp(hi);
  return {(cgf(factors, sign * t).k - log_tail) / t, t};
}

void check_factors(const std::vector<PldFactor>& factors) {
  if (factors.empty()) throw UsageError("no privacy-loss distributions to compose");
  for (const PldFactor& f : factors) {
    if (f.count < 1) throw UsageError(fmt::format("a composition count must be >= 1, got {}", f.count));
    if (f.pld->h != factors.front().pld->h)
      throw UsageError(fmt::format("lattice spacings differ: {} and {}", f.pld->h, factors.front().pld->h));
  }
}

// The smallest n >= want that is a multiple of 4 (Eigen's kissfft takes its real-input
// shortcut, a complex FFT of n/2, only then) and has no prime factor above 5.
std::size_t fft_size(std::size_t want) {
  std::size_t best = std::numeric_limits<std::size_t>::max();
  for (std::size_t p2 = 4; p2 < 2 * want + 4; p2 *= 2)
    for (std::size_t p3 = p2; p3 < 2 * want + 4; p3 *= 3)
      for (std::size_t p5 = p3; p5 < 2 * want + 4; p5 *= 5)
        if (p5 >= want) best = std::min(best, p5);
  return best;
}

// Values below 1e-290 in magnitude are 0 here: their share of a total mass of 1 is
// beyond double's reach, and denormals would slow every later product.
std::complex<double> flush(std::complex<double> z) { return std::norm(z) < 1e-290 ? 0.0 : z; }

// z^n for |z| <= 1 by repeated squaring: 2 log2(n) products, each rounded once (about
// 1e-14 relative at n = 1e9; exp(n log z) would carry n times the rounding of log z).
// Where |z|^(2n) is below 1e-290 anyway (most frequencies of a long composition) it is 0
// at the cost of one log.
std::complex<double> power(std::complex<double> z, long long n) {
  if (static_cast<double>(n) * std::log(std::norm(z)) < -667.8) return 0.0;
  std::complex<double> result = 1.0;
  while (n > 0) {
    if (n & 1) result = flush(result * z);
    n >>= 1;
    if (n > 0) z = flush(z * z);
  }
  return result;
}

std::size_t index_mod(long long k, std::size_t n) {
  const long long m = k % static_cast<long long>(n);
  return static_cast<std::size_t>(m < 0 ? m + static_cast<long long>(n) : m);
}

}  // namespace

CompositionPlan plan_composition(const std::vector<PldFactor>& factors, double outside_mass) {
  check_factors(factors);
  if (!(outside_mass > 0 && outside_mass < 1))
    throw UsageError(fmt::format("outside mass must be in (0,1), got {}", outside_mass));
  // The exact support of the composition, in lattice indices (whole numbers in double,
  // exact below 2^53): the other bound on the window.
  double variance = 0, support_lo = 0, support_hi = 0;
  for (const PldFactor& f : factors) {
    const PldPmf& p = *f.pld;
    double m0 = 0, m1 = 0, m2 = 0;
    long long lo = -1, hi = -1;
    for (std::size_t i = 0; i < p.mass.size(); ++i) {
      if (!(p.mass[i] > 0)) continue;
      m0 += p.mass[i];
      m1 += p.mass[i] * p.loss(i);
      m2 += p.mass[i] * p.loss(i) * p.loss(i);
      if (lo < 0) lo = static_cast<long long>(i);
      hi = static_cast<long long>(i);
    }
    if (m0 == 0) continue;
    variance += static_cast<double>(f.count) * std::max(0.0, m2 / m0 - (m1 / m0) * (m1 / m0));
    support_lo += static_cast<double>(f.count) * static_cast<double>(p.first + lo);
    support_hi += static_cast<double>(f.count) * static_cast<double>(p.first + hi);
  }
  const double h = factors.front().pld->h;
  const double log_tail = std::log(outside_mass / 2);
  const double sd = std::max(std::sqrt(variance), h);
  const std::vector<LogFactor> logs = log_factors(factors);
  const auto [upper, t_up] = chernoff_end(logs, +1, log_tail, sd);
  const auto [minus_lower, t_lo] = chernoff_end(logs, -1, log_tail, sd);
  const double hi = std::min(std::ceil(upper / h), support_hi), lo = std::max(std::floor(-minus_lower / h), support_lo);
  if (!(std::abs(hi) < 4e18 && std::abs(lo) < 4e18) || hi < lo)
    throw DataError(fmt::format("the composed privacy loss spans [{}, {}], beyond 4e18 lattice steps of {}", lo * h,
                                hi * h, h));
  // The Chernoff bounds at the ends actually used (at the support's ends: nothing beyond).
  const double above = hi >= support_hi ? 0 : std::exp(cgf(logs, t_up).k - t_up * hi * h);
  const double below = lo <= support_lo ? 0 : std::exp(cgf(logs, -t_lo).k + t_lo * lo * h);
  return {static_cast<long long>(lo), static_cast<long long>(hi), above + below};
}

ComposedPld compose_plds(const std::vector<PldFactor>& factors, const CompositionPlan& plan) {
  check_factors(factors);
  const std::size_t n = fft_size(plan.points());
  // One FFT object per thread keeps the plans (twiddle factors) of the last size used:
  // the compositions of an accountant share a size, and calibration repeats them.
  thread_local Eigen::FFT<double> fft;
  thread_local std::size_t planned = 0;
  if (planned != n) {
    fft.impl().clear();
    planned = n;
  }
  fft.SetFlag(Eigen::FFT<double>::HalfSpectrum);
  std::vector<double> buffer(n);
  std::vector<std::complex<double>> product(n / 2 + 1, 1.0), spectrum;
  double log_finite = 0;  // log of the probability that no step has loss +inf
  for (const PldFactor& f : factors) {
    std::fill(buffer.begin(), buffer.end(), 0.0);
    const PldPmf& p = *f.pld;
    for (std::size_t i = 0, j = index_mod(p.first, n); i < p.mass.size(); ++i, j = j + 1 == n ? 0 : j + 1)
      buffer[j] += p.mass[i];
    fft.fwd(spectrum, buffer);
    for (std::size_t k = 0; k < product.size(); ++k)
      if (product[k] != 0.0) product[k] = flush(product[k] * power(spectrum[k], f.count));
    log_finite += static_cast<double>(f.count) * std::log1p(-p.inf_mass);
  }
  fft.inv(buffer, product, static_cast<Eigen::Index>(n));

  ComposedPld out{};
  out.pld.h = factors.front().pld->h;
  out.pld.first = plan.lo;
  out.pld.mass.resize(n);
  double most_negative = 0, largest = 0;
  for (std::size_t j = 0, at = index_mod(plan.lo, n); j < n; ++j, at = at + 1 == n ? 0 : at + 1) {
    const double m = buffer[at];
    if (!std::isfinite(m)) throw DataError("the FFT of the privacy-loss distribution is not finite");
    most_negative = std::min(most_negative, m);
    largest = std::max(largest, m);
    out.pld.mass[j] = std::max(0.0, m);
  }
  out.pld.inf_mass = -std::expm1(log_finite);
  out.outside_mass = plan.outside_mass;
  out.roundoff = std::max(-most_negative, std::ldexp(std::log2(static_cast<double>(n)) * largest, -52));
  return out;
}

}  // namespace dpaudit
