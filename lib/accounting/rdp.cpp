#include "accounting/rdp.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include <fmt/format.h>
#include <boost/math/quadrature/gauss_kronrod.hpp>

#include "accounting/calibrate.hpp"
#include "accounting/two_gaussian.hpp"
#include "core/error.hpp"
#include "core/infinity.hpp"
#include "core/parallel.hpp"

namespace dpaudit {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Running log(sum of e^x_i) with at most one exp per term; terms below e^-40 times
// the largest so far are skipped (n of them change the sum by < n 4.3e-18 relative).
class LogSum {
 public:
  static constexpr double kNegligible = 40;
  void add(double x) {
    if (x > max_) {
      sum_ = sum_ * std::exp(max_ - x) + 1;
      max_ = x;
    } else if (x - max_ > -kNegligible) {
      sum_ += std::exp(x - max_);
    }
  }
  // Whether a term no larger than e^x could still matter.
  bool matters(double x) const { return x - max_ > -kNegligible; }
  double value() const { return max_ == -kInf ? -kInf : max_ + std::log(sum_); }

 private:
  double max_ = -kInf;
  double sum_ = 0;
};

// log|C(alpha, i)| and the sign of the generalized binomial coefficient for
// i = 0..count-1, from C(alpha, i+1) = C(alpha, i) (alpha - i)/(i + 1); computed once
// per order and shared by every (sigma, q).
class BinomialRow {
 public:
  BinomialRow(double alpha, std::size_t count) : alpha_(alpha) {
    double log_abs = 0;
    bool positive = true;
    for (std::size_t i = 0; i < count; ++i) {
      log_abs_.push_back(log_abs);
      positive_.push_back(positive);
      const double ratio = (alpha - static_cast<double>(i)) / static_cast<double>(i + 1);
      if (ratio == 0) break;  // integer alpha: C(alpha, i) = 0 beyond alpha
      if (ratio < 0) positive = !positive;
      log_abs += std::log(std::abs(ratio));
    }
  }
  double alpha() const { return alpha_; }
  std::size_t size() const { return log_abs_.size(); }
  double log_abs(std::size_t i) const { return log_abs_[i]; }
  bool positive(std::size_t i) const { return positive_[i]; }

 private:
  double alpha_;
  std::vector<double> log_abs_;
  std::vector<bool> positive_;
};

// Rows long enough for the series of typical (sigma, q): alpha + 1 terms for integer
// orders; alpha + 64 for fractional ones (past that, the series continues the recurrence).
BinomialRow binomial_row(double alpha) {
  const bool integer = alpha == std::floor(alpha);
  return BinomialRow(alpha, static_cast<std::size_t>(std::ceil(alpha)) + (integer ? 1 : 64));
}

// log E[(r - 1)^m], r = e^((2x - 1)/(2 sigma^2)) the density ratio N(1, sigma^2)/N(0, sigma^2)
// at x ~ N(0, sigma^2), for even m: the m-th forward difference at 0 of
// k -> E[r^k] = e^((k-1) eps(k)) that Wang, Balle & Kasiviswanathan 2019 (Thm 27) bound
// with. The alternating binomial sum of the difference loses every digit once m grows
// (the terms are 2^m larger than it); the expectation of a nonnegative integrand does
// not: Gauss-Kronrod quadrature in z = x / sigma, scaled by the integrand's maximum
// (log-concave on u > 0, found by bisection of its derivative), over +-40 around it and
// over the 40 below u = 0, where |r - 1| < 1.
double log_even_moment(double sigma, int m) {
  const double half = 0.5 / sigma;  // z where u = 0
  auto log_f = [&](double z) {
    const double u = (2 * sigma * z - 1) / (2 * sigma * sigma);
    return m * (u > 0 ? log_sub(u, 0) : log_sub(0, u)) - 0.5 * z * z;
  };
  // d/dz log f = m e^u / (e^u - 1) / sigma - z, decreasing on u > 0
  auto slope = [&](double z) {
    const double u = (2 * sigma * z - 1) / (2 * sigma * sigma);
    return m / (sigma * -std::expm1(-u)) - z;
  };
  double lo = half, hi = half + 1;
  while (slope(hi) > 0) hi = half + 2 * (hi - half);
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i)
    (slope(0.5 * (lo + hi)) > 0 ? lo : hi) = 0.5 * (lo + hi);
  const double peak = 0.5 * (lo + hi), top = log_f(peak);
  auto f = [&](double z) { return z == half ? 0.0 : std::exp(log_f(z) - top); };
  using Quadrature = boost::math::quadrature::gauss_kronrod<double, 61>;
  const double right = Quadrature::integrate(f, std::max(half, peak - 40), peak + 40, 15, 1e-14);
  const double left = Quadrature::integrate(f, half - 40, half, 15, 1e-14);
  return top + std::log(right + left) - 0.91893853320467274178;  // 1/sqrt(2 pi)
}

