#include "accounting/pld_compose.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "accounting/pld_fft.hpp"
#include "core/error.hpp"
#include "core/infinity.hpp"

namespace dpaudit {

namespace {

// A factor's masses (contiguous on its lattice) and their logs, for the Chernoff bounds.
struct LogFactor {
  const PldPmf* pld;
  std::vector<double> log_mass;  // -inf where the mass is 0
  double count;
};

std::vector<LogFactor> log_factors(const std::vector<PldFactor>& factors) {
  std::vector<LogFactor> out;
  for (const PldFactor& f : factors) {
    LogFactor l{f.pld, {}, static_cast<double>(f.count)};
    for (double m : f.pld->mass) l.log_mass.push_back(m > 0 ? std::log(m) : -kInf);
    out.push_back(std::move(l));
  }
  return out;
}

// K(t) = log E[e^(t S)] over the finite part of the composition (a sub-probability
// measure: the Chernoff bound holds for it as for a probability), rounded up, with K' and
// K'' (for Newton's steps only). The terms m_i e^(t l_i - largest) take one exp per block
// of 64 lattice points and a product by e^(t h) per point (64 roundings: K is raised by
// 1e-14 a step to stay an upper bound), or one exp per point where a block's exponents leave
// [-700, 700]; a block whose terms are all below e^-700 is skipped.
struct Cgf {
  double k, k1, k2;
};

Cgf cgf(const std::vector<LogFactor>& factors, double t) {
  constexpr std::size_t kBlock = 64;
  Cgf out{0, 0, 0};
  for (const LogFactor& f : factors) {
    const PldPmf& p = *f.pld;
    const double th = t * p.h, t0 = t * p.loss(0);
    double largest = -kInf;
    for (std::size_t i = 0; i < p.mass.size(); ++i)
      largest = std::max(largest, f.log_mass[i] + t0 + th * static_cast<double>(i));
    if (largest == -kInf) continue;
    const double step = std::exp(th), rise = std::abs(th) * kBlock;
    double s0 = 0, s1 = 0, s2 = 0;
    for (std::size_t b = 0; b < p.mass.size(); b += kBlock) {
      const std::size_t end = std::min(p.mass.size(), b + kBlock);
      const double e = t * p.loss(b) - largest;
      auto add = [&](std::size_t i, double w) {
        const double l = p.loss(i);
        s0 += w;
        s1 += w * l;
        s2 += w * l * l;
      };
      // every term of the block below e^-700 (masses <= 1): dropped, which K's rounding up by
      // 1e-14 a step covers many times over (at most 2^40 points of e^-700 each)
      if (e + rise < -700) continue;
      if (e - rise > -700 && e + rise < 700) {
        double g = std::exp(e);
        for (std::size_t i = b; i < end; ++i, g *= step) add(i, p.mass[i] * g);
      } else {
        for (std::size_t i = b; i < end; ++i)
          add(i, std::exp(f.log_mass[i] + t * p.loss(i) - largest));
      }
    }
    const double mean = s1 / s0;
    out.k += f.count * (largest + std::log(s0) + 1e-14);
    out.k1 += f.count * mean;
    out.k2 += f.count * std::max(0.0, s2 / s0 - mean * mean);
  }
  return out;
}

// The Chernoff bound P(S >= U) <= e^(K(t) - t U) = tail: U(t) = (K(t) - log tail) / t,
// smallest where g(t) = t K'(t) - K(t) + log tail = 0 (g rises: g' = t K'' >= 0), found
// by bisection with Newton steps on log t to 1e-3 (any t gives a valid bound); `sign`
// -1 gives the lower end through -S. Returns (U, t); U = +inf when g never reaches 0
// (an atom at the largest loss carries more than `tail`: the support is the bound).
std::pair<double, double> chernoff_end(const std::vector<LogFactor>& factors, int sign,
                                       double log_tail, double sd) {
  auto g_at = [&](double log_t) {
    const double t = std::exp(log_t);
    const Cgf c = cgf(factors, sign * t);
    return std::pair{t * sign * c.k1 - c.k + log_tail, t * t * c.k2};  // g and dg/d(log t)
  };
  const double log_t0 = std::log(std::sqrt(-2 * log_tail) / sd);  // the Gaussian optimum
  double lo = log_t0 - 30, hi = log_t0 + 10;
  if (g_at(hi).first <= 0) return {kInf, 0.0};
  double s = log_t0;
  for (int i = 0; i < 100 && hi - lo > 1e-3; ++i) {
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
    if (f.count < 1)
      throw UsageError(fmt::format("a composition count must be >= 1, got {}", f.count));
    if (f.pld->h != factors.front().pld->h)
      throw UsageError(
          fmt::format("lattice spacings differ: {} and {}", f.pld->h, factors.front().pld->h));
  }
}

// The smallest power of two n >= max(want, 4): the radix-2 sizes the roundoff bound below
// holds for (RealFft, pld_fft.hpp).
std::size_t fft_size(std::size_t want) {
  std::size_t n = 4;
  while (n < want) n *= 2;
  return n;
}

// The roundoff bound, on ||computed - exact||_2 over the window (exact: the cyclic
// convolution in exact arithmetic of the exact factors). Model: Higham, "Accuracy and
// Stability of Numerical Algorithms", 2nd ed. 2002, Sec. 24.1, Thm 24.2 and its proof: a
// radix-2 FFT of size 2^t is t levels y <- A_k y, each computed as (A_k + dA_k) y with
// |dA_k| <= eta |A_k| elementwise, so that
//   ||fl(F x) - F x||_2 <= gamma_F ||F x||_2,  gamma_F = t eta / (1 - t eta),
//   eta = mu + gamma_4 (sqrt 2 + mu),  gamma_k = k u / (1 - k u),  u = 2^-53,
// mu the error of the computed twiddle factors; and componentwise (every entry of
// |A_t|...|A_1| is 1: one path from each input to each output, through weights of modulus
// 1) |fl(F x)_k - (F x)_k| <= ((1 + eta)^t - 1) ||x||_1. The real transforms of size n
// (RealFft, pld_fft.hpp) are a complex one of n/2 (t - 1 levels, mu = 4u in double, 8u in long
// double: pld_fft.hpp says how its twiddles are within that, written mu_L below) and a split
// level (twiddles exp(-i pi (k/n' + 1/2)), mu = 16u) whose rows have weights of moduli summing to
// at most sqrt 2:
//   phi = sqrt(2) ((1 + eta_mu_L)^(t-1) (1 + eta_16u) - 1),
// and normwise, with a factor 2 of slack, gamma_F = 2 (t + 1) eta_16u / (1 - (t + 1) eta_16u).
// The scaling by 1/n is exact (n a power of two), and ||F x||_2 = sqrt(n) ||x||_2 over all
// n frequencies (Parseval).
// A complex product is rounded by at most sqrt(2) gamma_2 relative (Higham, Lemma 3.5).
// For a factor x (computed masses within e of the exact ones in l2) composed m times, X^
// its computed transform and X the exact one of the exact factor:
//   ||X^ - X||_2 <= dX = gamma_F sqrt(n) ||x||_2 + sqrt(n) ||e||_2,
//   |X^_k - X_k| <= a = phi ||x||_1 + ||e||_1 at every k,
//   |z^_k - X_k^m| <= m B_k^(m-1) |X^_k - X_k| + rho_m |X^_k|^m + F,  B_k = max(|X^_k|, |X_k|),
// z^ the computed power (2 ceil(log2(m+1)) products: rho_m = (1 + sqrt(2) gamma_2)^that - 1),
// F = 1e-140 for the values below 1e-145 set to 0 (flush, power). In l2 over k, the
// smaller of two routes: m max_k B_k^(m-1) dX (B_k <= M = ||x||_1 + ||e||_1), or
// m a sqrt(sum_k B_k^(2(m-1))), where B_k^(m-1) <= e |X^_k|^m / |X^_k| when |X^_k| >= m a
// (then B_k <= |X^_k| (1 + 1/m)) and <= (m + 1) a otherwise (once that is <= 1): the
// second route is the tighter for long compositions, whose powers vanish but near k = 0.
// The product of the factors' powers errs by at most G sum_i ||D_i||_2 (telescoping;
// G = prod_i max(1, M_i^m_i, max_k |z^_ik|)), plus rho_F |Z^_k| for its own products; the
// inverse transform adds gamma_F ||Z^||_2 / sqrt(n) and divides the rest by sqrt(n):
//   roundoff = (G sum_i ||D_i||_2 + (rho_F + gamma_F) ||Z^||_2 + flushes) / sqrt(n).
// The error grows linearly with the counts m (and so does the true one near k = 0: the
// transform's relative error, raised to the power m): about 1e-13 m ||x||_2 for one step.
struct FftErrorModel {
  // u: the unit roundoff of the arithmetic (2^-53 double, 2^-64 x87 long double)
  // levels: the twiddles' error in the complex levels in units of u (4 in double, 8 in long
  // double: pld_fft.hpp)
  FftErrorModel(std::size_t n, double u, double levels) {
    const double gamma4 = 4 * u / (1 - 4 * u);
    auto eta = [&](double mu) { return mu + gamma4 * (std::sqrt(2.0) + mu); };
    const double t = std::log2(static_cast<double>(n));
    gamma = 2 * (t + 1) * eta(16 * u) / (1 - (t + 1) * eta(16 * u));
    phi = std::sqrt(2.0) *
          std::expm1((t - 1) * std::log1p(eta(levels * u)) + std::log1p(eta(16 * u)));
    product = std::sqrt(2.0) * 2 * u / (1 - 2 * u);
  }
  // rho for k rounded complex products in a row
  double products(double k) const { return std::expm1(k * std::log1p(product)); }
  double gamma;    // the transforms' normwise constant gamma_F
  double phi;      // their componentwise constant
  double product;  // one complex product: sqrt(2) gamma_2
  static constexpr double kFlush = 1e-140;
};

// Products in the power by repeated squaring of a count m: at most 2 ceil(log2(m + 1)).
double power_products(long long m) {
  return 2 * std::ceil(std::log2(static_cast<double>(m) + 1));
}

// Values below 1e-290 in magnitude are 0 here: their share of a total mass of 1 is
// beyond double's reach, and denormals would slow every later product.
template <typename Real>
std::complex<Real> flush(std::complex<Real> z) {
  return std::norm(z) < Real(1e-290) ? Real(0) : z;
}

// z^n for |z| <= 1 by repeated squaring: 2 log2(n) products, each rounded once (about
// 1e-14 relative at n = 1e9; exp(n log z) would carry n times the rounding of log z).
// Where |z|^(2n) is below 1e-290 anyway (most frequencies of a long composition) it is 0
// at the cost of one comparison: |z|^2 < vanishing(n) = e^(-667.8 / n).
double vanishing(long long n) {
  return std::exp(-667.8 / static_cast<double>(n));
}

template <typename Real>
std::complex<Real> power(std::complex<Real> z, long long n, double vanish) {
  if (n == 1) return z;
  if (static_cast<double>(std::norm(z)) < vanish) return Real(0);
  std::complex<Real> result = Real(1);
  while (n > 0) {
    if (n & 1) result = flush(result * z);
    n >>= 1;
    if (n > 0) z = flush(z * z);
  }
  return result;
}

// The index after j on a cycle of n.
std::size_t cyclic_next(std::size_t j, std::size_t n) {
  return j + 1 == n ? 0 : j + 1;
}

// The low frequencies of a long composition, computed again. The forward transform's
// componentwise error a enters the m-th power times m B_k^(m-1) (above), so only the
// frequencies where |X_k|^(m-1) is not negligible carry it, and for a long composition they
// are few: the composed loss spans many lattice points, so its transform is narrow. There
// X_k = sum_j x_j e^(-2 pi i j k / n) is computed directly, in x87 long double (u' = 2^-64),
// with twiddles from two tables (r = r_hi B + r_lo: two entries and one product), and raised
// to the power m in long double too (power<long double>: rho' = rho at u', below rho), so
// that only the power, not X_k, is rounded to double (u = 2^-53, below rho as well: the
// power's own term rho |X^_k|^m covers both). Its error: each table entry is within 17 u' of the
// exact twiddle in each part (the angle 2 pi r / n is rounded twice, at most 4 pi u' off; cosl and
// sinl add at most 2 ulp, 4 u': glibc's measured accuracy, not a proven one), 24 u' in modulus; the
// product of two within 2 (24 u') + sqrt(2) gamma'_2 < 52 u'; times x_j, sqrt(2) u' |x_j| more; the
// pairwise sum of `len` terms adds gamma'_c sum_j |x_j|, c = ceil(log2 len) (Higham 2002, Sec. 4.2,
// for the real and imaginary parts). So |X^_k - X_k| <= low_error(len) ||x||_1, about (c + 54) u',
// 2^-11 of double's u or less: the m-fold amplification of the error (above) shrinks by as much.
class DirectTransform {
 public:
  explicit DirectTransform(std::size_t n) : n_(n), bits_(0) {
    while ((std::size_t{1} << bits_) < n) ++bits_;
    block_ = std::size_t{1} << ((bits_ + 1) / 2);
    constexpr long double kTwoPi = 6.283185307179586476925286766559005768L;
    auto twiddle = [&](std::size_t r) {
      const long double angle =
          -kTwoPi * static_cast<long double>(r) / static_cast<long double>(n_);
      return std::complex<long double>(cosl(angle), sinl(angle));
    };
    for (std::size_t r = 0; r < block_; ++r) low_.push_back(twiddle(r));
    for (std::size_t r = 0; r < n_; r += block_) high_.push_back(twiddle(r));
  }
  // X_k of the n-periodic x, whose nonzero entries are x[start], ..., x[start + len - 1] (mod n)
  // The terms are summed in runs of kRun, and the runs' sums pairwise (Higham 2002, Sec. 4.2): each
  // term goes through at most (kRun - 1) + ceil(log2 runs) additions, where one running sum would
  // take len (a bound 1000x as large at 10^5 terms) and a pairwise sum throughout costs twice the
  // time.
  std::complex<long double> at(const std::vector<double>& x, std::size_t start, std::size_t len,
                               std::size_t k) const {
    thread_local std::vector<std::complex<long double>> runs;
    runs.clear();
    for (std::size_t from = 0, j = start; from < len; from += kRun) {
      std::complex<long double> sum = 0;
      for (std::size_t i = from; i < std::min(len, from + kRun); ++i, j = cyclic_next(j, n_)) {
        if (x[j] == 0) continue;
        const std::size_t r = (j * k) & (n_ - 1);  // n a power of two; j k < 2^62 for n <= 2^31
        sum += static_cast<long double>(x[j]) * times(high_[r / block_], low_[r % block_]);
      }
      runs.push_back(sum);
    }
    for (std::size_t width = 1; width < runs.size(); width *= 2)  // pairwise, in place
      for (std::size_t i = 0; i + width < runs.size(); i += 2 * width) runs[i] += runs[i + width];
    return runs.empty() ? 0 : runs[0];
  }
  std::size_t size() const { return n_; }
  static double low_error(std::size_t len) {
    const double ul = std::numeric_limits<long double>::epsilon() / 2;
    const double runs = std::ceil(static_cast<double>(len) / kRun),
                 terms = static_cast<double>(std::min<std::size_t>(len, kRun)) - 1 +
                         std::ceil(std::log2(std::max(runs, 1.0)));
    const double gamma = terms * ul / (1 - terms * ul);
    return (54 * ul + gamma) * (1 + 1e-3);
  }

