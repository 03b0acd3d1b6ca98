// 004's input-crafting adversaries (Nasr et al. 2021) on dp-train's dense models:
//   Crafter 2 (Sec. IV-B): train n shadow models with DP-SGD, the trainer's own
//     hyperparameters, on D_shadow (data from the same distribution, disjoint from D);
//     start from a random (x, y) of D_shadow and take T ascent steps on
//     l_mal(x) = (1/n) sum_i l(f_i, x, y), so that x becomes an outlier the model must
//     memorise: its loss differs most between a model trained with it and one without.
//   Crafter 3 (Sec. IV-D): with the query (x_q, y_q) of Crafter 2, before a step at
//     theta_t craft a fresh poison (x, y_q) from x = 0 by T steps on
//     J(x) = l(theta_t - (lr / L) clip_C(grad_theta l(theta_t, x, y_q)), x_q, y_q),
//     the query's loss after the DP-SGD step the poison alone would cause: a derivative
//     through the per-example gradient (double backprop). dJ/dx = -(lr / L) (dg/dx)^T w
//     with g the poison's gradient, v the query's at the stepped model, c = min(1, C/||g||)
//     and w = c v - [||g|| > C] (C <g, v> / ||g||^3) g (the clip's own derivative);
//     (dg/dx)^T w = grad_x <g(x), w> in closed form for a network with at most one
//     hidden layer (DenseInputGradient), checked against LibTorch's double backward
//     on the differentiable path (evaluate_reference, differentiable_model.hpp). Descent on J
//     by default (the text: training on the poison should lower the query's loss), the
//     ascent Crafter 3 prints with CraftSign::printed. Minimising J aligns the poison's
//     clipped gradient, norm up to C, with the query's loss gradient at theta_t.
// Choices where 004 is silent: each step moves x by `lr` in L2 norm along the gradient
// (normalised steps, so that lr does not depend on the loss's scale), and x stays in the
// box [lo, hi] of the data's values (Fashion-MNIST: pixels in [0, 1]): the poison is a
// valid input. Everything is deterministic: a pure function of its arguments.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sgd/config.hpp"

namespace dpaudit::dp_train {

struct Dataset;
struct ModelConfig;

// The range of the values of `data`'s inputs, the box every crafted input stays in.
struct InputBox {
  float lo = 0, hi = 1;
};
InputBox input_box(const Dataset& data);

// Crafter 2, line 1: `config.shadow_models` models trained by DP-SGD (noise multiplier
// sigma, no fault: the adversary assumes the documented trainer) on `shadow`, each from
// its own initialisation and Philox stream (kSgdShadowStream + i): the same models for
// any config.threads.
std::vector<std::vector<float>> train_shadow_models(const SgdConfig& config,
                                                    const ModelConfig& model, const Dataset& shadow,
                                                    double sigma);

struct CraftedInput {
  std::vector<float> x;
  std::int64_t y = 0;
  double initial_loss = 0;  // the objective at the start ...
  double final_loss = 0;    // ... and at the crafted input
};

// Crafter 2, lines 3-6: `steps` normalised ascent steps of length `lr` from x0 on the
// mean cross-entropy of (x, y) over the models `shadows` (flat parameters of the dense
// network `widths`).
CraftedInput ascend_shadow_loss(const std::vector<std::int64_t>& widths,
                                const std::vector<std::vector<float>>& shadows,
                                std::vector<float> x0, std::int64_t y, std::size_t steps, double lr,
                                InputBox box);

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

// Crafter 3 for one query. Keeps the last poison; one per thread.
class AdaptiveCrafter {
 public:
  // virtual_step = lr / L of the trainer's update; clip = C.
  AdaptiveCrafter(std::vector<std::int64_t> widths, std::vector<float> query_x,
                  std::int64_t query_y, double virtual_step, double clip, std::size_t steps,
                  double lr, CraftSign sign, InputBox box);

  // J(x) at theta and dJ/dx, in closed form ...
  struct Evaluation {
    double query_loss;
    std::vector<float> input_gradient;
  };
  Evaluation evaluate(const float* theta, std::size_t parameters, const std::vector<float>& x);
  // ... and by LibTorch's double backward on the differentiable path (the reference).
  Evaluation evaluate_reference(const float* theta, std::size_t parameters,
                                const std::vector<float>& x) const;
  // The poison for a step at theta (parameters floats), crafted from 0; valid until the
  // next call.
  const std::vector<float>& craft(const float* theta, std::size_t parameters);
  std::int64_t label() const { return query_y_; }

 private:
  std::vector<std::int64_t> widths_;
  std::vector<float> query_x_;
  std::int64_t query_y_;
  double virtual_step_, clip_;
  std::size_t steps_;
  double lr_;
  CraftSign sign_;
  InputBox box_;
  std::vector<float> x_, stepped_, w_;
  DenseInputGradient poison_, query_;
};

}  // namespace dpaudit::dp_train