// The constants of one (sigma, q) pair that every order uses.
struct SampledGaussian {
  SampledGaussian(double sigma_, double q_)
      : sigma(sigma_),
        q(q_),
        log_q(std::log(q_)),
        log_1mq(std::log1p(-q_)),
        inv_2var(0.5 / (sigma_ * sigma_)),
        // at q = 1 only the closed form is used (log_a), and sigma^2 may underflow to 0
        // (0 * -inf would be NaN): z0 = -inf there. Where sigma^2 overflows (sigma > 1e154)
        // z0 is +-inf or NaN (inf * 0 at q = 1/2): fractional orders then take the chord
        // (log_a_fractional) and log_phi is not read.
        z0(q_ < 1 ? sigma_ * sigma_ * (std::log1p(-q_) - std::log(q_)) + 0.5
                  : -std::numeric_limits<double>::infinity()) {
    if (std::isfinite(z0))
      log_phi = {log_normal_cdf(z0 / sigma), log_normal_cdf((z0 - 1) / sigma),
                 log_normal_cdf(-z0 / sigma), log_normal_cdf((1 - z0) / sigma)};
  }
  double sigma, q, log_q, log_1mq, inv_2var;
  double z0;  // sigma^2 log(1/q - 1) + 1/2 (fractional orders)
  // log Phi of z0/sigma, (z0 - 1)/sigma, -z0/sigma, (1 - z0)/sigma (fractional orders;
  // NaN where z0 is not finite)
  std::array<double, 4> log_phi{kNaN, kNaN, kNaN, kNaN};

  // log E[(r - 1)^m] for even m, computed once per pair as far as asked.
  double log_moment(int m) const {
    while (static_cast<int>(moments_.size()) < m / 2)
      moments_.push_back(log_even_moment(sigma, 2 * (static_cast<int>(moments_.size()) + 1)));
    return moments_[static_cast<std::size_t>(m / 2 - 1)];
  }
  // log(e^((k^2 - k)/(2 sigma^2)) - 1) for k >= 2, computed once per pair: every integer
  // order sums these.
  double log_expm1_k(std::size_t k) const {
    while (expm1_k_.size() <= k) {
      const double kd = static_cast<double>(expm1_k_.size());
      expm1_k_.push_back(log_sub((kd * kd - kd) * inv_2var, 0));
    }
    return expm1_k_[k];
  }

 private:
  mutable std::vector<double> moments_, expm1_k_;
};

