// The GPU's canary scores (canary/cuda/cuda_canary_sums.hpp) are the CPU's, bit for bit: the
// cosines and dot products of sphere canaries of several dimensions (below a chunk, odd,
// beyond 2^32 streams, with hundreds of deferred tail numbers). Built only with CUDA; exits
// 77 (skipped) where no GPU can be used.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <iostream>
#include <vector>

#include "canary/canary_scores.hpp"
#include "canary/canary_set.hpp"
#include "canary/cuda/cuda_canary_sums.hpp"
#include "random/philox_stream.hpp"

using namespace dpaudit;

TEST_CASE("GPU scores equal the CPU's bit for bit") {
  const CanarySpec specs[] = {sphere_spec(3, 5, 1), sphere_spec(4, 6, 1023, 10),
                              sphere_spec(5, 4, 4099, std::size_t{1} << 33),
                              sphere_spec(6, 3, 300001)};
  for (const CanarySpec& spec : specs) {
    CAPTURE(spec.dim);
    const CanarySet set = CanarySet::from_spec(spec);
    std::vector<double> v(spec.dim);
    PhiloxStream(77, 1).fill_normal(v.data(), v.size());
    const CanaryScorer cpu(set, 2);
    const CanaryScorer gpu(set, 2, 0, CanaryStorage::f64, ScoreDevice::cuda);
    for (ScoreStat stat : {ScoreStat::cosine, ScoreStat::dot})
      CHECK(gpu.scores(v.data(), stat) == cpu.scores(v.data(), stat));
  }
}

TEST_CASE("the GPU stops at 2.566e-4 of the numbers, the tails, and finishes them") {
  const std::size_t count = 3, dim = 300001;
  const CudaCanarySums sums(6, 0, count, dim, 2);
  const double mean = 2.566e-4 * double(count * dim);  // 231 (test_normal_kernel)
  CHECK(double(sums.deferred()) > mean - 5 * std::sqrt(mean));
  CHECK(double(sums.deferred()) < mean + 5 * std::sqrt(mean));
  // The GPU finishes about 0.999 of them from the host's logarithms (test_normal_kernel).
  CHECK(sums.on_host() < 5);
}

int main(int argc, char** argv) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::cerr << "test_cuda_canary_sums: no CUDA device: skipped\n";
    return 77;
  }
  return doctest::Context(argc, argv).run();
}
