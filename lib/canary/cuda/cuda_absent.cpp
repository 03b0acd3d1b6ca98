// CudaCanarySums where the build found no CUDA compiler: it says so (cuda_canary_sums.hpp).
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

std::size_t CudaCanarySums::deferred() const {
  return 0;
}

std::size_t CudaCanarySums::on_host() const {
  return 0;
}

void CudaCanarySums::resolve_deferred(State&, int) {}

}  // namespace dpaudit