// log A_alpha for integer alpha (Mironov, Talwar & Zhang 2019, Sec. 3.3):
// A_alpha = sum_{k=0}^{alpha} C(alpha,k) (1-q)^(alpha-k) q^k exp((k^2 - k) / (2 sigma^2)).
// The binomial weights sum to 1 and the k = 0, 1 factors are 1, so
//   A_alpha - 1 = sum_{k=2}^{alpha} C(alpha,k) (1-q)^(alpha-k) q^k (e^((k^2 - k)/(2 sigma^2)) - 1),
// a sum of nonnegative terms: log(A - 1) by log-sum-exp, then log A = log(1 + (A - 1))
// keeps ~1e-15 relative even where A - 1 is 1e-10 (5e8 steps at q = 1e-5 add up
// (alpha - 1) RDP = log A, and a rounded 1 + 1e-10 would lose 6 of its digits).
double log_a_integer(const SampledGaussian& g, const BinomialRow& binom) {
  const double alpha = binom.alpha();
  const double log_q = g.log_q, log_1mq = g.log_1mq, inv_2var = g.inv_2var;
  // sigma so small that 1/(2 sigma^2) overflows: A_alpha >= q^alpha e^((alpha^2 - alpha)/(2
  // sigma^2)) = inf.
  if (std::isinf(inv_2var)) return kInf;
  // Exponents first, then exp only of the terms within e^-40 of the largest.
  thread_local std::vector<double> exponents;
  exponents.clear();
  double largest = -kInf;
  for (std::size_t k = 2; k < binom.size(); ++k) {
    const double kd = static_cast<double>(k);
    const double x = binom.log_abs(k) + kd * log_q + (alpha - kd) * log_1mq + g.log_expm1_k(k);
    exponents.push_back(x);
    largest = std::max(largest, x);
  }
  double sum = 0;
  for (double x : exponents)
    if (x - largest > -LogSum::kNegligible)
      sum += std::exp(
          x -
          largest);  // not x > largest - 40: that loses the largest itself once it is above 2^53
  return log_add(0, largest + std::log(sum));
}

// log Phi(z) inside the series: above z = 8.5 it is above -1e-17, below the
// resolution of the log-terms it is added to, and taken as 0.
double log_phi_in_series(double z) {
  return z > 8.5 ? 0.0 : log_normal_cdf(z);
}

// Upper bound of log Phi(z): 0, and for z < -1 the Mills-ratio bound
// Phi(z) <= phi(z)/|z| <= phi(z).
double log_phi_upper_bound(double z) {
  return z < -1 ? -0.5 * z * z - 0.91893853320467274178 : 0.0;
}

// Adds the series term e^(partial) Phi(z) to `sum`, unless its upper bound is already
// negligible there (then Phi is not evaluated); leaves in `partial` the term's log or
// that bound.
void add_term(LogSum& sum, double& partial, double z) {
  const double bound = partial + log_phi_upper_bound(z);
  if (!sum.matters(bound)) {
    partial = bound;
    return;
  }
  partial += log_phi_in_series(z);
  sum.add(partial);
}

// log((1-q)^alpha - 1 + alpha q) >= 0 (Bernoulli's inequality), by its series
// sum_{k>=2} C(alpha,k) (-q)^k where alpha q is small (the direct form would cancel).
double log_bernoulli_gap(double alpha, double q) {
  if (alpha * q > 0.01) return std::log(std::expm1(alpha * std::log1p(-q)) + alpha * q);
  double term = 0.5 * alpha * (alpha - 1) * q * q, sum = 0;
  for (int k = 2; k < 100 && std::abs(term) > 1e-18 * std::abs(sum); ++k) {
    sum += term;
    term *= -(alpha - k) / (k + 1) * q;
  }
  return std::log(sum);
}

