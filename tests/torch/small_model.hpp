// Shared by the LibTorch tests: the model configuration they test on, the synthetic task's
// 8 x 8 images with 10 classes and 16 hidden units, and a small federation on it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "data/datasets.hpp"
#include "random/philox_stream.hpp"
#include "train/torch/models.hpp"

namespace dpaudit::test {

inline ModelConfig small_model(ModelKind kind) {
  ModelConfig c;
  c.kind = kind;
  c.input_shape = {1, 8, 8};
  c.classes = 10;
  c.hidden = 16;
  return c;
}

// `clients` clients of two 8 x 8 examples each (client k: examples 2k and 2k + 1, labels
// 2k and 2k + 1 mod 10, features N(0, 1) from Philox stream (11, 1)) and an MLP with 16
// hidden units (seed 7), with its flattened parameters.
struct SmallFederation {
  torch::nn::Sequential model;
  Dataset data;
  ClientIndices clients;
  std::vector<double> theta;
};

inline SmallFederation small_federation(std::size_t clients) {
  ModelConfig mc;
  mc.kind = ModelKind::mlp;
  mc.input_shape = {1, 8, 8};
  mc.hidden = 16;
  SmallFederation s{make_model(mc, 7), {}, {}, {}};
  s.data.example_shape = {1, 8, 8};
  s.data.num_classes = 10;
  PhiloxStream rng(11, 1);
  for (std::size_t i = 0; i < 2 * clients * 64; ++i)
    s.data.features.push_back(static_cast<float>(rng.normal()));
  for (std::size_t k = 0; k < 2 * clients; ++k)
    s.data.labels.push_back(static_cast<std::int64_t>(k % 10));
  for (std::size_t k = 0; k < clients; ++k) s.clients.push_back({2 * k, 2 * k + 1});
  const torch::Tensor flat = flatten_parameters(*s.model).to(torch::kDouble).contiguous();
  s.theta.assign(flat.data_ptr<double>(), flat.data_ptr<double>() + flat.numel());
  return s;
}

}  // namespace dpaudit::test
