// Models for dp-train (shared by fedavg, ldp, ...): logreg, mlp (Andrew et al. 2024,
// Sec. 5.4: a two-layer feed-forward net on Fashion-MNIST), cnn (Matsumoto et al. 2022,
// App. A, Table 2), and the
// flat parameter vector every audit works with.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <torch/nn/modules/container/sequential.h>

#include "data/datasets.hpp"

namespace dpaudit {

enum class ModelKind { logreg, mlp, cnn };
ModelKind parse_model_kind(
    const std::string& name);  // "logreg" | "mlp" | "cnn"; UsageError otherwise

struct ModelConfig {
  ModelKind kind = ModelKind::mlp;
  std::vector<std::int64_t> input_shape;  // one example, e.g. {1, 28, 28}
  std::int64_t classes = 10;
  std::int64_t hidden = 128;  // mlp hidden width: 784-128-10 has 101,770 parameters
};

// The model `name` (parse_model_kind) for the examples of `data`; `hidden` for mlp.
ModelConfig model_config(const std::string& name, const Dataset& data, std::int64_t hidden = 128);

// logreg: flatten -> linear. mlp: flatten -> linear(hidden) -> ReLU -> linear. Linear
// layers have nn::Linear's parameters and initialisation but multiply with Eigen
// (Debian's LibTorch uses the reference BLAS; see models.cpp, DenseFunction).
// cnn (Matsumoto et al. 2022, Table 2): conv 16 8x8 stride 2 (padding 3) -> ReLU -> maxpool 2x2
// stride 2 -> conv 32 4x4 stride 2 -> ReLU -> maxpool 2x2 stride 2 -> linear 32 -> ReLU -> linear
// (10,650 parameters on 28x28). The table gives no padding; with none a 28x28 image
// shrinks to nothing before the second pooling, so conv1 pads by 3 as in Papernot et
// al.'s (2021) version of the same net. UsageError for cnn on inputs other than 1x28x28.
// Parameters start from LibTorch's default initialisation, drawn from torch's generator
// seeded with `seed`.
torch::nn::Sequential make_model(const ModelConfig& config, std::uint64_t seed);

// Number of scalar parameters (the D of every canary and delta).
std::int64_t parameter_count(const torch::nn::Module& model);

// All parameters as one 1-D float tensor, in registration order (layer by layer, weight
// then bias, each in C order) -- the order of every NPY vector dp-train writes.
torch::Tensor flatten_parameters(const torch::nn::Module& model);
// The inverse: copies `flat` (parameter_count values) into the parameters.
void assign_parameters(torch::nn::Module& model, const torch::Tensor& flat);

// out[i] = parameter i of the model (in flatten_parameters' order) less flat[i], subtracted in
// float and widened to double: (flatten_parameters(model) - flat).to(kDouble), bit for bit,
// without the two temporary tensors. flat: float, contiguous, as many entries as parameters.
void parameter_delta(const torch::nn::Module& model, const torch::Tensor& flat, double* out);
// Gradients in the same order (zero where a parameter has no gradient yet).
torch::Tensor flatten_gradients(const torch::nn::Module& model);

struct Batch {
  torch::Tensor x;  // count x example_shape, float
  torch::Tensor y;  // count, int64
};
// Examples data[indices[0..count)] as tensors.
Batch gather_batch(const Dataset& data, const std::size_t* indices, std::size_t count);
// The whole data set as one batch (a view on its memory: `data` must outlive it).
Batch whole_dataset(const Dataset& data);

// Mean cross-entropy loss of a batch.
torch::Tensor cross_entropy_loss(torch::nn::Sequential& model, const Batch& batch);
// Flat gradient of the batch's mean cross-entropy loss at the current parameters.
torch::Tensor loss_gradient(torch::nn::Sequential& model, const Batch& batch);
// One flat gradient per example: count x D (one backward pass per example).
torch::Tensor per_example_gradients(torch::nn::Sequential& model, const Batch& batch);

struct Evaluation {
  double loss = 0;      // mean cross-entropy
  double accuracy = 0;  // fraction correct
};
// Loss and accuracy on a data set, in batches of `batch_size` without gradients.
Evaluation evaluate(torch::nn::Sequential& model, const Dataset& data,
                    std::size_t batch_size = 2000);

}  // namespace dpaudit
