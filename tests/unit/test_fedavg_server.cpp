#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "mechanisms/fedavg_server.hpp"

using namespace dpaudit;

TEST_CASE("l2 norm without overflow or underflow") {
  std::vector<double> a{3, 4}, big{3e200, 4e200}, tiny{3e-200, 4e-200};
  CHECK(l2_norm(a.data(), 2) == doctest::Approx(5));
  CHECK(l2_norm(big.data(), 2) == doctest::Approx(5e200));
  CHECK(l2_norm(tiny.data(), 2) == doctest::Approx(5e-200));
}

TEST_CASE("Clip and Proj of Andrew et al. 2024, Alg. 2") {
  std::vector<double> x{3, 4};
  CHECK(clip_to_norm(x.data(), 2, 1.0) == doctest::Approx(5));
  CHECK(x[0] == doctest::Approx(0.6));
  CHECK(x[1] == doctest::Approx(0.8));
  std::vector<double> inside{0.3, 0.4};
  clip_to_norm(inside.data(), 2, 1.0);  // already within the bound: unchanged
  CHECK(inside == std::vector<double>{0.3, 0.4});
  std::vector<double> p{0.3, 0.4};
  project_to_norm(p.data(), 2, 10);  // Proj scales up as well as down
  CHECK(p[0] == doctest::Approx(6));
  CHECK(p[1] == doctest::Approx(8));
  std::vector<double> zero{0, 0};
  CHECK_THROWS_AS(project_to_norm(zero.data(), 2, 1), DataError);
}

TEST_CASE("noisy average: (rho + N(0, s^2 I)) / m") {
  UpdateSum rho(2);
  const std::vector<double> u1{1, 2}, u2{3, 4};
  rho.add(u1.data());
  rho.add(u2.data());
  PhiloxStream unused(1, 0);
  CHECK(rho.release(0, unused) == std::vector<double>{2, 3});

  // With noise: exactly (sum + s z) / m with z the stream's normals.
  const std::size_t d = 100000;
  UpdateSum zeros(d);
  std::vector<double> nothing(d, 0.0);
  zeros.add(nothing.data());
  zeros.add(nothing.data());
  PhiloxStream noise(9, 4), same(9, 4);
  const std::vector<double> out = zeros.release(2.0, noise);
  std::vector<double> z(d);
  same.fill_normal(z.data(), d);
  double ssq = 0;
  for (std::size_t i = 0; i < d; ++i) {
    CHECK(out[i] == 2.0 * z[i] / 2.0);
    ssq += out[i] * out[i];
  }
  // out ~ N(0, 1): sample sd within 0.02 of 1 (sd of the estimate ~ 1/sqrt(2d) = 0.0022).
  CHECK(std::sqrt(ssq / d) == doctest::Approx(1.0).epsilon(0.02));

  UpdateSum empty(2);  // a Poisson round without participants divides by 1
  PhiloxStream n2(9, 5);
  CHECK(empty.release(0, n2) == std::vector<double>{0, 0});
}

TEST_CASE("server SGD with momentum") {
  ServerOptimizer opt(1, 0.5, 0.9);
  double theta = 0;
  const std::vector<double> one{1.0};
  opt.step(one, &theta);  // v = 1, theta = 0.5
  CHECK(theta == doctest::Approx(0.5));
  opt.step(one, &theta);  // v = 0.9 + 1 = 1.9, theta = 0.5 + 0.95
  CHECK(theta == doctest::Approx(1.45));
}
