// core/sort_doubles by the shape of its input: N seeded doubles (default 5 * 10^6, one class of
// 10^7 scores) of each shape sorted by sort_ascending, best of 3 in process CPU seconds, each
// result checked against std::sort (with every -0.0 first). Compiled against a build's
// libraries, once per build to compare (the previous library's figures come from its own):
//   source bench/compile_driver.sh; compile_driver bench/eps_from_scores/sort_shapes.cpp OUT BUILD
// usage: sort_shapes [N [TARGET]]
// TARGET: Highway's run-time dispatch held to one instruction set the CPU has (AVX3, AVX2,
// SSE4, SSSE3, EMU128: a test mock, hwy::SetSupportedTargetsForTest), to time VQSort as it runs
// on a CPU without the wider ones; below SSE4 sort_ascending takes the radix sort (a build
// before VQSort ignores TARGET).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <hwy/targets.h>

#include "core/cpu_time.hpp"
#include "core/sort_doubles.hpp"

namespace {

// The i-th value of shape d from a draw x ~ N(0, 1).
double shaped(int d, double x, std::size_t i, std::size_t n, std::mt19937_64& g) {
  std::cauchy_distribution<double> cauchy;
  switch (d) {
    case 1:
      return cauchy(g);
    case 2:
      return i == 7 ? 1e300 : x;  // one outlier
    case 3:
      return double(g() & 1);  // two values
    case 4:
      return std::round(x * 1000) / 1000;
    case 5:
      return std::exp(3 * x);
    case 6:
      return std::ldexp(double(g() >> 11), -53);  // uniform on [0, 1)
    case 7:
      return double(i) / double(n);  // sorted already
    case 8:
      return double(g() % 10) + 1e-9 * x;  // ten tight clusters
    default:
      return x;
  }
}

// std::sort's order with every -0.0 before every 0.0: -0.0 ranked below 0.0.
std::vector<double> reference(std::vector<double> v) {
  std::sort(v.begin(), v.end(), [](double a, double b) {
    return a < b || (a == 0 && b == 0 && std::signbit(a) && !std::signbit(b));
  });
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::stoul(argv[1]) : 5000000;
  const std::string target = argc > 2 ? argv[2] : "";
  if (!target.empty()) {
    std::int64_t only = 0;
    for (std::int64_t t = hwy::SupportedTargets() | HWY_EMU128; t != 0; t &= t - 1) {
      if (target == hwy::TargetName(t & -t)) only = t & -t;
    }
    if (only == 0) {
      std::fprintf(stderr, "sort_shapes: %s is not a target this CPU has\n", target.c_str());
      return 2;
    }
    hwy::SetSupportedTargetsForTest(only);
  }
  const char* names[] = {"normal",    "cauchy",  "outlier", "two values",  "rounded to 1e-3",
                         "lognormal", "uniform", "sorted",  "ten clusters"};
  std::mt19937_64 g(3);
  std::normal_distribution<double> normal;
  std::printf("| shape, n = %zu%s%s | CPU s |\n|---|---|\n", n, target.empty() ? "" : ", ",
              target.c_str());
  for (int d = 0; d < 9; ++d) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = shaped(d, normal(g), i, n, g);
    v[1] = -0.0;
    v[2] = 0.0;
    v[3] = -0.0;
    const std::vector<double> want = reference(v);
    double best = 1e9;
    for (int rep = 0; rep < 3; ++rep) {
      std::vector<double> a = v;
      const double t0 = dpaudit::process_cpu_seconds();
      dpaudit::sort_ascending(a);
      best = std::min(best, dpaudit::process_cpu_seconds() - t0);
      if (std::memcmp(a.data(), want.data(), n * sizeof(double)) != 0) {
        std::printf("%s: WRONG ORDER\n", names[d]);
        return 1;
      }
    }
    std::printf("| %s | %.3f |\n", names[d], best);
  }
  return 0;
}
