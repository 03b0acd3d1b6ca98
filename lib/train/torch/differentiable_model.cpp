#include "train/torch/differentiable_model.hpp"

#include <torch/nn/functional/loss.h>

#include "core/error.hpp"
#include "train/torch/models.hpp"

namespace dpaudit {

std::vector<std::int64_t> dense_widths(const ModelConfig& config) {
  if (config.kind == ModelKind::cnn)
    throw UsageError(
        Pattern{
            "crafting inputs needs a dense model's differentiable path: logreg or mlp, not cnn"},
        "{model}");
  std::int64_t inputs = 1;
  for (auto s : config.input_shape) inputs *= s;
  std::vector<std::int64_t> widths{inputs};
  if (config.kind == ModelKind::mlp) widths.push_back(config.hidden);
  widths.push_back(config.classes);
  return widths;
}

torch::Tensor dense_forward(const std::vector<std::int64_t>& widths, const torch::Tensor& theta,
                            const torch::Tensor& x) {
  torch::Tensor a = x.reshape({x.size(0), -1});
  std::int64_t offset = 0;
  for (std::size_t l = 0; l + 1 < widths.size(); ++l) {
    const std::int64_t in = widths[l], out = widths[l + 1];
    const torch::Tensor weight = theta.slice(0, offset, offset + out * in).view({out, in});
    offset += out * in;
    const torch::Tensor bias = theta.slice(0, offset, offset + out);
    offset += out;
    a = torch::linear(a, weight, bias);
    if (l + 2 < widths.size()) a = torch::relu(a);
  }
  return a;
}

torch::Tensor dense_example_loss(const std::vector<std::int64_t>& widths,
                                 const torch::Tensor& theta, const torch::Tensor& x,
                                 std::int64_t label) {
  return torch::nn::functional::cross_entropy(dense_forward(widths, theta, x.view({1, -1})),
                                              torch::full({1}, label, torch::kLong));
}

torch::Tensor to_tensor(const std::vector<float>& v) {
  return torch::from_blob(const_cast<float*>(v.data()), {static_cast<std::int64_t>(v.size())})
      .clone();
}

std::vector<float> to_vector(const torch::Tensor& t) {
  const torch::Tensor c = t.detach().contiguous();
  return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

}  // namespace dpaudit
