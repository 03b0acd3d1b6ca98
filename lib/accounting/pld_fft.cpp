#include "accounting/pld_fft.hpp"

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dpaudit {

namespace {

// Products written out: std::complex's operator* checks for NaN and calls a library routine
// (the same rounding: Higham 2002, Lemma 3.5, sqrt(2) gamma_2 relative).
template <typename Real>
std::complex<Real> times(std::complex<Real> a, std::complex<Real> b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}
template <typename Real>
std::complex<Real> times_conj(std::complex<Real> a, std::complex<Real> b) {  // a conj(b)
  return {a.real() * b.real() + a.imag() * b.imag(), a.imag() * b.real() - a.real() * b.imag()};
}

// e^(-2 pi i m / M), M a power of two >= 4: within the first octant (angles up to pi/4) as the
// product of two entries of tables of cosl and sinl, e^(i 2 pi (c B + f) / M) = coarse[c] fine[f]
// (B about the root of M/8), in long double, or (one_table) from cosl and sinl directly; the other
// octants by exact symmetries (swaps and signs). An entry is within 3.6 u' of the exact value in
// each part (u' = 2^-64: the angle 2 pi i / M rounded twice, 2 pi and the product, 1.6 u' at pi/4,
// and cosl or sinl within 2 ulp, 2 u' below 1), 5.1 u' in modulus; a product of two within
// 2 (5.1 u') + sqrt(2) gamma_2 < 13.1 u', and rounded to double about u/2 in each part.
class Roots {
 public:
  // one_table: every entry of the octant from cosl and sinl (fine = {1}: no product)
  Roots(std::size_t m, bool one_table) : m_(m), block_(1) {
    while (!one_table && block_ * block_ < m / 8) block_ *= 2;
    auto root = [&](std::size_t i) {
      constexpr long double kTwoPi = 6.283185307179586476925286766559005768L;
      const long double angle = kTwoPi * static_cast<long double>(i) / static_cast<long double>(m);
      return std::complex<long double>(cosl(angle), sinl(angle));
    };
    for (std::size_t f = 0; f < block_; ++f) fine_.push_back(root(f));
    for (std::size_t c = 0; c * block_ <= m / 8; ++c) coarse_.push_back(root(c * block_));
  }
  template <typename Real>
  std::complex<Real> at(std::size_t m) const {
    const std::size_t quarter = m_ / 4, eighth = m_ / 8;
    const std::size_t quadrant = m / quarter, r = m % quarter;
    // (cos, sin) of the angle r within its quadrant: beyond pi/4, pi/2 minus an angle below it
    const std::complex<long double> e = octant(r <= eighth ? r : quarter - r);
    long double c = r <= eighth ? e.real() : e.imag(), s = r <= eighth ? e.imag() : e.real();
    for (std::size_t q = 0; q < quadrant; ++q) c = -std::exchange(s, c);  // + pi/2 each
    return {static_cast<Real>(c), static_cast<Real>(-s)};
  }

 private:
  std::complex<long double> octant(std::size_t i) const {
    return times(coarse_[i / block_], fine_[i % block_]);
  }
  std::size_t m_, block_;
  std::vector<std::complex<long double>> coarse_, fine_;
};

// Decimation in frequency, depth first: natural order in, bit-reversed out. A level of length
// L maps (u, v) to (u + v, (u - v) w), w = e^(-2 pi i j / L).
constexpr std::size_t kInCache = 1024;

template <typename Complex>
void dif(Complex* a, std::size_t n, const Complex* twiddles) {
  for (std::size_t len = n; len >= 2; len /= 2) {
    const std::size_t h = len / 2;
    const Complex* w = twiddles + h;
    for (std::size_t b = 0; b < n; b += len) {
      for (std::size_t j = 0; j < h; ++j) {
        const Complex u = a[b + j], v = a[b + j + h];
        a[b + j] = u + v;
        a[b + j + h] = times(u - v, w[j]);
      }
    }
    if (len > kInCache) {  // the rest, half by half
      dif(a, h, twiddles);
      dif(a + h, h, twiddles);
      return;
    }
  }
}

// Decimation in time with conjugate twiddles (the inverse, unscaled), depth first:
// bit-reversed in, natural out. A level of length L maps (u, v) to (u + t, u - t), t = v conj(w).
template <typename Complex>
void dit_conj(Complex* a, std::size_t n, const Complex* twiddles) {
  std::size_t len = 2;
  if (n > kInCache) {
    dit_conj(a, n / 2, twiddles);
    dit_conj(a + n / 2, n / 2, twiddles);
    len = n;
  }
  for (; len <= n; len *= 2) {
    const std::size_t h = len / 2;
    const Complex* w = twiddles + h;
    for (std::size_t b = 0; b < n; b += len) {
      for (std::size_t j = 0; j < h; ++j) {
        const Complex u = a[b + j], t = times_conj(a[b + j + h], w[j]);
        a[b + j] = u + t;
        a[b + j + h] = u - t;
      }
    }
  }
}

// In the bit-reversed order, the frequencies k and half - k of the positions in [2^j, 2^(j+1))
// are mirrored there: position p holds k, position 3 2^j - 1 - p holds half - k, and of the two
// the even position holds the one below half/2 (its bit reversal has a top bit 0). Position 1 holds
// half/2, its own mirror. Each pair is done once, as Eigen's kissfft does it in natural order, its
// twiddle at the pair's place in split_.
template <class Pair>
void for_each_pair(std::size_t half, const Pair& pair) {
  pair(1, 1, 0);
  std::size_t next = 1;
  for (std::size_t begin = 2; begin < half; begin *= 2)
    for (std::size_t p = begin; p < 2 * begin; p += 2) pair(p, 3 * begin - 1 - p, next++);
}

}  // namespace

template <typename Real>
RealFft<Real>::RealFft(std::size_t n) : n_(n), half_(n / 2), bits_(0) {
  if (n < 4 || (n & (n - 1)) != 0 || n > (std::size_t{1} << 32))
    throw UsageError(fmt::format("an FFT size must be a power of two in [4, 2^32], got {}", n));
  while ((std::size_t{1} << bits_) < half_) ++bits_;
  // the n-th roots: e^(-2 pi i j / L) = root(j n / L), and the split's
  // e^(-i pi (k / half + 1/2)) = e^(-2 pi i (k + n / 4) / n) = root(k + n / 4)
  const Roots roots(n, std::is_same_v<Real, long double>);
  twiddles_.assign(half_, Complex(1, 0));
  for (std::size_t j = 0; j < half_ / 2; ++j) twiddles_[half_ / 2 + j] = roots.at<Real>(2 * j);
  for (std::size_t len = half_ / 2; len >= 2; len /= 2)  // every other one of the level above
    for (std::size_t j = 0; j < len / 2; ++j) twiddles_[len / 2 + j] = twiddles_[len + 2 * j];
  std::vector<std::uint32_t> reversed(half_, 0);  // the bit reversals, each from its half's
  for (std::size_t p = 1; p < half_; ++p)
    reversed[p] = static_cast<std::uint32_t>((reversed[p / 2] >> 1) | ((p & 1) << (bits_ - 1)));
  std::vector<std::uint32_t> pair_frequency(half_ / 2);  // k of each pair, in the pairs' order
  for_each_pair(half_, [&](std::size_t at_k, std::size_t, std::size_t i) {
    pair_frequency[i] = reversed[at_k];
  });
  for (std::uint32_t k : pair_frequency) split_.push_back(roots.at<Real>(k + n / 4));
}

template <typename Real>
std::size_t RealFft<Real>::frequency(std::size_t p) const {
  if (p == 0 || p == half_) return p;
  std::size_t k = 0;
  for (std::size_t b = 0; b < bits_; ++b) k |= ((p >> b) & 1) << (bits_ - 1 - b);
  return k;
}

template <typename Real>
void RealFft<Real>::split_forward(Complex* z) const {
  const Complex dc = z[0];
  z[0] = {dc.real() + dc.imag(), 0};
  z[half_] = {dc.real() - dc.imag(), 0};
  for_each_pair(half_, [&](std::size_t at_k, std::size_t at_nk, std::size_t i) {
    const Complex fpk = z[at_k], fpnk = std::conj(z[at_nk]);
    const Complex f1k = fpk + fpnk, f2k = fpk - fpnk;
    const Complex tw = times(f2k, split_[i]);
    z[at_k] = (f1k + tw) * Real(0.5);
    z[at_nk] = std::conj(f1k - tw) * Real(0.5);
  });
}

template <typename Real>
void RealFft<Real>::split_inverse(Complex* z) const {
  const Complex first = z[0], last = z[half_];
  z[0] = {first.real() + last.real(), first.real() - last.real()};
  for_each_pair(half_, [&](std::size_t at_k, std::size_t at_nk, std::size_t i) {
    const Complex fk = z[at_k], fnkc = std::conj(z[at_nk]);
    const Complex fek = fk + fnkc, fok = times_conj(fk - fnkc, split_[i]);
    z[at_k] = fek + fok;
    z[at_nk] = std::conj(fek - fok);
  });
}

template <typename Real>
void RealFft<Real>::forward(const std::vector<Real>& x, std::vector<Complex>& spectrum) const {
  spectrum.resize(half_ + 1);
  for (std::size_t j = 0; j < half_; ++j) spectrum[j] = {x[2 * j], x[2 * j + 1]};
  dif(spectrum.data(), half_, twiddles_.data());
  split_forward(spectrum.data());
}

template <typename Real>
void RealFft<Real>::inverse(std::vector<Complex>& spectrum, std::vector<Real>& x) const {
  split_inverse(spectrum.data());
  dit_conj(spectrum.data(), half_, twiddles_.data());
  x.resize(n_);
  const Real scale = 1 / static_cast<Real>(n_);  // a power of two: exact
  for (std::size_t j = 0; j < half_; ++j) {
    x[2 * j] = spectrum[j].real() * scale;
    x[2 * j + 1] = spectrum[j].imag() * scale;
  }
}

template class RealFft<double>;
template class RealFft<long double>;

}  // namespace dpaudit
