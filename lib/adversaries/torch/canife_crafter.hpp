// Maddock et al. 2023 Alg. 1 (CANIFE, Sec. 3.3, as its authors' code does it): craft the input of a
// canary so that its gradient is nearly orthogonal to the other clients' updates. With
// g(z) the gradient of the canary's loss at the frozen model, d parameters, clip C and
// a minibatch B of m design updates u_i (clipped per-example gradients of design-pool
// examples), Adam minimises over the input z
//   cov:  L(z) = d (1/m) sum_{i in B} <u_i, C g / ||g||>^2 + d max(C_n - ||g||, 0)^2
//   mean: L(z) = d <mean_B u_i, C g / ||g||>^2          + d max(C_n - ||g||, 0)^2
// (Maddock et al. 2023 App. D's Loss 2 and Loss 1, with the squared hinge that keeps ||g|| near the
// norm constant C_n). dL/dz needs the gradient of g with respect to z, a double backward: g comes
// from LibTorch autograd on the differentiable forward pass over dp-train's flat parameters
// (differentiable_model.hpp: the same layers, parameters and order as sgd/dense_per_example, which
// the tests check), and dL/dz = (dg/dz)^T v with v = dL/dg computed in closed form.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "adversaries/canife_canary.hpp"
#include "random/philox_stream.hpp"

namespace dpaudit {

// The differentiable forward pass of a dense ReLU network (widths as DensePerExample)
// over a flat parameter tensor, for autograd: the per-example gradient it gives is the
// one DensePerExample computes.
class CanaryCrafter {
 public:
  // `pool` holds `pool_size` design updates of theta.size() floats each, row by row.
  CanaryCrafter(std::vector<std::int64_t> widths, const std::vector<float>& theta,
                const std::vector<float>& pool, std::size_t pool_size);
  // Gradient of the cross-entropy loss of (x, label) at theta, by LibTorch autograd.
  std::vector<float> gradient(const std::vector<float>& x, std::int64_t label) const;
  // L over the whole pool at x.
  double loss(const std::vector<float>& x, std::int64_t label, const CraftOptions& options) const;
  // L over the design updates `batch` at x, and dL/dx by the double backward.
  struct Evaluation {
    double loss;
    std::vector<float> input_gradient;
  };
  Evaluation evaluate(const std::vector<float>& x, std::int64_t label,
                      const std::vector<std::size_t>& batch, const CraftOptions& options) const;
  // Alg. 1 from (x0, label); minibatches drawn from `rng`.
  CraftedCanary craft(std::vector<float> x0, std::int64_t label, const CraftOptions& options,
                      PhiloxStream& rng) const;

 private:
  struct Objective {
    double value;
    std::vector<double> dg;  // dL/dg
  };
  Objective objective(const std::vector<float>& g, const std::vector<std::size_t>& batch,
                      const CraftOptions& options) const;

  std::vector<std::int64_t> widths_;
  const std::vector<float>& theta_;
  const std::vector<float>& pool_;
  std::size_t pool_size_;
};

}  // namespace dpaudit
