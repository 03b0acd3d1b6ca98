// Nasr et al. 2021's Crafter 3 (adaptive poison, Sec. IV-D) on dp-train's dense models:
// with the query (x_q, y_q) of Crafter 2, before a step at theta_t craft a fresh poison
// (x, y_q) from x = 0 by T steps on
//   J(x) = l(theta_t - (lr / L) clip_C(grad_theta l(theta_t, x, y_q)), x_q, y_q),
// the query's loss after the DP-SGD step the poison alone would cause: a derivative
// through the per-example gradient (double backprop). dJ/dx = -(lr / L) (dg/dx)^T w with g
// the poison's gradient, v the query's at the stepped model, c = min(1, C/||g||) and
// w = c v - [||g|| > C] (C <g, v> / ||g||^3) g (the clip's own derivative);
// (dg/dx)^T w = grad_x <g(x), w> in closed form for a network with at most one hidden
// layer (adversaries/dense_input_gradient.hpp), checked against LibTorch's double
// backward on the differentiable path (evaluate_reference, differentiable_model.hpp).
// Descent on J by default (the text: training on the poison should lower the query's
// loss), the ascent Crafter 3 prints with CraftSign::printed. Minimising J aligns the
// poison's clipped gradient, norm up to C, with the query's loss gradient at theta_t.
// Steps and box: adversaries/input_crafting.hpp. Everything is deterministic: a pure
// function of its arguments.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "adversaries/dense_input_gradient.hpp"
#include "adversaries/input_crafting.hpp"

namespace dpaudit {

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

}  // namespace dpaudit
