// The sums behind a sphere canary's score, <raw_j, v> and ||raw_j||^2 (canary_scores.hpp),
// on a CUDA GPU, bit for bit those of the CPU scorer: every normal number is philox_normals'
// (random/normal_kernel.hpp) and every sum is LaneSum's, eight lanes (entry i in lane i % 8)
// each added in index order, then added up in LaneSum's order, with no fused
// multiply-add anywhere.
//
// The numbers the GPU defers (tails: about 2.6e-4 of them) are found by a first pass over
// every canary, computed on the host by philox_normals and sent to the GPU, which looks each
// up when its second pass, the sums, reaches it. The first pass and the host's part are done
// once, when the object is made; sums() is the second pass, once per vector.
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

  // How many numbers the host computed for the GPU.
  std::size_t deferred() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace dpaudit
