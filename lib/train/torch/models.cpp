#include "train/torch/models.hpp"

#include <algorithm>
#include <cmath>

#include <torch/csrc/autograd/custom_function.h>
#include <torch/nn/cloneable.h>
#include <torch/nn/functional/loss.h>
#include <torch/nn/init.h>
#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/linear.h>  // nn::Flatten
#include <torch/nn/modules/pooling.h>
#include <torch/utils.h>
#include <Eigen/Core>

#include "core/error.hpp"
#include "core/names.hpp"

namespace dpaudit {

namespace nn = torch::nn;

ModelKind parse_model_kind(const std::string& name) {
  static constexpr Named<ModelKind> kModels[] = {
      {"logreg", ModelKind::logreg}, {"mlp", ModelKind::mlp}, {"cnn", ModelKind::cnn}};
  return parse_named(kModels, name, "model", "{model}");
}

ModelConfig model_config(const std::string& name, const Dataset& data, std::int64_t hidden) {
  ModelConfig c;
  c.kind = parse_model_kind(name);
  c.input_shape = data.example_shape;
  c.classes = data.num_classes;
  c.hidden = hidden;
  return c;
}

namespace {

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const RowMajor>;
using Map = Eigen::Map<RowMajor>;

ConstMap matrix(const torch::Tensor& t) {
  return {t.data_ptr<float>(), t.size(0), t.size(1)};
}

// y = x W^T + b with its gradients, on Eigen's GEMM: Debian's libtorch-dev multiplies
// with the reference BLAS, several times slower on the small matrices of local SGD.
struct DenseFunction : torch::autograd::Function<DenseFunction> {
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& input,
                               const torch::Tensor& weight, const torch::Tensor& bias) {
    const torch::Tensor x = input.contiguous();
    ctx->save_for_backward({x, weight});
    torch::Tensor y = torch::empty({x.size(0), weight.size(0)});
    Map out(y.data_ptr<float>(), y.size(0), y.size(1));
    out.noalias() = matrix(x) * matrix(weight).transpose();
    out.rowwise() += Eigen::Map<const Eigen::RowVectorXf>(bias.data_ptr<float>(), bias.size(0));
    return y;
  }

  // dL/dx = g W, dL/dW = g^T x, dL/db = column sums of g.
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const torch::Tensor& x = saved[0];
    const torch::Tensor& weight = saved[1];
    const torch::Tensor g = grads[0].contiguous();
    torch::Tensor grad_x, grad_w = torch::empty_like(weight),
                          grad_b = torch::empty({weight.size(0)});
    if (ctx->needs_input_grad(0)) {
      grad_x = torch::empty_like(x);
      Map(grad_x.data_ptr<float>(), x.size(0), x.size(1)).noalias() = matrix(g) * matrix(weight);
    }
    Map(grad_w.data_ptr<float>(), weight.size(0), weight.size(1)).noalias() =
        matrix(g).transpose() * matrix(x);
    Eigen::Map<Eigen::RowVectorXf>(grad_b.data_ptr<float>(), grad_b.size(0)) =
        matrix(g).colwise().sum();
    return {grad_x, grad_w, grad_b};
  }
};

// A fully connected layer with nn::Linear's parameters ("weight" out x in, then "bias"),
// initialisation and flattening order, computed by DenseFunction.
class DenseImpl : public torch::nn::Cloneable<DenseImpl> {
 public:
  DenseImpl(std::int64_t in, std::int64_t out) : in_(in), out_(out) { reset(); }
  void reset() override {
    weight = register_parameter("weight", torch::empty({out_, in_}));
    bias = register_parameter("bias", torch::empty({out_}));
    // nn::Linear::reset_parameters: kaiming_uniform(a = sqrt 5), bias U(+-1/sqrt(in)).
    torch::nn::init::kaiming_uniform_(weight, std::sqrt(5.0));
    const double bound = 1.0 / std::sqrt(static_cast<double>(in_));
    torch::nn::init::uniform_(bias, -bound, bound);
  }
  torch::Tensor forward(const torch::Tensor& x) { return DenseFunction::apply(x, weight, bias); }
  torch::Tensor weight, bias;

 private:
  std::int64_t in_, out_;
};
TORCH_MODULE(Dense);

std::int64_t flat_size(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (auto s : shape) n *= s;
  return n;
}

// Matsumoto et al. 2022, App. A, Table 2, with conv1 padding 3 (see models.hpp).
nn::Sequential make_cnn(const ModelConfig& c) {
  if (c.input_shape != std::vector<std::int64_t>{1, 28, 28})
    throw UsageError(Pattern{"model cnn needs 1x28x28 images (use {task} fashion-mnist)"},
                     "{model}");
  constexpr std::int64_t kFeaturesAfterPooling =
      32;  // 28 -> conv 14 -> pool 7 -> conv 2 -> pool 1, x 32 filters
  return nn::Sequential(nn::Conv2d(nn::Conv2dOptions(1, 16, 8).stride(2).padding(3)), nn::ReLU(),
                        nn::MaxPool2d(nn::MaxPool2dOptions(2).stride(2)),
                        nn::Conv2d(nn::Conv2dOptions(16, 32, 4).stride(2)), nn::ReLU(),
                        nn::MaxPool2d(nn::MaxPool2dOptions(2).stride(2)), nn::Flatten(),
                        Dense(kFeaturesAfterPooling, 32), nn::ReLU(), Dense(32, c.classes));
}

}  // namespace