// log A_alpha for fractional alpha (Mironov, Talwar & Zhang 2019, Sec. 3.3): with
// z0 = sigma^2 log(1/q - 1) + 1/2 and j = alpha - i, A_alpha = A0 + A1,
//   A0 = sum_i C(alpha,i) q^i (1-q)^j exp((i^2 - i)/(2 sigma^2)) Phi((z0 - i)/sigma),
//   A1 = sum_i C(alpha,i) q^j (1-q)^i exp((j^2 - j)/(2 sigma^2)) Phi((j - z0)/sigma),
// both summed over i = 0, 1, ... until past i = alpha the terms are below e^-40 of the
// sum, or below e^-30 and shrinking by less than half a term (past z0 the terms only
// fall like i^-(alpha+2) once sigma is small; stopping there is the e^-30 absolute
// accuracy of the published implementations); the generalized binomial C(alpha,i)
// changes sign past alpha, so positive and negative terms are summed apart. As for integer orders,
// A - 1 is summed rather than A: A - 1 = E[v^alpha - 1 - alpha (v - 1)] (E[v] = 1 for v = 1 - q + q
// r), which on z <= z0 replaces A0's first two terms by
//   ((1-q)^alpha - 1 + alpha q) Phi(z0/sigma) - alpha q (1 - (1-q)^(alpha-1)) Phi((z0 - 1)/sigma)
// and on z > z0 subtracts (1 - alpha q) Phi(-z0/sigma) + alpha q Phi((1 - z0)/sigma): terms
// of size alpha^2 q^2 that cancel to alpha^2 q^2 / sigma^2, which loses only sigma^2 of
// the 1e-16, not 1/(alpha^2 q^2).
// Returns NaN where the series cannot give A - 1: z0 beyond double's range (sigma above
// 1e154), A - 1 cancelled to fewer than 6 digits (sigma above ~1e5, or q near the
// smallest double), or no convergence in 10^6 terms; the caller then bounds it by the
// chord (log_a_chord).
double log_a_fractional(const SampledGaussian& g, const BinomialRow& binom) {
  const double alpha = binom.alpha();
  const double log_q = g.log_q, log_1mq = g.log_1mq, inv_2var = g.inv_2var, z0 = g.z0,
               sigma = g.sigma;
  // As in log_a_integer: the i = 0 term of A1, q^alpha e^((alpha^2 - alpha)/(2 sigma^2)) Phi(~inf),
  // is inf.
  if (std::isinf(inv_2var)) return kInf;
  if (!std::isfinite(z0)) return kNaN;
  LogSum positive, negative;
  positive.add(log_bernoulli_gap(alpha, g.q) + g.log_phi[0]);
  negative.add(std::log(alpha) + log_q + std::log(-std::expm1((alpha - 1) * log_1mq)) +
               g.log_phi[1]);
  const double one_minus = 1 - alpha * g.q;  // (1 - alpha q) Phi(-z0/sigma), subtracted
  (one_minus > 0 ? negative : positive).add(std::log(std::abs(one_minus)) + g.log_phi[2]);
  negative.add(std::log(alpha) + log_q + g.log_phi[3]);
  double log_abs_binom = 0, last_term = kInf;
  bool binom_positive = true;
  for (std::size_t i = 0; i < 1000000; ++i) {
    if (i < binom.size()) {
      log_abs_binom = binom.log_abs(i);
      binom_positive = binom.positive(i);
    }
    const double id = static_cast<double>(i), j = alpha - id;
    LogSum& target = binom_positive ? positive : negative;
    double s0 = log_abs_binom + id * log_q + j * log_1mq + (id * id - id) * inv_2var;
    double s1 = log_abs_binom + j * log_q + id * log_1mq + (j * j - j) * inv_2var;
    if (i >= 2) add_term(target, s0, (z0 - id) / sigma);  // i = 0, 1: in the terms above
    add_term(target, s1, (j - z0) / sigma);
    const double term = std::max(s0, s1), decay = term - last_term;
    last_term = term;
    if (id > alpha &&
        (term < positive.value() - LogSum::kNegligible || (term < -30 && decay > -0.7))) {
      // A - 1 below 1e-10 of the terms it is the difference of: fewer than 6 of the 16
      // digits are left (at sigma ~1e5; the ratio is about 1/sigma^2).
      const double log_a_minus_1 = log_sub(positive.value(), negative.value());
      if (!std::isfinite(log_a_minus_1) || log_a_minus_1 < positive.value() - 23) return kNaN;
      return log_add(0, log_a_minus_1);
    }
    if (i + 1 >= binom.size()) {  // beyond the row: continue the recurrence
      const double ratio = (alpha - id) / (id + 1);
      if (ratio < 0) binom_positive = !binom_positive;
      log_abs_binom += std::log(std::abs(ratio));
    }
  }
  return kNaN;  // no convergence in 10^6 terms: the chord
}

// Wang, Balle & Kasiviswanathan 2019's strengthened bound (Thm 27) needs the moments up
// to order 2 ceil(alpha/2); above this order the Thm 9 term alone is used (as
// dp_accounting does), a bound either way.
constexpr int kMaxMomentOrder = 258;

