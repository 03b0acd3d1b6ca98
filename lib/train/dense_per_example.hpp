// Per-example gradients of a fully connected ReLU network for a whole lot at once, the
// core of DP-SGD (Abadi et al. 2016): the gradient of example i's loss with respect to a
// linear layer's weight is the outer product g_i a_i^T of the layer's error g_i and input
// a_i, so
//   ||grad_i||^2 = sum_l (||a_{l,i}||^2 + 1) ||g_{l,i}||^2          (weight and bias)
//   sum_i c_i grad_i (layer l) = (c o G_l)^T A_l,  c_i = min(1, C / ||grad_i||),
// one matrix product per layer, without ever forming the B x D matrix of per-example
// gradients (the "ghost norm" of Goodfellow 2015; Lee & Kifer 2021). No LibTorch: the
// parameters are dp-train's flat vector in LibTorch's order (models.hpp: per layer the
// weight, out x in in C order, then the bias), so the same vector runs in both.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dpaudit {

class DensePerExample {
 public:
  // widths = {inputs, hidden..., classes}: linear layers with ReLU between them
  // (logreg: {784, 10}; mlp: {784, 32, 10}).
  explicit DensePerExample(std::vector<std::int64_t> widths);

  std::size_t parameter_count() const { return parameters_; }

  // Adds sum_i clip_C(grad_i) to `sum` (parameter_count() floats), grad_i the gradient of
  // example i's cross-entropy loss at `theta`; x holds `count` examples row by row, y
  // their labels. clip = +inf adds the unclipped gradients. If `norms` is given, it
  // receives the `count` unclipped norms ||grad_i||.
  void add_clipped_sum(const float* theta, const float* x, const std::int64_t* y, std::size_t count,
                       double clip, float* sum, double* norms = nullptr);

  // Cross-entropy loss of each of `count` examples at theta (into `loss`), and the number
  // of them whose arg-max prediction is their label.
  std::size_t losses(const float* theta, const float* x, const std::int64_t* y, std::size_t count,
                     double* loss);
  // Arg-max predictions (into `labels`).
  void predict(const float* theta, const float* x, std::size_t count, std::int64_t* labels);

 private:
  void forward(const float* theta, const float* x, std::size_t count);

  std::vector<std::int64_t> widths_;
  std::vector<std::size_t> offsets_;  // start of each layer's weight in theta
  std::size_t parameters_ = 0;
  // Scratch of the last forward pass: pre-activations Z_l and activations A_l per layer.
  std::vector<std::vector<float>> pre_, act_;
  std::vector<float> error_, next_error_;
};

}  // namespace dpaudit
