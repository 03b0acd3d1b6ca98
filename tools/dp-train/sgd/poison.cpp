#include "sgd/poison.hpp"

#include <algorithm>
#include <cmath>

#include <torch/autograd.h>

#include "core/parallel.hpp"
#include "data.hpp"
#include "differentiable_model.hpp"
#include "models.hpp"
#include "sgd/game.hpp"
#include "sgd/per_example_model.hpp"
#include "sgd/trainer.hpp"

namespace dpaudit::dp_train {

namespace {

// x <- clamp(x + step g / ||g||, lo, hi); false (x unchanged) when g = 0.
bool normalised_step(std::vector<float>& x, const torch::Tensor& g, double step, InputBox box) {
  const double norm = g.to(torch::kDouble).norm().item<double>();
  if (!(norm > 0)) return false;
  const torch::Tensor c = g.contiguous();
  const float* gp = c.data_ptr<float>();
  const auto scale = static_cast<float>(step / norm);
  for (std::size_t j = 0; j < x.size(); ++j) x[j] = std::clamp(x[j] + scale * gp[j], box.lo, box.hi);
  return true;
}

// A view on flat parameters the caller owns (autograd never writes to it).
torch::Tensor parameters_view(const float* theta, std::size_t parameters) {
  return torch::from_blob(const_cast<float*>(theta), {static_cast<std::int64_t>(parameters)});
}

}  // namespace

InputBox input_box(const Dataset& data) {
  const auto [lo, hi] = std::minmax_element(data.features.begin(), data.features.end());
  return {*lo, *hi};
}

std::vector<std::vector<float>> train_shadow_models(const SgdConfig& config, const ModelConfig& model,
                                                    const Dataset& shadow, double sigma) {
  SgdConfig c = config;
  c.fault = SgdFault::none;
  c.train_size = shadow.size();
  const std::size_t n = c.shadow_models;
  // Initialisations first, in this thread: LibTorch draws them from its global generator.
  std::vector<std::vector<float>> thetas(n);
  std::vector<PhiloxStream> streams;
  std::unique_ptr<PerExampleModel> prototype;
  for (std::size_t i = 0; i < n; ++i) {
    streams.emplace_back(c.seed, kSgdShadowStream + i);
    prototype = PerExampleModel::make(model, streams.back().next_u64(), thetas[i]);
  }
  parallel_blocks(n, c.threads, [&](std::size_t begin, std::size_t end, std::size_t) {
    const auto copy = prototype->clone();
    DpSgdTrainer trainer(c, shadow, *copy, sigma);
    for (std::size_t i = begin; i < end; ++i) trainer.train(thetas[i], streams[i], nullptr);
  });
  return thetas;
}

CraftedInput ascend_shadow_loss(const std::vector<std::int64_t>& widths, const std::vector<std::vector<float>>& shadows,
                                std::vector<float> x0, std::int64_t y, std::size_t steps, double lr, InputBox box) {
  std::vector<torch::Tensor> models;
  for (const auto& theta : shadows) models.push_back(to_tensor(theta));
  // l_mal(x) = (1/n) sum_i l(f_i, x, y), with its gradient in x when asked.
  auto mean_loss = [&](const torch::Tensor& x) {
    torch::Tensor total = torch::zeros({});
    for (const auto& theta : models) total = total + dense_example_loss(widths, theta, x, y);
    return total / static_cast<double>(models.size());
  };
  CraftedInput r;
  r.y = y;
  r.x = std::move(x0);
  r.initial_loss = mean_loss(to_tensor(r.x)).item<double>();
  for (std::size_t t = 0; t < steps; ++t) {
    const torch::Tensor x = to_tensor(r.x).requires_grad_(true);
    const torch::Tensor g = torch::autograd::grad({mean_loss(x)}, {x})[0];
    if (!normalised_step(r.x, g, lr, box)) break;  // ascent: +g
  }
  r.final_loss = mean_loss(to_tensor(r.x)).item<double>();
  return r;
}

AdaptiveCrafter::AdaptiveCrafter(std::vector<std::int64_t> widths, std::vector<float> query_x, std::int64_t query_y,
                                 double virtual_step, double clip, std::size_t steps, double lr, CraftSign sign,
                                 InputBox box)
    : widths_(std::move(widths)),
      query_x_(std::move(query_x)),
      query_y_(query_y),
      virtual_step_(virtual_step),
      clip_(clip),
      steps_(steps),
      lr_(lr),
      sign_(sign),
      box_(box) {}

AdaptiveCrafter::Evaluation AdaptiveCrafter::evaluate(const float* theta, std::size_t parameters,
                                                      const std::vector<float>& x) const {
  const torch::Tensor w = parameters_view(theta, parameters).detach().requires_grad_(true);
  const torch::Tensor z = to_tensor(x).requires_grad_(true);
  // g(x) = grad_theta l(theta, x, y_q), kept differentiable in x.
  const torch::Tensor g = torch::autograd::grad({dense_example_loss(widths_, w, z, query_y_)}, {w}, {},
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
    if (!normalised_step(x_, torch::from_blob(const_cast<float*>(g.data()), {static_cast<std::int64_t>(g.size())}),
                         direction * lr_, box_))
      break;
  }
  return x_;
}

}  // namespace dpaudit::dp_train