// log A_alpha = (alpha - 1) RDP for integer alpha >= 2 and a batch drawn without
// replacement at rate q, replace-one neighbours: Wang, Balle & Kasiviswanathan 2019,
// Thm 27 (the bound dp_accounting uses), with the Gaussian's eps(j) = j/(2 sigma^2),
// eps(inf) = inf and the forward differences Delta^m = E[(r - 1)^m]:
//   A = 1 + q^2 C(alpha,2) min(4 (e^eps(2) - 1), 2 e^eps(2))
//         + sum_{j=3}^{alpha} q^j C(alpha,j) min(4 sqrt(Delta^(2 floor(j/2)) Delta^(2 ceil(j/2))),
//                                                 2 e^((j-1) eps(j))).
// Thm 9, which this file used before, is the same without the first term of each min (up
// to 2.8x looser: sigma 8.816, q 0.01279, 8 steps, delta 8.04e-8 gives eps 0.0478, not
// 0.1347). A - 1 is summed in log space and log A = log(1 + (A - 1)), as above.
double log_a_without_replacement(const SampledGaussian& g, const BinomialRow& binom) {
  if (std::isinf(g.inv_2var)) return kInf;
  const double eps2 = 2 * g.inv_2var;
  LogSum sum;
  if (binom.size() > 2)
    sum.add(2 * g.log_q + binom.log_abs(2) +
            std::min(std::log(4.0) + log_sub(eps2, 0), std::log(2.0) + eps2));
  for (std::size_t j = 3; j < binom.size(); ++j) {
    const int ji = static_cast<int>(j);
    const double jd = static_cast<double>(j);
    double factor = std::log(2.0) + (jd - 1) * jd * g.inv_2var;  // Thm 9's 2 e^((j-1) eps(j))
    if (2 * ((ji + 1) / 2) <= kMaxMomentOrder)
      factor = std::min(factor, std::log(4.0) + 0.5 * (g.log_moment(2 * (ji / 2)) +
                                                       g.log_moment(2 * ((ji + 1) / 2))));
    sum.add(jd * g.log_q + binom.log_abs(j) + factor);
  }
  return log_add(0, sum.value());
}

// At fractional alpha, the CGF log A_alpha = (alpha - 1) RDP interpolated linearly between
// floor(alpha) and ceil(alpha): an upper bound, since log A_alpha = log E[v^alpha] is
// convex in alpha (Wang, Balle & Kasiviswanathan 2019, Cor. 10); log A_1 = 0. `log_a` is
// the integer-order bound.
template <class LogA>
double log_a_chord(const SampledGaussian& g, double alpha, LogA log_a) {
  const double lo = std::floor(alpha), hi = std::ceil(alpha), t = alpha - lo;
  const double at_lo = lo < 2 ? 0.0 : log_a(g, binomial_row(lo));
  return (1 - t) * at_lo + t * log_a(g, binomial_row(hi));
}

// `chord` is set where a Poisson fractional order had to take the chord.
double rdp_unchecked(const SampledGaussian& g, const BinomialRow& binom, Sampling sampling,
                     bool& chord) {
  const double alpha = binom.alpha();
  if (g.q == 1) return alpha * g.inv_2var;  // the Gaussian mechanism (Mironov 2017)
  const bool integer = alpha == std::floor(alpha);
  double log_a;
  if (sampling == Sampling::without_replacement) {
    log_a = integer ? log_a_without_replacement(g, binom)
                    : log_a_chord(g, alpha, log_a_without_replacement);
  } else {
    log_a = integer ? log_a_integer(g, binom) : log_a_fractional(g, binom);
    if (std::isnan(log_a)) {
      log_a = log_a_chord(g, alpha, log_a_integer);
      chord = true;
    }
  }
  return std::max(0.0, log_a / (alpha - 1));
}

// Orders up to 1e5: the binomial sums have alpha + 1 terms.
constexpr double kMaxOrder = 1e5;

void check_orders(const std::vector<double>& orders) {
  if (orders.empty()) throw UsageError("the list of orders is empty");
  for (double a : orders)
    if (!(a > 1 && a <= kMaxOrder))
      throw UsageError(fmt::format("orders must be in (1, {}], got {}", kMaxOrder, a));
}

}  // namespace

std::vector<double> default_rdp_orders() {
  std::vector<double> orders;
  for (int x = 1; x < 100; ++x) orders.push_back(1 + x / 10.0);
  for (int a = 11; a < 64; ++a) orders.push_back(a);
  for (double a : {128.0, 256.0, 512.0, 1024.0}) orders.push_back(a);
  return orders;
}