 private:
  static constexpr std::size_t kRun = 32;
  // The product written out (std::complex's checks for NaN on the way): the same rounding.
  static std::complex<long double> times(std::complex<long double> a, std::complex<long double> b) {
    return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
  }
  std::size_t n_, bits_, block_;
  std::vector<std::complex<long double>> low_, high_;
};

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
  double support_lo = 0, support_hi = 0;
  for (const PldFactor& f : factors) {
    const std::vector<double>& mass = f.pld->mass;
    const auto positive = [](double m) { return m > 0; };
    const auto lo = std::find_if(mass.begin(), mass.end(), positive);
    if (lo == mass.end()) continue;
    const auto hi = std::find_if(mass.rbegin(), mass.rend(), positive);
    support_lo +=
        static_cast<double>(f.count) * static_cast<double>(f.pld->first + (lo - mass.begin()));
    support_hi +=
        static_cast<double>(f.count) * static_cast<double>(f.pld->first + (mass.rend() - hi - 1));
  }
  const double h = factors.front().pld->h;
  const double log_tail = std::log(outside_mass / 2);
  const std::vector<LogFactor> logs = log_factors(factors);
  const double sd = std::max(std::sqrt(cgf(logs, 0).k2), h);  // K''(0): the composed variance
  const auto [upper, t_up] = chernoff_end(logs, +1, log_tail, sd);
  const auto [minus_lower, t_lo] = chernoff_end(logs, -1, log_tail, sd);
  const double hi = std::min(std::ceil(upper / h), support_hi),
               lo = std::max(std::floor(-minus_lower / h), support_lo);
  if (!(std::abs(hi) < 4e18 && std::abs(lo) < 4e18) || hi < lo)
    throw DataError(
        fmt::format("the composed privacy loss spans [{}, {}], beyond 4e18 lattice steps of {}",
                    lo * h, hi * h, h));
  // The Chernoff bounds at the ends actually used (at the support's ends: nothing beyond).
  const double above = hi >= support_hi ? 0 : std::exp(cgf(logs, t_up).k - t_up * hi * h);
  const double below = lo <= support_lo ? 0 : std::exp(cgf(logs, -t_lo).k + t_lo * lo * h);
  return {static_cast<long long>(lo), static_cast<long long>(hi), above + below};
}

namespace {

// The half spectrum's weights: frequency k stands for itself and n - k, but at 0 and n/2. The
// transforms' orders (Transform below) keep 0 and n/2 at their positions, so this is also the
// weight of a position.
double half_spectrum_weight(std::size_t k, std::size_t n) {
  return k == 0 || k == n / 2 ? 1.0 : 2.0;
}

// A factor's frequencies computed again directly, in long double (by their positions in the
// transform's order, ascending), their error bound a_low, and the sum of their half-spectrum
// weights.
struct Direct {
  std::vector<std::pair<std::size_t, std::complex<long double>>> at;
  double a_low;
  double replaced = 0;
};

// In double, the frequencies whose B_k^(m-1) is within e^-16 of the largest are computed
// again directly (DirectTransform, error a_low instead of a) where that costs less than
// about one transform (|low| len <= n log2(n) / 2 products in long double).
Direct direct_frequencies(const std::vector<std::complex<double>>& spectrum,
                          const std::vector<double>& buffer, const PldPmf& p, long long count,
                          const RealFft<double>& fft, double mass, double e1, double a) {
  const std::size_t n = fft.size();
  thread_local std::optional<DirectTransform> direct_transform;
  const double m = static_cast<double>(count);
  const std::size_t len = std::min(p.mass.size(), n);
  // |X_k|^(m-1) >= e^-16 max_k |X_k|^(m-1)  <=>  |X_k|^2 >= e^(-32 / (m - 1)) max_k |X_k|^2
  double largest_norm = 0;
  for (const auto& x : spectrum)
    largest_norm = std::max(largest_norm, static_cast<double>(std::norm(x)));
  const double cut = largest_norm * std::exp(-32 / (m - 1));
  std::vector<std::size_t> low;
  for (std::size_t k = 0; k < spectrum.size(); ++k)
    if (count > 1 && static_cast<double>(std::norm(spectrum[k])) >= cut) low.push_back(k);
  Direct direct{{}, DirectTransform::low_error(len) * mass + e1};
  // (only where long double is wider than double: x87's 64-bit significand)
  if (std::numeric_limits<long double>::digits >= 64 && count > 1 && n <= (std::size_t{1} << 31) &&
      direct.a_low < a &&
      static_cast<double>(low.size()) * static_cast<double>(len) <=
          0.5 * static_cast<double>(n) * std::log2(static_cast<double>(n))) {
    if (!direct_transform || direct_transform->size() != n) direct_transform.emplace(n);
    for (std::size_t k : low) {
      direct.at.emplace_back(
          k, direct_transform->at(buffer, index_mod(p.first, n), len, fft.frequency(k)));
      direct.replaced += half_spectrum_weight(k, n);
    }
  }
  return direct;
}

// A factor's bounds on its input: a (the error of a transformed entry), the l1 norm's bound,
// and rho (the relative error of the products of one power).
struct FactorBounds {
  double a, bound, rho;
};

// sum_k a_k^2 B_k^(2(m-1)), sum_k |X^_k|^(2m) (bounded) and the largest |X^_k|^m.
struct PowerSums {
  double b_sum = 0, z_sum = 0, largest = 0;
};

// Multiplies `product` by the factor's spectrum to the power `count` (the recomputed
// frequencies from `direct`), and sums the terms of the roundoff bound.
template <typename Real>
PowerSums multiply_powers(std::vector<std::complex<Real>>& product,
                          const std::vector<std::complex<Real>>& spectrum, const Direct& direct,
                          long long count, const FactorBounds& f, std::size_t n) {
  const double m = static_cast<double>(count);
  PowerSums sums;
  auto next_direct = direct.at.begin();
  const double vanish = vanishing(count);
  // Where the power vanishes (z = 0, most frequencies of a long composition), the terms below
  // without a square root or a division: |X^_k| >= m a compared as squares, and e powered / |X^_k|
  // taken at its largest there, e powered / (m a).
  const double vanished = FftErrorModel::kFlush / (1 - f.rho), at_least = m * f.a;
  const double b_above = std::exp(1.0) * vanished / at_least,
               b_below =
                   (m + 1) * f.a <= 1 ? (m + 1) * f.a : std::pow(std::max(1.0, f.bound), m - 1);
  for (std::size_t k = 0; k < product.size(); ++k) {
    const bool recomputed = next_direct != direct.at.end() && next_direct->first == k;
    if (!recomputed && count > 1 && f.a > 0) {
      const double x_norm = static_cast<double>(std::norm(spectrum[k]));
      if (x_norm < vanish) {  // power() would give 0
        const double b_power = x_norm > 0 && x_norm >= at_least * at_least ? b_above : b_below;
        sums.b_sum += half_spectrum_weight(k, n) * (f.a * b_power) * (f.a * b_power);
        sums.z_sum += half_spectrum_weight(k, n) * vanished * vanished;
        product[k] = Real(0);
        continue;
      }
    }
    std::complex<Real> z;
    double x_abs;  // |.| as sqrt(norm): no overflow below 1e154, and these are at most about 1
    if (recomputed) {
      const std::complex<long double> zl = power(next_direct->second, count, vanish);
      z = {static_cast<Real>(zl.real()), static_cast<Real>(zl.imag())};
      x_abs = static_cast<double>(std::sqrt(std::norm(next_direct->second)));
      ++next_direct;
    } else {
      z = power(spectrum[k], count, vanish);
      x_abs = std::sqrt(static_cast<double>(std::norm(spectrum[k])));
    }
    const double z_abs = std::sqrt(static_cast<double>(std::norm(z)));
    const double powered = (z_abs + FftErrorModel::kFlush) / (1 - f.rho);  // >= |X^_k|^m
    if (count > 1) {
      const double a_k = recomputed ? direct.a_low : f.a;
      const double b_power = x_abs > 0 && x_abs >= m * a_k ? std::exp(1.0) * powered / x_abs
                             : (m + 1) * a_k <= 1          ? (m + 1) * a_k
                                                  : std::pow(std::max(1.0, f.bound), m - 1);
      sums.b_sum += half_spectrum_weight(k, n) * (a_k * b_power) * (a_k * b_power);
    }
    sums.z_sum += half_spectrum_weight(k, n) * powered * powered;
    sums.largest = std::max(sums.largest, z_abs);
    if (product[k] != Real(0)) product[k] = flush(product[k] * z);
  }
  return sums;
}

// The composed PMF read off the inverse transform `buffer` over the plan's window, with the
// roundoff bound: the spectral one, plus in long double the rounding of the result to double.
template <typename Real>
ComposedPld composed_window(const std::vector<Real>& buffer, const CompositionPlan& plan, double h,
                            double log_finite, double spectral_roundoff) {
  const std::size_t n = buffer.size();
  ComposedPld out{};
  out.pld.h = h;
  out.pld.first = plan.lo;
  out.pld.mass.resize(n);
  double rounded = 0;  // ||c||_2^2, for the rounding of a long double result to double
  for (std::size_t j = 0, at = index_mod(plan.lo, n); j < n; ++j, at = cyclic_next(at, n)) {
    const double m = static_cast<double>(buffer[at]);  // rounded to double: 2^-53 relative
    if (!std::isfinite(m))
      throw DataError("the FFT of the privacy-loss distribution is not finite");
    out.pld.mass[j] = std::max(0.0, m);
    rounded += m * m;
  }
  out.pld.inf_mass = -std::expm1(log_finite);
  out.outside_mass = plan.outside_mass;
  out.roundoff = spectral_roundoff +
                 (sizeof(Real) > sizeof(double) ? std::ldexp(std::sqrt(rounded), -52) : 0.0);
  if (!std::isfinite(out.roundoff)) throw DataError("the FFT's roundoff bound is not finite");
  return out;
}

// The real transforms of size n in the arithmetic Real (RealFft, pld_fft.hpp; its half spectra
// in its own order), one per thread: it keeps the twiddle factors of the last size used, and the
// compositions of an accountant share a size, and calibration repeats them.
template <typename Real>
const RealFft<Real>& transform_of_size(std::size_t n) {
  thread_local std::optional<RealFft<Real>> planned;
  if (!planned || planned->size() != n) planned.emplace(n);
  return *planned;
}

// The composition in the arithmetic Real (double or long double), with its roundoff bound.
template <typename Real>
ComposedPld compose_in(const std::vector<PldFactor>& factors, const CompositionPlan& plan) {
  const std::size_t n = fft_size(plan.points());
  const RealFft<Real>& transform = transform_of_size<Real>(n);
  // kept per thread: the compositions of an accountant share a size, and memory asked for anew
  // costs a page fault per 4 KiB (a tenth of the time of a run of 10^6 steps)
  thread_local std::vector<Real> buffer;
  thread_local std::vector<std::complex<Real>> product, spectrum;
  buffer.resize(n);
  product.assign(n / 2 + 1, Real(1));
  double log_finite = 0;  // log of the probability that no step has loss +inf
  // The roundoff bound (above): sum_i ||D_i||_2, the growth G, and the products per
  // frequency (one per factor).
  const double unit = std::numeric_limits<Real>::epsilon() / 2;
  const FftErrorModel model(n, unit, std::is_same_v<Real, double> ? 4 : 8);
  const double root_n = std::sqrt(static_cast<double>(n));
  const double products = static_cast<double>(factors.size());
  double error_sum = 0, growth = 1;
  for (const PldFactor& f : factors) {
    std::fill(buffer.begin(), buffer.end(), 0.0);
    const PldPmf& p = *f.pld;
    for (std::size_t i = 0, j = index_mod(p.first, n); i < p.mass.size();
         ++i, j = cyclic_next(j, n))
      buffer[j] += p.mass[i];
    transform.forward(buffer, spectrum);
    // ||x||_1 and ||x||_2 of the input (masses >= 0), each rounded by at most (n + folds) u
    // relative: a factor longer than n is folded onto the window, each fold one more rounding
    const double folds = std::ceil(static_cast<double>(p.mass.size()) / static_cast<double>(n));
    const double slack = 1 + std::ldexp(static_cast<double>(n) + folds, -51);
    double mass = 0, square = 0;
    for (Real m : buffer) {
      mass += static_cast<double>(m);
      square += static_cast<double>(m * m);
    }
    mass *= slack;
    const double norm = std::sqrt(square) * slack;
    const double e1 = std::sqrt(static_cast<double>(p.mass.size())) * f.error_l2;  // ||e||_1
    // (folding sums up to `folds` error terms per point: their l2 norm grows by at most
    // sqrt(folds))
    double dx = model.gamma * root_n * norm + root_n * std::sqrt(folds) * f.error_l2;
    const double a = model.phi * mass + e1, bound = mass + e1;
    const double m = static_cast<double>(f.count);
    const double rho = model.products(power_products(f.count));
    // In double, some frequencies computed again in long double (direct_frequencies).
    Direct direct{{}, a};
    if constexpr (std::is_same_v<Real, double>) {
      direct = direct_frequencies(spectrum, buffer, p, f.count, transform, mass, e1, a);
      // the normwise bound: the recomputed entries' errors are now within a_low each
      if (!direct.at.empty()) dx += std::sqrt(direct.replaced) * direct.a_low;
    }
    const PowerSums sums = multiply_powers(product, spectrum, direct, f.count, {a, bound, rho}, n);
    double d = dx;  // m = 1
    if (f.count > 1)
      d = std::min(m * std::pow(std::max(1.0, bound), m - 1) * dx, m * std::sqrt(sums.b_sum)) +
          rho * std::sqrt(sums.z_sum) + root_n * FftErrorModel::kFlush;
    error_sum += d;
    growth *= std::max({1.0, sums.largest, std::pow(bound, m)});
    log_finite += static_cast<double>(f.count) * std::log1p(-p.inf_mass);
  }
  double product_square = 0;  // ||Z^||_2^2 over all n frequencies
  for (std::size_t k = 0; k < product.size(); ++k)
    product_square += half_spectrum_weight(k, n) * static_cast<double>(std::norm(product[k]));
  const double rho_f = model.products(products);
  const double spectral_error = growth * error_sum +
                                (rho_f / (1 - rho_f) + model.gamma) * std::sqrt(product_square) +
                                root_n * (products + 1) * FftErrorModel::kFlush * growth;
  transform.inverse(product, buffer);
  return composed_window(buffer, plan, factors.front().pld->h, log_finite, spectral_error / root_n);
}

}  // namespace

ComposedPld compose_plds(const std::vector<PldFactor>& factors, const CompositionPlan& plan,
                         double max_roundoff) {
  check_factors(factors);
  ComposedPld out = compose_in<double>(factors, plan);
  if (out.roundoff > max_roundoff) out = compose_in<long double>(factors, plan);
  return out;
}

ComposedPld compose_grouped(const std::vector<PldFactor>& factors, const CompositionPlan& plan,
                            double max_roundoff) {
  constexpr std::size_t kDirect = 16, kLongDouble = 8;
  constexpr double kGroupOutside = 1e-18;
  if (factors.size() > kLongDouble) max_roundoff = std::numeric_limits<double>::infinity();
  if (factors.size() <= kDirect) return compose_plds(factors, plan, max_roundoff);
  check_factors(factors);
  const std::size_t groups =
      static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(factors.size()))));
  const std::size_t per_group = (factors.size() + groups - 1) / groups;
  std::vector<ComposedPld> parts;
  double outside = plan.outside_mass;
  for (std::size_t begin = 0; begin < factors.size(); begin += per_group) {
    const std::vector<PldFactor> group(
        factors.begin() + static_cast<std::ptrdiff_t>(begin),
        factors.begin() + static_cast<std::ptrdiff_t>(std::min(factors.size(), begin + per_group)));
    const CompositionPlan group_plan = plan_composition(group, kGroupOutside);
    parts.push_back(compose_grouped(group, group_plan));
    outside += 2 * parts.back().outside_mass;
  }
  std::vector<PldFactor> combined;
  for (const ComposedPld& part : parts) combined.push_back({&part.pld, 1, part.roundoff});
  ComposedPld out = compose_plds(combined, plan);
  out.outside_mass = outside;
  return out;
}

double composition_slack(const ComposedPld& c) {
  const long long from = std::max(0LL, 1 - c.pld.first);  // loss (first + i) h > 0
  const long long positive = std::max(0LL, static_cast<long long>(c.pld.mass.size()) - from);
  return c.outside_mass + c.roundoff * std::sqrt(static_cast<double>(positive));
}

}  // namespace dpaudit