nn::Sequential make_model(const ModelConfig& config, std::uint64_t seed) {
  torch::manual_seed(seed);
  const std::int64_t inputs = flat_size(config.input_shape);
  switch (config.kind) {
    case ModelKind::logreg:
      return nn::Sequential(nn::Flatten(), Dense(inputs, config.classes));
    case ModelKind::mlp:
      return nn::Sequential(nn::Flatten(), Dense(inputs, config.hidden), nn::ReLU(),
                            Dense(config.hidden, config.classes));
    case ModelKind::cnn:
      return make_cnn(config);
  }
  throw UsageError(Pattern{"unknown model"}, "{model}");
}

std::int64_t parameter_count(const nn::Module& model) {
  std::int64_t n = 0;
  for (const auto& p : model.parameters()) n += p.numel();
  return n;
}

torch::Tensor flatten_parameters(const nn::Module& model) {
  std::vector<torch::Tensor> pieces;
  for (const auto& p : model.parameters()) pieces.push_back(p.detach().reshape({-1}));
  return torch::cat(pieces);
}

void assign_parameters(nn::Module& model, const torch::Tensor& flat) {
  torch::NoGradGuard no_grad;
  std::int64_t offset = 0;
  for (auto& p : model.parameters()) {
    p.copy_(flat.slice(0, offset, offset + p.numel()).view(p.sizes()));
    offset += p.numel();
  }
}

void parameter_delta(const nn::Module& model, const torch::Tensor& flat, double* out) {
  const torch::Tensor whole = flat.contiguous();
  const float* base = whole.data_ptr<float>();
  for (const auto& p : model.parameters()) {
    const torch::Tensor values = p.detach().contiguous();
    const float* v = values.data_ptr<float>();
    for (std::int64_t j = 0; j < values.numel(); ++j) *out++ = static_cast<double>(v[j] - *base++);
  }
}

torch::Tensor flatten_gradients(const nn::Module& model) {
  std::vector<torch::Tensor> pieces;
  for (const auto& p : model.parameters())
    pieces.push_back(p.grad().defined() ? p.grad().reshape({-1}) : torch::zeros({p.numel()}));
  return torch::cat(pieces);
}

Batch gather_batch(const Dataset& data, const std::size_t* indices, std::size_t count) {
  const std::int64_t size = static_cast<std::int64_t>(data.example_size());
  std::vector<std::int64_t> shape{static_cast<std::int64_t>(count)};
  shape.insert(shape.end(), data.example_shape.begin(), data.example_shape.end());
  Batch b{torch::empty(shape), torch::empty({static_cast<std::int64_t>(count)}, torch::kLong)};
  float* x = b.x.data_ptr<float>();
  std::int64_t* y = b.y.data_ptr<std::int64_t>();
  for (std::size_t i = 0; i < count; ++i) {
    std::copy_n(data.example(indices[i]), size, x + static_cast<std::int64_t>(i) * size);
    y[i] = data.labels[indices[i]];
  }
  return b;
}

Batch whole_dataset(const Dataset& data) {
  std::vector<std::int64_t> shape{static_cast<std::int64_t>(data.size())};
  shape.insert(shape.end(), data.example_shape.begin(), data.example_shape.end());
  // from_blob does not copy; the tensors only read.
  return {torch::from_blob(const_cast<float*>(data.features.data()), shape),
          torch::from_blob(const_cast<std::int64_t*>(data.labels.data()),
                           {static_cast<std::int64_t>(data.size())}, torch::kLong)};
}

torch::Tensor cross_entropy_loss(nn::Sequential& model, const Batch& batch) {
  return nn::functional::cross_entropy(model->forward(batch.x), batch.y);
}

torch::Tensor loss_gradient(nn::Sequential& model, const Batch& batch) {
  model->zero_grad();
  cross_entropy_loss(model, batch).backward();
  return flatten_gradients(*model);
}

torch::Tensor per_example_gradients(nn::Sequential& model, const Batch& batch) {
  const std::int64_t n = batch.y.size(0);
  torch::Tensor out = torch::empty({n, parameter_count(*model)});
  for (std::int64_t i = 0; i < n; ++i)
    out[i] = loss_gradient(model, {batch.x.slice(0, i, i + 1), batch.y.slice(0, i, i + 1)});
  return out;
}

Evaluation evaluate(nn::Sequential& model, const Dataset& data, std::size_t batch_size) {
  torch::NoGradGuard no_grad;
  const Batch all = whole_dataset(data);
  const std::int64_t n = static_cast<std::int64_t>(data.size()),
                     step = static_cast<std::int64_t>(batch_size);
  double loss_sum = 0, correct = 0;
  for (std::int64_t begin = 0; begin < n; begin += step) {
    const std::int64_t end = std::min(n, begin + step);
    const torch::Tensor logits = model->forward(all.x.slice(0, begin, end));
    const torch::Tensor y = all.y.slice(0, begin, end);
    loss_sum += nn::functional::cross_entropy(
                    logits, y, nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum))
                    .item<double>();
    correct += logits.argmax(1).eq(y).sum().item<double>();
  }
  return {n ? loss_sum / n : 0.0, n ? correct / n : 0.0};
}

}  // namespace dpaudit
