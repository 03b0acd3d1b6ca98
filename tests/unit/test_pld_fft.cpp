// The PLD compositions' real FFT (pld_fft.hpp) against the definition, the DFT summed directly in
// long double (every frequency up to 64 points, a sample beyond), at sizes from 4 (all split, no
// level) to 2^12 (levels above and below the in-cache depth of 2^10), and its inverse.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>
#include <vector>

#include "accounting/pld_fft.hpp"
#include "core/error.hpp"

using namespace dpaudit;

namespace {

// sum_j x_j e^(-2 pi i j k / n) over j in [from, from + len), in long double, summed pairwise: off
// by about (log2 n + 5) u' ||x||_1 (u' = 2^-64), within the long double transform's bound below
template <typename Real>
std::complex<long double> dft(const std::vector<Real>& x, std::size_t k, std::size_t from,
                              std::size_t len) {
  if (len > 1) return dft(x, k, from, len / 2) + dft(x, k, from + len / 2, len - len / 2);
  constexpr long double kTwoPi = 6.283185307179586476925286766559005768L;
  const long double angle = -kTwoPi * static_cast<long double>((from * k) % x.size()) / x.size();
  return static_cast<long double>(x[from]) * std::complex<long double>(cosl(angle), sinl(angle));
}

}  // namespace

TEST_CASE_TEMPLATE("the real FFT is the DFT, each frequency at its position, and inverts", Real,
                   double, long double) {
  for (std::size_t n : {4, 8, 16, 64, 2048, 4096}) {
    std::vector<Real> x(n);
    double l1 = 0;
    for (std::size_t j = 0; j < n; ++j) {
      x[j] = 1 / (Real(1) + static_cast<Real>((j * 7919) % 97));  // positive, like masses
      l1 += static_cast<double>(x[j]);
    }
    const RealFft<Real> fft(n);
    std::vector<std::complex<Real>> spectrum;
    fft.forward(x, spectrum);
    REQUIRE(spectrum.size() == n / 2 + 1);
    std::vector<bool> seen(n / 2 + 1, false);
    double worst = 0;
    for (std::size_t p = 0; p <= n / 2; ++p) {
      const std::size_t k = fft.frequency(p);
      REQUIRE(k <= n / 2);
      seen[k] = true;
      if (n > 64 && p % 17 != 0 && p + 1 < n / 2) continue;  // a sample of the large sizes
      const std::complex<long double> want = dft(x, k, 0, n);
      worst = std::max(
          worst, static_cast<double>(std::abs(
                     std::complex<long double>(spectrum[p].real(), spectrum[p].imag()) - want)));
    }
    for (bool s : seen) CHECK(s);  // every frequency once
    // the componentwise bound of pld_compose.cpp, phi ||x||_1 with phi ~ sqrt(2) (t + 1) 5.5 u
    // pld_compose.cpp's componentwise bound, phi ||x||_1 with phi about sqrt(2) t eta and eta
    // about 9.7 u in double (twiddles within 4 u), 13.7 u' in long double (within 8 u')
    const double u = std::numeric_limits<Real>::epsilon() / 2,
                 t = std::log2(static_cast<double>(n));
    const double eta = std::is_same_v<Real, double> ? 9.7 : 13.7;
    INFO("n " << n << ", worst " << worst << " of ||x||_1 " << l1);
    CHECK(worst <= std::sqrt(2.0) * (t + 1) * eta * u * l1);
    std::vector<Real> back;
    fft.inverse(spectrum, back);
    REQUIRE(back.size() == n);
    for (std::size_t j = 0; j < n; ++j)
      CHECK(static_cast<double>(std::abs(back[j] - x[j])) <= 4 * (t + 1) * eta * u * l1);
  }
  // the bit-reversed positions: at n = 16 (8 complex points, 3 bits), position 1 is frequency 4
  const RealFft<double> fft(16);
  CHECK(fft.frequency(0) == 0);
  CHECK(fft.frequency(1) == 4);
  CHECK(fft.frequency(3) == 6);
  CHECK(fft.frequency(8) == 8);
}

TEST_CASE("FFT sizes: powers of two from 4") {
  CHECK_THROWS_AS(RealFft<double>(2), UsageError);
  CHECK_THROWS_AS(RealFft<double>(24), UsageError);
  CHECK(RealFft<double>(4).size() == 4);
}
