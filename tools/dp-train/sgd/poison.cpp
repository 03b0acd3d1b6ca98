#include "sgd/poison.hpp"

#include <algorithm>
#include <cmath>

#include <stdexcept>

#include <torch/autograd.h>
#include <Eigen/Core>

#include "core/parallel.hpp"
#include "data/datasets.hpp"
#include "sgd/game.hpp"
#include "sgd/per_example_model.hpp"
#include "sgd/trainer.hpp"
#include "train/torch/differentiable_model.hpp"
#include "train/torch/models.hpp"

namespace dpaudit::dp_train {

namespace {

// x <- clamp(x + step g / ||g||, lo, hi) for g of x.size() floats; false (x unchanged)
// when g = 0.
bool normalised_step(std::vector<float>& x, const float* g, double step, InputBox box) {
  double norm2 = 0;
  for (std::size_t j = 0; j < x.size(); ++j) norm2 += double(g[j]) * g[j];
  const double norm = std::sqrt(norm2);
  if (!(norm > 0)) return false;
  const auto scale = static_cast<float>(step / norm);
  for (std::size_t j = 0; j < x.size(); ++j) x[j] = std::clamp(x[j] + scale * g[j], box.lo, box.hi);
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

std::vector<std::vector<float>> train_shadow_models(const SgdConfig& config,
                                                    const ModelConfig& model, const Dataset& shadow,
                                                    double sigma) {
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

DenseInputGradient::DenseInputGradient(std::vector<std::int64_t> widths)
    : widths_(std::move(widths)) {
  if (widths_.size() < 2 || widths_.size() > 3)
    throw std::invalid_argument("DenseInputGradient: one or two linear layers (logreg, mlp)");
}

double DenseInputGradient::compute(const float* theta, const float* x, std::int64_t y) {
  using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Vector = Eigen::VectorXf;
  const bool hidden = widths_.size() == 3;
  const Eigen::Index in = widths_[0], mid = hidden ? widths_[1] : in, classes = widths_.back();
  theta_ = theta;
  x_.assign(x, x + in);
  const Eigen::Map<const Vector> xv(x, in);
  std::size_t offset = 0;
  if (hidden) {  // z1 = W1 x + b1, h = relu(z1)
    const Eigen::Map<const Matrix> w1(theta, mid, in);
    const Eigen::Map<const Vector> b1(theta + mid * in, mid);
    const Vector z1 = w1 * xv + b1;
    mask_.resize(mid);
    h_.resize(mid);
    for (Eigen::Index k = 0; k < mid; ++k) {
      mask_[k] = z1[k] > 0 ? 1.0f : 0.0f;
      h_[k] = z1[k] > 0 ? z1[k] : 0.0f;
    }
    offset = static_cast<std::size_t>(mid * (in + 1));
  } else {
    h_ = x_;
  }
  const Eigen::Map<const Matrix> w2(theta + offset, classes, mid);
  const Eigen::Map<const Vector> b2(theta + offset + classes * mid, classes);
  const Eigen::Map<const Vector> hv(h_.data(), mid);
  Vector z2 = w2 * hv + b2;
  const float top = z2.maxCoeff();
  const double log_sum = std::log((z2.array() - top).exp().cast<double>().sum());
  const double loss = top + log_sum - z2[y];
  p_.resize(classes);
  Eigen::Map<Vector>(p_.data(), classes) =
      ((z2.array() - top).exp() / static_cast<float>(std::exp(log_sum))).matrix();
  e2_ = p_;
  e2_[y] -= 1.0f;
  const Eigen::Map<const Vector> e2(e2_.data(), classes);
  // g in dp-train's order: (W1, b1,) W2, b2.
  g_.resize(offset + static_cast<std::size_t>(classes * (mid + 1)));
  if (hidden) {
    e1_.resize(mid);
    Eigen::Map<Vector> e1(e1_.data(), mid);
    e1 = (w2.transpose() * e2).cwiseProduct(Eigen::Map<const Vector>(mask_.data(), mid));
    Eigen::Map<Matrix>(g_.data(), mid, in) = e1 * xv.transpose();
    Eigen::Map<Vector>(g_.data() + mid * in, mid) = e1;
  }
  Eigen::Map<Matrix>(g_.data() + offset, classes, mid) = e2 * hv.transpose();
  Eigen::Map<Vector>(g_.data() + offset + classes * mid, classes) = e2;
  return loss;
}

std::vector<float> DenseInputGradient::input_vjp(const float* w) const {
  using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Vector = Eigen::VectorXf;
  const bool hidden = widths_.size() == 3;
  const Eigen::Index in = widths_[0], mid = hidden ? widths_[1] : in, classes = widths_.back();
  const std::size_t offset = hidden ? static_cast<std::size_t>(mid * (in + 1)) : 0;
  const Eigen::Map<const Vector> xv(x_.data(), in), hv(h_.data(), mid), p(p_.data(), classes),
      e2(e2_.data(), classes);
  const Eigen::Map<const Matrix> w2(theta_ + offset, classes, mid), o2(w + offset, classes, mid);
  const Eigen::Map<const Vector> ob2(w + offset + classes * mid, classes);
  // a = O2 h + o2; the top layer's input h is x itself for logreg.
  Vector top = o2 * hv + ob2;
  std::vector<float> result(static_cast<std::size_t>(in));
  Eigen::Map<Vector> out(result.data(), in);
  if (!hidden) {
    out = w2.transpose() * (p.cwiseProduct(top) - p * p.dot(top)) +
          o2.transpose() * e2;  // W^T S a + O^T e
    return result;
  }
  const Eigen::Map<const Matrix> w1(theta_, mid, in), o1(w, mid, in);
  const Eigen::Map<const Vector> ob1(w + mid * in, mid), mask(mask_.data(), mid),
      e1(e1_.data(), mid);
  top += w2 * (o1 * xv + ob1).cwiseProduct(mask);  // a + W2 (m o b)
  const Vector r_h = w2.transpose() * (p.cwiseProduct(top) - p * p.dot(top)) + o2.transpose() * e2;
  out = w1.transpose() * r_h.cwiseProduct(mask) + o1.transpose() * e1;
  return result;
}

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

}  // namespace dpaudit::dp_train
