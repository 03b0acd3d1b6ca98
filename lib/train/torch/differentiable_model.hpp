// The dense ReLU networks of dp-train (logreg, mlp) as LibTorch functional ops over the
// flat parameter vector, differentiable in both the parameters and the input, so that
// autograd can take gradients through a per-example gradient (double backprop): the
// canary crafting of Maddock et al. 2023 (Alg. 1; adversaries/torch/canife_crafter.hpp)
// and the adaptive poison of Nasr et al. 2021 (Crafter 3; adversaries/torch/
// adaptive_poison.hpp). Same layers, parameters and order as train/dense_per_example.hpp
// (per layer the weight, out x in in C order, then the bias): the same flat vector runs
// in both, and tests/torch/test_sgd_poison.cpp checks that they give the same gradients.
#pragma once
#include <cstdint>
#include <vector>

#include <torch/types.h>

namespace dpaudit {

struct ModelConfig;

// {inputs, hidden..., classes} of a logreg or mlp model (DensePerExample's widths);
// UsageError naming --model for a model with convolutions.
std::vector<std::int64_t> dense_widths(const ModelConfig& config);

// Logits of the examples x (count x inputs, or any shape whose first axis is the count)
// at the flat parameters theta: linear layers with ReLU between them.
torch::Tensor dense_forward(const std::vector<std::int64_t>& widths, const torch::Tensor& theta,
                            const torch::Tensor& x);
// Cross-entropy loss of one example x (inputs values) with label `label`, a scalar
// tensor whose graph autograd can differentiate twice.
torch::Tensor dense_example_loss(const std::vector<std::int64_t>& widths,
                                 const torch::Tensor& theta, const torch::Tensor& x,
                                 std::int64_t label);

// A float vector as a 1-D tensor owning a copy, and back.
torch::Tensor to_tensor(const std::vector<float>& v);
std::vector<float> to_vector(const torch::Tensor& t);

}  // namespace dpaudit
