#include "train/torch/per_example_model.hpp"

#include <algorithm>
#include <cmath>

#include <torch/nn/functional/loss.h>

#include "train/dense_per_example.hpp"
#include "train/torch/models.hpp"

namespace dpaudit {

namespace {

class DenseModel final : public PerExampleModel {
 public:
  explicit DenseModel(std::vector<std::int64_t> widths) : dense_(std::move(widths)) {}
  std::unique_ptr<PerExampleModel> clone() const override {
    return std::make_unique<DenseModel>(*this);
  }
  std::size_t parameter_count() const override { return dense_.parameter_count(); }
  void add_clipped_sum(const float* theta, const float* x, const std::int64_t* y, std::size_t count,
                       double clip, float* sum) override {
    dense_.add_clipped_sum(theta, x, y, count, clip, sum);
  }
  std::size_t losses(const float* theta, const float* x, const std::int64_t* y, std::size_t count,
                     double* loss) override {
    return dense_.losses(theta, x, y, count, loss);
  }
  void predict(const float* theta, const float* x, std::size_t count,
               std::int64_t* labels) override {
    dense_.predict(theta, x, count, labels);
  }

 private:
  DensePerExample dense_;
};

// Any model, one LibTorch backward per example (models.hpp, per_example_gradients).
class TorchModel final : public PerExampleModel {
 public:
  TorchModel(const ModelConfig& config, std::uint64_t seed) : config_(config), seed_(seed) {
    model_ = make_model(config, seed);
  }
  std::unique_ptr<PerExampleModel> clone() const override {
    return std::make_unique<TorchModel>(config_, seed_);
  }
  std::size_t parameter_count() const override {
    return static_cast<std::size_t>(dpaudit::parameter_count(*model_));
  }
  void add_clipped_sum(const float* theta, const float* x, const std::int64_t* y, std::size_t count,
                       double clip, float* sum) override {
    if (count == 0) return;
    load(theta);
    const torch::Tensor grads = per_example_gradients(model_, batch(x, y, count));
    const torch::Tensor norms = grads.to(torch::kDouble).norm(2, 1);
    const torch::Tensor factors = (clip / norms).clamp_max(1.0).to(torch::kFloat);
    const torch::Tensor total = (grads * factors.unsqueeze(1)).sum(0);
    const float* t = total.data_ptr<float>();
    for (std::size_t i = 0, d = parameter_count(); i < d; ++i) sum[i] += t[i];
  }
  std::size_t losses(const float* theta, const float* x, const std::int64_t* y, std::size_t count,
                     double* loss) override {
    torch::NoGradGuard no_grad;
    load(theta);
    const Batch b = batch(x, y, count);
    const torch::Tensor logits = model_->forward(b.x);
    const torch::Tensor l =
        torch::nn::functional::cross_entropy(
            logits, b.y, torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kNone))
            .to(torch::kDouble);
    for (std::size_t i = 0; i < count; ++i)
      loss[i] = l[static_cast<std::int64_t>(i)].item<double>();
    return static_cast<std::size_t>(logits.argmax(1).eq(b.y).sum().item<std::int64_t>());
  }
  void predict(const float* theta, const float* x, std::size_t count,
               std::int64_t* labels) override {
    torch::NoGradGuard no_grad;
    load(theta);
    std::vector<std::int64_t> none(count, 0);
    const torch::Tensor arg = model_->forward(batch(x, none.data(), count).x).argmax(1);
    for (std::size_t i = 0; i < count; ++i)
      labels[i] = arg[static_cast<std::int64_t>(i)].item<std::int64_t>();
  }

 private:
  void load(const float* theta) {
    assign_parameters(*model_, torch::from_blob(const_cast<float*>(theta),
                                                {static_cast<std::int64_t>(parameter_count())}));
  }
  Batch batch(const float* x, const std::int64_t* y, std::size_t count) const {
    std::vector<std::int64_t> shape{static_cast<std::int64_t>(count)};
    shape.insert(shape.end(), config_.input_shape.begin(), config_.input_shape.end());
    return {torch::from_blob(const_cast<float*>(x), shape),
            torch::from_blob(const_cast<std::int64_t*>(y), {static_cast<std::int64_t>(count)},
                             torch::kLong)};
  }

  ModelConfig config_;
  std::uint64_t seed_;
  torch::nn::Sequential model_{nullptr};
};

}  // namespace

double test_accuracy(PerExampleModel& model, const std::vector<float>& theta, const Dataset& test) {
  std::vector<double> loss(1000);
  std::size_t correct = 0;
  for (std::size_t begin = 0; begin < test.size(); begin += loss.size()) {
    const std::size_t count = std::min(loss.size(), test.size() - begin);
    correct += model.losses(theta.data(), test.example(begin), test.labels.data() + begin, count,
                            loss.data());
  }
  return static_cast<double>(correct) / static_cast<double>(test.size());
}

std::unique_ptr<PerExampleModel> PerExampleModel::make_reference(const ModelConfig& config,
                                                                 std::uint64_t seed) {
  return std::make_unique<TorchModel>(config, seed);
}

std::unique_ptr<PerExampleModel> PerExampleModel::make(const ModelConfig& config,
                                                       std::uint64_t seed,
                                                       std::vector<float>& theta0) {
  torch::nn::Sequential model = make_model(config, seed);
  const torch::Tensor flat = flatten_parameters(*model).contiguous();
  theta0.assign(flat.data_ptr<float>(), flat.data_ptr<float>() + flat.numel());
  std::int64_t inputs = 1;
  for (auto s : config.input_shape) inputs *= s;
  switch (config.kind) {
    case ModelKind::logreg:
      return std::make_unique<DenseModel>(std::vector<std::int64_t>{inputs, config.classes});
    case ModelKind::mlp:
      return std::make_unique<DenseModel>(
          std::vector<std::int64_t>{inputs, config.hidden, config.classes});
    case ModelKind::cnn:
      return std::make_unique<TorchModel>(config, seed);
  }
  return nullptr;
}

}  // namespace dpaudit
