#include "adversaries/torch/adaptive_poison.hpp"

#include <algorithm>
#include <cmath>

#include <torch/autograd.h>

#include "train/torch/differentiable_model.hpp"

namespace dpaudit {

namespace {

// A view on flat parameters the caller owns (autograd never writes to it).
torch::Tensor parameters_view(const float* theta, std::size_t parameters) {
  return torch::from_blob(const_cast<float*>(theta), {static_cast<std::int64_t>(parameters)});
}

}  // namespace

AdaptiveCrafter::AdaptiveCrafter(std::vector<std::int64_t> widths, std::vector<float> query_x,
                                 std::int64_t query_y, double virtual_step, double clip,
                                 std::size_t steps, double lr, CraftSign sign, InputBox box)
    : widths_(std::move(widths)),
      query_x_(std::move(query_x)),
      query_y_(query_y),
      virtual_step_(virtual_step),
      clip_(clip),
      steps_(steps),
      lr_(lr),
      sign_(sign),
      box_(box),
      poison_(widths_),
      query_(widths_) {}

AdaptiveCrafter::Evaluation AdaptiveCrafter::evaluate(const float* theta, std::size_t parameters,
                                                      const std::vector<float>& x) {
  poison_.compute(theta, x.data(), query_y_);
  const std::vector<float>& g = poison_.gradient();
  double norm2 = 0;
  for (float v : g) norm2 += double(v) * v;
  const double norm = std::sqrt(norm2);
  const double factor = norm > clip_ ? clip_ / norm : 1.0;
  stepped_.resize(parameters);
  for (std::size_t j = 0; j < parameters; ++j)
    stepped_[j] = theta[j] - static_cast<float>(virtual_step_ * factor) * g[j];
  const double j_value = query_.compute(stepped_.data(), query_x_.data(), query_y_);
  const std::vector<float>& v = query_.gradient();
  // w = c v - [||g|| > C] (C <g, v> / ||g||^3) g, then dJ/dx = -(lr / L) grad_x <g(x), w>.
  double gv = 0;
  for (std::size_t j = 0; j < parameters; ++j) gv += double(g[j]) * v[j];
  const double along = norm > clip_ ? clip_ * gv / (norm2 * norm) : 0.0;
  w_.resize(parameters);
  for (std::size_t j = 0; j < parameters; ++j)
    w_[j] = static_cast<float>(-virtual_step_ * (factor * v[j] - along * g[j]));
  return {j_value, poison_.input_vjp(w_.data())};
}

AdaptiveCrafter::Evaluation AdaptiveCrafter::evaluate_reference(const float* theta,
                                                                std::size_t parameters,
                                                                const std::vector<float>& x) const {
  const torch::Tensor w = parameters_view(theta, parameters).detach().requires_grad_(true);
  const torch::Tensor z = to_tensor(x).requires_grad_(true);
  // g(x) = grad_theta l(theta, x, y_q), kept differentiable in x.
  const torch::Tensor g =
      torch::autograd::grad({dense_example_loss(widths_, w, z, query_y_)}, {w}, {},
                            /*retain_graph=*/true, /*create_graph=*/true)[0];
  // clip_C(g) = g min(1, C / ||g||), then the step the poison alone would cause.
  const torch::Tensor clipped = g * (clip_ / g.norm()).clamp_max(1.0);
  const torch::Tensor stepped = w.detach() - virtual_step_ * clipped;
  const torch::Tensor j = dense_example_loss(widths_, stepped, to_tensor(query_x_), query_y_);
  return {j.item<double>(), to_vector(torch::autograd::grad({j}, {z})[0])};
}

const std::vector<float>& AdaptiveCrafter::craft(const float* theta, std::size_t parameters) {
  x_.assign(query_x_.size(), std::clamp(0.0f, box_.lo, box_.hi));
  const double direction = sign_ == CraftSign::descent ? -1.0 : 1.0;
  for (std::size_t t = 0; t < steps_; ++t) {
    const std::vector<float> g = evaluate(theta, parameters, x_).input_gradient;
    if (!normalised_step(x_, g.data(), direction * lr_, box_)) break;
  }
  return x_;
}

}  // namespace dpaudit
