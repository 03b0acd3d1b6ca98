// CudaCanarySums where the build found no CUDA compiler: it says so (cuda_canary_sums.hpp). Only
// what the CPU scorer links is defined: the constructor throws, so no object is ever made.
#include "canary/cuda/cuda_canary_sums.hpp"

#include "core/error.hpp"

namespace dpaudit {

struct CudaCanarySums::State {};

bool CudaCanarySums::built() {
  return false;
}

CudaCanarySums::CudaCanarySums(std::uint64_t, std::uint64_t, std::size_t, std::size_t, int) {
  throw UsageError(kNotBuilt);
}

CudaCanarySums::~CudaCanarySums() = default;

void CudaCanarySums::sums(const double*, double*, double*) const {}

}  // namespace dpaudit
