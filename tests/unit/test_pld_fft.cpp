// The PLD compositions' real FFT (pld_fft.hpp) against the definition, the DFT summed directly in
// long double (every frequency up to 64 points, a sample beyond), at sizes from 4 (all split, no
// level) to 2^12 (levels above and below the in-cache depth of 2^10), and its inverse.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <vector>

#include "accounting/pld_fft.hpp"
#include "core/error.hpp"

using namespace dpaudit;

namespace {

// sum_j x_j e^(-2 pi i j k / n) in long double
std::complex<long double> dft(const std::vector<double>& x, std::size_t k) {
  const std::size_t n = x.size();
  constexpr long double kTwoPi = 6.283185307179586476925286766559005768L;
  std::complex<long double> sum = 0;
  for (std::size_t j = 0; j < n; ++j) {
    const long double angle = -kTwoPi * static_cast<long double>((j * k) % n) / n;
    sum += static_cast<long double>(x[j]) * std::complex<long double>(cosl(angle), sinl(angle));
  }
  return sum;
}

}  // namespace

TEST_CASE("the real FFT is the DFT, each frequency at its position, and inverts") {
  for (std::size_t n : {4, 8, 16, 64, 2048, 4096}) {
    std::vector<double> x(n);
    double l1 = 0;
    for (std::size_t j = 0; j < n; ++j) {
      x[j] = 1 / (1.0 + static_cast<double>((j * 7919) % 97));  // positive, like masses
      l1 += x[j];
    }
    const RealFft fft(n);
    std::vector<std::complex<double>> spectrum;
    fft.forward(x, spectrum);
    REQUIRE(spectrum.size() == n / 2 + 1);
    std::vector<bool> seen(n / 2 + 1, false);
    double worst = 0;
    for (std::size_t p = 0; p <= n / 2; ++p) {
      const std::size_t k = fft.frequency(p);
      REQUIRE(k <= n / 2);
      seen[k] = true;
      if (n > 64 && p % 17 != 0 && p + 1 < n / 2) continue;  // a sample of the large sizes
      const std::complex<long double> want = dft(x, k);
      worst = std::max(
          worst, static_cast<double>(std::abs(
                     std::complex<long double>(spectrum[p].real(), spectrum[p].imag()) - want)));
    }
    for (bool s : seen) CHECK(s);  // every frequency once
    // the componentwise bound of pld_compose.cpp, phi ||x||_1 with phi ~ sqrt(2) (t + 1) 5.5 u
    const double u = std::ldexp(1.0, -53), t = std::log2(static_cast<double>(n));
    INFO("n " << n << ", worst " << worst << " of ||x||_1 " << l1);
    CHECK(worst <= std::sqrt(2.0) * (t + 1) * 6 * u * l1);
    std::vector<double> back;
    fft.inverse(spectrum, back);
    REQUIRE(back.size() == n);
    for (std::size_t j = 0; j < n; ++j) CHECK(std::abs(back[j] - x[j]) <= 4 * (t + 1) * u * l1);
  }
  // the bit-reversed positions: at n = 16 (8 complex points, 3 bits), position 1 is frequency 4
  const RealFft fft(16);
  CHECK(fft.frequency(0) == 0);
  CHECK(fft.frequency(1) == 4);
  CHECK(fft.frequency(3) == 6);
  CHECK(fft.frequency(8) == 8);
}

TEST_CASE("FFT sizes: powers of two from 4") {
  CHECK_THROWS_AS(RealFft(2), UsageError);
  CHECK_THROWS_AS(RealFft(24), UsageError);
  CHECK(RealFft(4).size() == 4);
}
