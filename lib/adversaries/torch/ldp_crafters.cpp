#include "adversaries/torch/ldp_crafters.hpp"

#include <cmath>

#include <torch/autograd.h>
#include <torch/optim/sgd.h>

namespace dpaudit::ldp {

namespace {

Eigen::VectorXd to_eigen(const torch::Tensor& flat) {
  const torch::Tensor d = flat.to(torch::kDouble).contiguous();
  return Eigen::Map<const Eigen::VectorXd>(d.data_ptr<double>(), d.numel());
}

}  // namespace

Eigen::VectorXd parameters_of(const torch::nn::Module& model) {
  return to_eigen(flatten_parameters(model));
}

LdpModelView::LdpModelView(torch::nn::Sequential model, const Eigen::VectorXd& theta)
    : model_(std::move(model)), theta_(theta) {}

void LdpModelView::load(const Eigen::VectorXd& theta) {
  if (loaded_ == &theta) return;
  const torch::Tensor flat =
      torch::from_blob(const_cast<double*>(theta.data()), {theta.size()}, torch::kDouble)
          .to(torch::kFloat);
  assign_parameters(*model_, flat);
  // Only theta_ lives as long as the view; other vectors are reloaded on every use.
  loaded_ = &theta == &theta_ ? &theta_ : nullptr;
}

Eigen::VectorXd LdpModelView::gradient(const Batch& x, const Eigen::VectorXd& theta) {
  load(theta);
  return to_eigen(loss_gradient(model_, x));
}

double LdpModelView::loss(const Batch& x, const Eigen::VectorXd& theta) {
  load(theta);
  torch::NoGradGuard no_grad;
  return cross_entropy_loss(model_, x).item<double>();
}

Batch LdpModelView::fgsm(const Batch& x, double alpha) {
  load(theta_);
  const torch::Tensor input = x.x.detach().clone().requires_grad_(true);
  const torch::Tensor loss = cross_entropy_loss(model_, {input, x.y});
  const torch::Tensor grad = torch::autograd::grad({loss}, {input})[0];
  return {(input.detach() + alpha * grad.sign()), x.y};
}

void craft(LdpCrafter crafter, LdpModelView& view, const Dataset& images,
           const std::vector<std::size_t>& x1_pool, PhiloxStream& rng, CraftedPair& out) {
  const std::size_t i1 = x1_pool[uniform_below(rng, x1_pool.size())];
  out.x1 = gather_batch(images, &i1, 1);
  out.x2 = Batch{};
  out.g1 = view.gradient(out.x1, view.theta());
  switch (crafter) {
    case LdpCrafter::benign: {  // g2 = grad f(x2; theta), x2 another image
      std::size_t i2 = uniform_below(rng, images.size() - 1);
      i2 += i2 >= i1;
      out.x2 = gather_batch(images, &i2, 1);
      out.g2 = view.gradient(out.x2, view.theta());
      break;
    }
    case LdpCrafter::input_perturbation:  // x2 = x1 + alpha sgn(grad_x f(x1; theta))
      out.x2 = view.fgsm(out.x1, kFgsmAlpha);
      out.g2 = view.gradient(out.x2, view.theta());
      break;
    case LdpCrafter::parameter_retrogression: {  // g2 = grad f(x1; theta + alpha g1)
      const Eigen::VectorXd retrograded = view.theta() + kRetrogressionAlpha * out.g1;
      out.g2 = view.gradient(out.x1, retrograded);
      break;
    }
    case LdpCrafter::gradient_flip:  // g2 = -g1 (collusion: the same at theta~)
    case LdpCrafter::collusion:
      out.g2 = -out.g1;
      break;
    case LdpCrafter::dummy_gradient:
      throw std::logic_error("the dummy gradient needs no model (dummy_gradient_pair)");
  }
}

CraftedPair dummy_gradient_pair(std::size_t dim, double norm) {
  CraftedPair pair;
  pair.g1 = Eigen::VectorXd::Constant(static_cast<Eigen::Index>(dim),
                                      norm / std::sqrt(static_cast<double>(dim)));
  pair.g2 = -pair.g1;
  return pair;
}

void pretrain(torch::nn::Sequential& model, const Dataset& train,
              const std::vector<std::size_t>& pool, std::size_t steps, PhiloxStream& rng) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(kPretrainLearningRate));
  std::vector<std::size_t> batch(kPretrainBatch);
  for (std::size_t s = 0; s < steps; ++s) {
    for (auto& i : batch) i = pool[uniform_below(rng, pool.size())];
    optimizer.zero_grad();
    cross_entropy_loss(model, gather_batch(train, batch.data(), batch.size())).backward();
    optimizer.step();
  }
}

}  // namespace dpaudit::ldp
