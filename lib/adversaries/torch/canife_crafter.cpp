#include "adversaries/torch/canife_crafter.hpp"

#include <algorithm>
#include <cmath>

#include <torch/autograd.h>
#include <Eigen/Core>

#include "core/error.hpp"
#include "data/datasets.hpp"
#include "train/torch/differentiable_model.hpp"

namespace dpaudit {

CanaryCrafter::CanaryCrafter(std::vector<std::int64_t> widths, const std::vector<float>& theta,
                             const std::vector<float>& pool, std::size_t pool_size)
    : widths_(std::move(widths)), theta_(theta), pool_(pool), pool_size_(pool_size) {}

std::vector<float> CanaryCrafter::gradient(const std::vector<float>& x, std::int64_t label) const {
  const torch::Tensor theta = to_tensor(theta_).requires_grad_(true);
  const torch::Tensor loss = dense_example_loss(widths_, theta, to_tensor(x), label);
  return to_vector(torch::autograd::grad({loss}, {theta})[0]);
}

// L and dL/dg for the design updates `batch` (see craft.hpp): with n = ||g||, a_i =
// <u_i, g>, S = (1/m) sum a_i^2 and w = (1/m) sum a_i u_i (cov; mean: a = <u_bar, g>,
// S = a^2, w = a u_bar), h = max(C_n - n, 0):
//   L = d C^2 S / n^2 + d h^2,   dL/dg = (2 d C^2 / n^2) w - (2 d C^2 S / n^4) g - (2 d h / n) g.
CanaryCrafter::Objective CanaryCrafter::objective(const std::vector<float>& g,
                                                  const std::vector<std::size_t>& batch,
                                                  const CraftOptions& o) const {
  const auto d = static_cast<Eigen::Index>(g.size());
  const Eigen::Map<const Eigen::VectorXf> gv(g.data(), d);
  const double n = gv.cast<double>().norm();
  if (!std::isfinite(n))
    throw DataError(
        Pattern{"the canary's gradient is not finite: the model has diverged (a "
                "smaller {lr} or {server_lr}, or less noise)"});
  if (!(n > 0))
    throw DataError(
        Pattern{"the canary's gradient is 0: its loss is flat at this model, which fits it exactly "
                "or has saturated (a smaller {lr} or {server_lr}, or another {seed})"});
  auto row = [&](std::size_t i) {
    return Eigen::Map<const Eigen::VectorXf>(pool_.data() + i * static_cast<std::size_t>(d), d);
  };
  // The sums over the batch run in float (an axpy per row, vectorised); 128 terms keep
  // about 1e-6 relative error, far below what Adam's step needs.
  const double m = static_cast<double>(batch.size());
  Eigen::VectorXf wf = Eigen::VectorXf::Zero(d);
  double s = 0;
  if (o.loss == CanaryLoss::cov) {
    for (std::size_t i : batch) {
      const double a = static_cast<double>(row(i).dot(gv));
      s += a * a / m;
      wf += static_cast<float>(a / m) * row(i);
    }
  } else {
    for (std::size_t i : batch) wf += row(i);
    wf /= static_cast<float>(m);
    const double a = static_cast<double>(wf.dot(gv));
    s = a * a;
    wf *= static_cast<float>(a);
  }
  const Eigen::VectorXd w = wf.cast<double>();
  const double dd = static_cast<double>(d), c2 = o.clip * o.clip;
  const double h = o.norm_constant > 0 ? std::max(o.norm_constant - n, 0.0) : 0.0;
  Objective result{dd * c2 * s / (n * n) + dd * h * h, {}};
  const Eigen::VectorXd dg =
      (2 * dd * c2 / (n * n)) * w -
      (2 * dd * c2 * s / (n * n * n * n) + 2 * dd * h / n) * gv.cast<double>();
  result.dg.assign(dg.data(), dg.data() + d);
  return result;
}

double CanaryCrafter::loss(const std::vector<float>& x, std::int64_t label,
                           const CraftOptions& o) const {
  std::vector<std::size_t> all(pool_size_);
  for (std::size_t i = 0; i < pool_size_; ++i) all[i] = i;
  return objective(gradient(x, label), all, o).value;
}

CanaryCrafter::Evaluation CanaryCrafter::evaluate(const std::vector<float>& x, std::int64_t label,
                                                  const std::vector<std::size_t>& batch,
                                                  const CraftOptions& o) const {
  const torch::Tensor theta = to_tensor(theta_).requires_grad_(true);
  const torch::Tensor z = to_tensor(x).requires_grad_(true);
  const torch::Tensor g =
      torch::autograd::grad({dense_example_loss(widths_, theta, z, label)}, {theta}, {},
                            /*retain_graph=*/true, /*create_graph=*/true)[0];
  const Objective obj = objective(to_vector(g), batch, o);
  // dL/dz = (dg/dz)^T dL/dg: the gradient of <g, v> with v = dL/dg held fixed.
  const torch::Tensor v = torch::tensor(obj.dg, torch::kDouble).to(torch::kFloat);
  return {obj.value, to_vector(torch::autograd::grad({(g * v).sum()}, {z})[0])};
}

CraftedCanary CanaryCrafter::craft(std::vector<float> x0, std::int64_t label, const CraftOptions& o,
                                   PhiloxStream& rng) const {
  CraftedCanary c;
  c.label = label;
  c.initial_loss = loss(x0, label, o);
  const std::size_t size = x0.size(), m = std::min(o.minibatch, pool_size_);
  std::vector<double> x(x0.begin(), x0.end()), m1(size, 0.0), m2(size, 0.0);
  std::vector<std::size_t> order(pool_size_), batch(m);
  for (std::size_t i = 0; i < pool_size_; ++i) order[i] = i;
  // Adam (Kingma & Ba 2015) with its default betas, as Maddock et al. 2023's code
  // (torch.optim.Adam).
  constexpr double beta1 = 0.9, beta2 = 0.999, adam_eps = 1e-8;
  double beta1_t = 1, beta2_t = 1;
  std::vector<float> xf(size);
  // The first input gave a usable gradient (initial_loss): one that is not later is the
  // crafted input's doing, Adam's steps or the hinge's pull, not the model's.
  std::size_t t = 0;
  auto at_crafted_input = [&](const auto& f) {
    try {
      return f();
    } catch (const DataError&) {
      throw DataError(Pattern{"the canary's gradient is not finite or 0 after " +
                              std::to_string(t) +
                              " design steps: the crafted input has diverged (a smaller "
                              "{design_lr} or {norm_constant})"});
    }
  };
  for (; t < o.steps; ++t) {
    // A minibatch of m design updates without replacement (a partial Fisher-Yates).
    shuffle_prefix(order, m, rng);
    std::copy_n(order.begin(), m, batch.begin());
    std::copy(x.begin(), x.end(), xf.begin());
    const std::vector<float> dz =
        at_crafted_input([&] { return evaluate(xf, label, batch, o).input_gradient; });
    beta1_t *= beta1;
    beta2_t *= beta2;
    for (std::size_t j = 0; j < size; ++j) {
      m1[j] = beta1 * m1[j] + (1 - beta1) * dz[j];
      m2[j] = beta2 * m2[j] + (1 - beta2) * double(dz[j]) * dz[j];
      x[j] -= o.lr * (m1[j] / (1 - beta1_t)) / (std::sqrt(m2[j] / (1 - beta2_t)) + adam_eps);
    }
  }
  c.x.assign(x.begin(), x.end());
  c.final_loss = at_crafted_input([&] { return loss(c.x, label, o); });
  c.health = c.initial_loss > 0 ? (c.initial_loss - c.final_loss) / c.initial_loss : 0.0;
  c.gradient = gradient(c.x, label);
  double norm2 = 0;
  for (float v : c.gradient) norm2 += double(v) * v;
  c.gradient_norm = std::sqrt(norm2);
  return c;
}

}  // namespace dpaudit
