// bench/sgd/simd_cost.cpp: what baseline x86-64 (SSE2) costs dp-train sgd's per-example
// clipping. Times DensePerExample::add_clipped_sum (lib/train/dense_per_example.cpp,
// compiled in as it is) on one lot; bench/sgd/simd_cost.sh builds it twice, with dp-train's
// flags (-O3, baseline x86-64) and with -march=x86-64-v3 (AVX2, FMA), and runs both.
//   simd_cost HIDDEN LOT REPS
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <vector>

#include "train/dense_per_example.hpp"

int main(int argc, char** argv) {
  const long hidden = argc > 1 ? std::atol(argv[1]) : 128,
             lot = argc > 2 ? std::atol(argv[2]) : 256;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 200;
  dpaudit::DensePerExample model({784, hidden, 10});
  std::mt19937 gen(1);
  std::uniform_real_distribution<float> pixel(0.0f, 1.0f);
  std::normal_distribution<float> weight(0.0f, 0.03f);
  std::vector<float> theta(model.parameter_count()), sum(model.parameter_count()), x(784 * lot);
  std::vector<std::int64_t> y(lot);
  for (float& t : theta) t = weight(gen);
  for (float& v : x) v = pixel(gen);
  for (long i = 0; i < lot; ++i) y[i] = i % 10;
  model.add_clipped_sum(theta.data(), x.data(), y.data(), lot, 1.0, sum.data());  // warm-up
  const std::clock_t start = std::clock();  // CPU time: the machine is shared
  for (int r = 0; r < reps; ++r)
    model.add_clipped_sum(theta.data(), x.data(), y.data(), lot, 1.0, sum.data());
  const double s = double(std::clock() - start) / CLOCKS_PER_SEC;
  double check = 0;
  for (float v : sum) check += v;
  std::printf("hidden %ld lot %ld: %.3f ms CPU per lot (checksum %.6g)\n", hidden, lot,
              1e3 * s / reps, check);
}
