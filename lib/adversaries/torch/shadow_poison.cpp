#include "adversaries/torch/shadow_poison.hpp"

#include <memory>

#include <torch/autograd.h>

#include "core/parallel.hpp"
#include "random/streams.hpp"
#include "train/torch/differentiable_model.hpp"
#include "train/torch/dp_sgd.hpp"
#include "train/torch/per_example_model.hpp"

namespace dpaudit {

std::vector<std::vector<float>> train_shadow_models(const DpSgdConfig& trainer,
                                                    const ShadowModels& shadows,
                                                    const ModelConfig& model, const Dataset& shadow,
                                                    double sigma) {
  DpSgdConfig c = trainer;
  c.fault = SgdFault::none;
  c.train_size = shadow.size();
  const std::size_t n = shadows.count;
  // Initialisations first, in this thread: LibTorch draws them from its global generator.
  std::vector<std::vector<float>> thetas(n);
  std::vector<PhiloxStream> rngs;
  std::unique_ptr<PerExampleModel> prototype;
  for (std::size_t i = 0; i < n; ++i) {
    rngs.emplace_back(shadows.seed, streams::kSgdShadow + i);
    prototype = PerExampleModel::make(model, rngs.back().next_u64(), thetas[i]);
  }
  parallel_blocks(n, shadows.threads, [&](std::size_t begin, std::size_t end, std::size_t) {
    const auto copy = prototype->clone();
    DpSgdTrainer trainer(c, shadow, *copy, sigma);
    for (std::size_t i = begin; i < end; ++i) trainer.train(thetas[i], rngs[i], nullptr);
  });
  return thetas;
}

CraftedInput ascend_shadow_loss(const std::vector<std::int64_t>& widths,
                                const std::vector<std::vector<float>>& shadows,
                                std::vector<float> x0, std::int64_t y, std::size_t steps, double lr,
                                InputBox box) {
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
    const torch::Tensor g = torch::autograd::grad({mean_loss(x)}, {x})[0].contiguous();
    if (!normalised_step(r.x, g.data_ptr<float>(), lr, box)) break;  // ascent: +g
  }
  r.final_loss = mean_loss(to_tensor(r.x)).item<double>();
  return r;
}

}  // namespace dpaudit
