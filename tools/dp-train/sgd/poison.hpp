// 004's input-crafting adversaries (Nasr et al. 2021) on dp-train's dense models:
//   Crafter 2 (Sec. IV-B): train n shadow models with DP-SGD, the trainer's own
//     hyperparameters, on D_shadow (data from the same distribution, disjoint from D);
//     start from a random (x, y) of D_shadow and take T ascent steps on
//     l_mal(x) = (1/n) sum_i l(f_i, x, y), so that x becomes an outlier the model must
//     memorise: its loss differs most between a model trained with it and one without.
//   Crafter 3 (Sec. IV-D): with the query (x_q, y_q) of Crafter 2, before a step at
//     theta_t craft a fresh poison (x, y_q) from x = 0 by T steps on
//     J(x) = l(theta_t - (lr / L) clip_C(grad_theta l(theta_t, x, y_q)), x_q, y_q),
//     the query's loss after the DP-SGD step the poison alone would cause: double
//     backprop through the per-example gradient (differentiable_model.hpp). Descent on J
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
std::vector<std::vector<float>> train_shadow_models(const SgdConfig& config, const ModelConfig& model,
                                                    const Dataset& shadow, double sigma);

struct CraftedInput {
  std::vector<float> x;
  std::int64_t y = 0;
  double initial_loss = 0;  // the objective at the start ...
  double final_loss = 0;    // ... and at the crafted input
};

// Crafter 2, lines 3-6: `steps` normalised ascent steps of length `lr` from x0 on the
// mean cross-entropy of (x, y) over the models `shadows` (flat parameters of the dense
// network `widths`).
CraftedInput ascend_shadow_loss(const std::vector<std::int64_t>& widths, const std::vector<std::vector<float>>& shadows,
                                std::vector<float> x0, std::int64_t y, std::size_t steps, double lr, InputBox box);

// Crafter 3 for one query. Keeps the last poison; one per thread.
class AdaptiveCrafter {
 public:
  // virtual_step = lr / L of the trainer's update; clip = C.
  AdaptiveCrafter(std::vector<std::int64_t> widths, std::vector<float> query_x, std::int64_t query_y,
                  double virtual_step, double clip, std::size_t steps, double lr, CraftSign sign, InputBox box);

  // J(x) at theta and dJ/dx by double backprop.
  struct Evaluation {
    double query_loss;
    std::vector<float> input_gradient;
  };
  Evaluation evaluate(const float* theta, std::size_t parameters, const std::vector<float>& x) const;
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
  std::vector<float> x_;
};

}  // namespace dpaudit::dp_train
