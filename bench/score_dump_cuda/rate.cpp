// The GPU canary scorer against the CPU's (bench/score_dump_cuda.md): wall seconds to score
// K_GPU sphere canaries of dimension D against one vector on the GPU (its first pass and the
// host's deferred numbers, then the sums), and K_CPU of the same canaries on THREADS CPU
// threads; the K_CPU scores both give must be equal bit for bit, or it exits 1. The CPU's
// time is scaled to K_GPU canaries (it is linear in the count: each canary is regenerated).
// Usage: rate D K_GPU K_CPU THREADS   (K_GPU 0: the CPU alone)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "canary/canary_scores.hpp"
#include "canary/canary_set.hpp"
#include "canary/cuda/cuda_canary_sums.hpp"
#include "random/philox_stream.hpp"

using namespace dpaudit;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

CanarySet sphere(std::size_t count, std::size_t dim) {
  return CanarySet::from_spec(sphere_spec(2024, count, dim));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: rate D K_GPU K_CPU THREADS\n");
    return 2;
  }
  const std::size_t dim = std::strtoull(argv[1], nullptr, 10);
  const std::size_t k_gpu = std::strtoull(argv[2], nullptr, 10);
  const std::size_t k_cpu = std::strtoull(argv[3], nullptr, 10);
  const int threads = std::atoi(argv[4]);
  std::vector<double> v(dim);
  PhiloxStream(1, 0).fill_normal(v.data(), dim);

  const CanarySet cpu_set = sphere(k_cpu, dim);
  auto t = Clock::now();
  const std::vector<double> cpu =
      CanaryScorer(cpu_set, threads).scores(v.data(), ScoreStat::cosine);
  const double cpu_s = since(t);
  std::printf(
      "cpu: d %zu, %zu canaries, %d threads: %.3f s wall, %.3f ns a canary entry; "
      "%.1f s for %zu canaries\n",
      dim, k_cpu, threads, cpu_s, cpu_s * 1e9 / double(k_cpu * dim),
      cpu_s * double(k_gpu) / double(k_cpu), k_gpu);
  if (k_gpu == 0) return 0;

  t = Clock::now();
  { const CudaCanarySums start(1, 0, 1, 1, 1); }  // the CUDA context, made once a process
  const double start_s = since(t);
  const CanarySet gpu_set = sphere(k_gpu, dim);
  t = Clock::now();
  const CanaryScorer gpu_scorer(gpu_set, threads, 0, CanaryStorage::f64, ScoreDevice::cuda);
  const double first_s = since(t);
  t = Clock::now();
  const std::vector<double> gpu = gpu_scorer.scores(v.data(), ScoreStat::cosine);
  const double sums_s = since(t);
  t = Clock::now();
  const std::vector<double> again = gpu_scorer.scores(v.data(), ScoreStat::cosine);
  const double sums2_s = since(t);
  const double gpu_s = start_s + first_s + sums_s;
  std::printf(
      "gpu: d %zu, %zu canaries: %.3f s wall (CUDA context %.3f s; first pass and the deferred "
      "numbers, %d host threads, %.3f s; sums %.3f s, again %.3f s), %.4f ns a canary entry\n",
      dim, k_gpu, gpu_s, start_s, threads, first_s, sums_s, sums2_s,
      gpu_s * 1e9 / double(k_gpu * dim));
  std::printf("ratio: %.1fx the CPU's %d threads\n", cpu_s * double(k_gpu) / double(k_cpu) / gpu_s,
              threads);
  for (std::size_t j = 0; j < k_cpu && j < k_gpu; ++j) {
    if (gpu[j] != cpu[j] || again[j] != cpu[j]) {
      std::printf("MISMATCH at canary %zu: gpu %.17g cpu %.17g\n", j, gpu[j], cpu[j]);
      return 1;
    }
  }
  std::printf("the %zu scores computed by both are equal bit for bit\n", std::min(k_cpu, k_gpu));
  return 0;
}
