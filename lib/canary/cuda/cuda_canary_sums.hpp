// The sums behind a sphere canary's score, <raw_j, v> and ||raw_j||^2 (canary_scores.hpp),
// on a CUDA GPU, bit for bit those of the CPU scorer: every normal number is philox_normals'
// (random/normal_kernel.hpp) and every sum is LaneSum's, eight lanes (entry i in lane i % 8)
// each added in index order, then added up in LaneSum's order, with no fused
// multiply-add anywhere.
//
// The numbers the GPU cannot finish without libm (random/normal_kernel.hpp: the tails, about
// 2.6e-4 of them, and about 1e-6 more) are found by a first pass over every canary and
// sorted on the GPU; the host takes the logarithms of the tails' uniforms with the libm that
// philox_normals uses, the GPU finishes the tails from them, and the few left (a wedge at exp,
// a rejected tail followed by another stop) the host computes whole. The second pass, the
// sums, looks each of these numbers up when it reaches it. The first pass and the deferred
// numbers are done once, when the object is made; sums() is the second pass, once a vector.
//
// Built only where nvcc is found (the top-level CMakeLists.txt); otherwise built() is false
// and the constructor throws UsageError(kNotBuilt).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

namespace dpaudit {

class CudaCanarySums {
 public:
  // Whether this build has the CUDA scorer, and what a caller says where it has not.
  static bool built();
  static constexpr const char* kNotBuilt =
      "--device cuda: this build has no CUDA (no nvcc was found when it was configured; see "
      "the README's GPU section)";

  // Sphere canaries j = 0 .. count-1: the normal numbers of Philox streams first_stream + j
  // under key seed, dim each. threads: host threads for the deferred numbers (<= 0: all
  // cores). Throws DataError when no CUDA device can be used or a CUDA call fails.
  CudaCanarySums(std::uint64_t seed, std::uint64_t first_stream, std::size_t count, std::size_t dim,
                 int threads);
  ~CudaCanarySums();
  CudaCanarySums(const CudaCanarySums&) = delete;
  CudaCanarySums& operator=(const CudaCanarySums&) = delete;

  // dot[j] = <raw_j, v>, norm2[j] = ||raw_j||^2, for v of dim entries.
  void sums(const double* v, double* dot, double* norm2) const;

  // How many numbers stopped for libm: the tails, finished on the GPU from the logarithms
  // the host computes, and the rest (on_host()), which the host computes whole.
  std::size_t deferred() const;
  std::size_t on_host() const;

 private:
  struct State;
  static void resolve_deferred(State& s, int threads);
  std::unique_ptr<State> state_;
};

}  // namespace dpaudit
