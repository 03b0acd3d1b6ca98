// The closed-form input gradient behind Nasr et al. 2021's Crafter 3 (adaptive poison,
// Sec. IV-D): for one example of a dense ReLU network, its parameter gradient g(x) and
// grad_x <g(x), w>, the derivative through a per-example gradient that the poison's
// objective needs (lib/adversaries/torch/adaptive_poison.hpp), without LibTorch.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dpaudit {

// One example's gradient g(x) of a dense ReLU network with at most one hidden layer
// (logreg, mlp: widths as DensePerExample), and grad_x <g(x), w> for a fixed flat w,
// both in closed form. For the mlp (z1 = W1 x + b1, m = [z1 > 0], h = m o z1,
// p = softmax(W2 h + b2), e2 = p - onehot(y), e1 = m o W2^T e2; g = (e1 x^T, e1, e2 h^T,
// e2)) and w = (O1, o1, O2, o2): with a = O2 h + o2, b = O1 x + o1 and the softmax
// Jacobian S = diag(p) - p p^T,
//   grad_x <g, w> = W1^T (m o (W2^T S (a + W2 (m o b)) + O2^T e2)) + O1^T e1
// (the ReLU mask is piecewise constant); logreg is the same without the hidden layer:
// W^T S a + O^T e.
class DenseInputGradient {
 public:
  explicit DenseInputGradient(std::vector<std::int64_t> widths);
  // Forward and backward of (x, y) at theta; returns the loss.
  double compute(const float* theta, const float* x, std::int64_t y);
  const std::vector<float>& gradient() const { return g_; }
  // grad_x <g(x), w> at the last computed (theta, x, y).
  std::vector<float> input_vjp(const float* w) const;

 private:
  std::vector<std::int64_t> widths_;
  const float* theta_ = nullptr;
  std::vector<float> x_, h_, mask_, p_, e1_, e2_, g_;
};

}  // namespace dpaudit