double subsampled_gaussian_rdp(double sigma, double q, double alpha, Sampling sampling) {
  check_event({sigma, q, 1});
  check_orders({alpha});
  bool chord = false;
  return rdp_unchecked(SampledGaussian(sigma, q), binomial_row(alpha), sampling, chord);
}

std::vector<double> composed_rdp(const std::vector<RdpEvent>& events,
                                 const std::vector<double>& orders, int threads, bool* chord) {
  if (events.empty()) throw UsageError("no accounting events");
  for (const auto& e : events) check_event(e);
  check_orders(orders);
  // Segments with the same (sigma, q, sampling) share one RDP curve.
  using Key = std::tuple<double, double, Sampling>;
  auto key = [](const RdpEvent& e) { return Key{e.sigma, e.q, e.sampling}; };
  std::map<Key, std::size_t> index;
  std::vector<RdpEvent> distinct;
  for (const auto& e : events)
    if (index.emplace(key(e), distinct.size()).second) distinct.push_back(e);
  const std::size_t n_orders = orders.size();
  std::vector<BinomialRow> binomials;
  for (double a : orders) binomials.push_back(binomial_row(a));
  std::vector<double> curves(distinct.size() * n_orders);
  std::vector<char> chords(distinct.size(), 0);
  parallel_blocks(distinct.size(), threads, [&](std::size_t begin, std::size_t end, std::size_t) {
    for (std::size_t i = begin; i < end; ++i) {
      const SampledGaussian g(noise_over_sensitivity(distinct[i]), distinct[i].q);
      bool used = false;
      for (std::size_t o = 0; o < n_orders; ++o)
        curves[i * n_orders + o] = rdp_unchecked(g, binomials[o], distinct[i].sampling, used);
      chords[i] = used;
    }
  });
  if (chord) *chord = std::find(chords.begin(), chords.end(), 1) != chords.end();
  std::vector<double> total(n_orders, 0.0);
  for (const auto& e : events) {
    const double* curve = &curves[index.at(key(e)) * n_orders];
    for (std::size_t o = 0; o < n_orders; ++o) total[o] += static_cast<double>(e.steps) * curve[o];
  }
  return total;
}

RdpResult rdp_to_dp(const std::vector<double>& rdp, const std::vector<double>& orders,
                    double delta) {
  check_delta(delta);
  check_orders(orders);
  if (rdp.size() != orders.size())
    throw UsageError(fmt::format("{} RDP values for {} orders", rdp.size(), orders.size()));
  RdpResult best{kInf, orders.front()};
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const double a = orders[i], r = rdp[i];
    if (std::isnan(r) || r < 0) throw DataError(fmt::format("invalid RDP {} at order {}", r, a));
    // delta^2 > 1 - e^-rdp: (0, delta)-DP through the KL divergence, as dp_accounting.
    const double eps = delta * delta + std::expm1(-r) > 0
                           ? 0
                           : r + std::log1p(-1 / a) - (std::log(delta) + std::log(a)) / (a - 1);
    if (eps < best.epsilon) best = {eps, a};
  }
  best.epsilon = std::max(0.0, best.epsilon);
  return best;
}

RdpResult rdp_epsilon(const std::vector<RdpEvent>& events, double delta,
                      const std::vector<double>& orders, int threads) {
  check_delta(delta);
  bool chord = false;
  RdpResult r = rdp_to_dp(composed_rdp(events, orders, threads, &chord), orders, delta);
  r.chord = chord;
  return r;
}

double rdp_sigma_for_epsilon(double eps, double q, long long steps, double delta,
                             const std::vector<double>& orders, Sampling sampling) {
  if (!(eps > 0) || !std::isfinite(eps))
    throw UsageError(fmt::format("eps must be positive and finite, got {}", eps));
  check_event({1, q, steps});
  check_delta(delta);
  check_orders(orders);
  return smallest_sigma(
      [&](double sigma) {
        return rdp_epsilon({{sigma, q, steps, sampling}}, delta, orders).epsilon;
      },
      eps, 1e-7);
}

}  // namespace dpaudit
