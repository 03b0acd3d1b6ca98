// The real FFT of the PLD compositions (pld_compose.cpp): radix 2, sizes n = 2^t >= 4, in the
// shape that pld_compose.cpp's proven roundoff bound is written for (Higham 2002, Sec. 24.1): a
// complex transform of n/2 points in t - 1 radix-2 levels, each output of a level one rounded
// butterfly of two inputs with a twiddle of modulus 1, and one split level that separates the
// even and odd halves (the twiddles exp(-i pi (k / (n/2) + 1/2))), as Eigen's kissfft does it.
// Every twiddle is computed in long double from tables of cosl and sinl over the first octant
// (pld_fft.cpp, Roots): in double (Real = double) rounded, within about u/2 of the exact value in
// each part (u = 2^-53), below the bound's 4u (levels) and 16u (split) in modulus; in x87 long
// double straight from cosl and sinl, within 5.1 u' in modulus (u' = 2^-64), below the 8u'
// (levels) and 16u' (split) the bound takes there (pld_compose.cpp, FftErrorModel). A DIF
// level's butterfly
// (u + v, (u - v) w) is rounded like the DIT one (u + w v, u - w v) the bound's model takes:
// within eta of each entry of its matrix, with the same norm sqrt(2).
//
// Speed: the forward transform is decimation in frequency (natural order in, bit-reversed out),
// the inverse decimation in time (bit-reversed in, natural out), both depth first so that the
// levels below 2^10 points run in cache, and no bit-reversal pass anywhere: the half spectrum
// stays in the transform's order, position p holding the frequency frequency(p). The product of
// spectra in the Fourier domain does not care about the order.
#pragma once
#include <complex>
#include <cstddef>
#include <vector>

namespace dpaudit {

template <typename Real>
class RealFft {
 public:
  using Complex = std::complex<Real>;
  // UsageError unless n is a power of two >= 4 (and at most 2^32).
  explicit RealFft(std::size_t n);
  std::size_t size() const { return n_; }

  // The half spectrum X_k = sum_j x_j e^(-2 pi i j k / n), k = 0..n/2, of the n reals x:
  // spectrum[p] = X_frequency(p), p = 0..n/2 (resized to n/2 + 1).
  void forward(const std::vector<Real>& x, std::vector<Complex>& spectrum) const;
  // x_j = (1/n) sum_k X_k e^(2 pi i j k / n) over all n frequencies (X_(n-k) = conj X_k) from a
  // half spectrum in the order above, which is overwritten; x is resized to n.
  void inverse(std::vector<Complex>& spectrum, std::vector<Real>& x) const;
  // The frequency k at position p of a half spectrum: 0 at p = 0, n/2 at p = n/2, otherwise the
  // bit reversal of p over t - 1 bits.
  std::size_t frequency(std::size_t p) const;

 private:
  void split_forward(Complex* z) const;
  void split_inverse(Complex* z) const;
  std::size_t n_, half_, bits_;
  std::vector<Complex> twiddles_;  // level of length L: e^(-2 pi i j / L) at L/2 + j, j < L/2
  std::vector<Complex> split_;     // e^(-i pi (k / half + 1/2)), k = 1..half/2, in the order of
                                   // the pairs (pld_fft.cpp, for_each_pair)
};

}  // namespace dpaudit
