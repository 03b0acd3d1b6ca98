// The model-based crafters of Matsumoto et al. 2022 (Sec. 3.4, Table 1: benign, input
// perturbation, parameter retrogression, gradient flip, collusion; the dummy gradient needs
// no model), on a per-thread view of the model the server sent (theta_t, or the malicious
// theta~_t under collusion), and the losses the black-box distinguisher reads.
#pragma once
#include <cstddef>
#include <vector>

#include <Eigen/Core>

#include "adversaries/ldp_adversary.hpp"
#include "data/datasets.hpp"
#include "random/philox_stream.hpp"
#include "train/torch/models.hpp"

namespace dpaudit::ldp {

// The gradient pair of one trial and the images the distinguisher is given.
struct CraftedPair {
  Eigen::VectorXd g1, g2;
  Batch x1, x2;  // x2 is undefined where the crafter uses one image only
};

// FGSM step size (Matsumoto et al. 2022 Sec. 3.4, footnote: alpha = 1) and parameter
// retrogression's step theta' = theta + alpha grad f(x1; theta) (also alpha = 1).
constexpr double kFgsmAlpha = 1.0;
constexpr double kRetrogressionAlpha = 1.0;

class LdpModelView {
 public:
  // `model` is this view's own replica; `theta` the server's model it evaluates at.
  LdpModelView(torch::nn::Sequential model, const Eigen::VectorXd& theta);

  const Eigen::VectorXd& theta() const { return theta_; }
  // grad_theta f(x; theta), the flat gradient of the cross-entropy loss of x.
  Eigen::VectorXd gradient(const Batch& x, const Eigen::VectorXd& theta);
  // f(x; theta).
  double loss(const Batch& x, const Eigen::VectorXd& theta);
  // x + alpha sgn(grad_x f(x; theta_t)) (FGSM, Goodfellow et al. 2014), not clamped.
  Batch fgsm(const Batch& x, double alpha);

 private:
  void load(const Eigen::VectorXd& theta);
  torch::nn::Sequential model_;
  Eigen::VectorXd theta_;
  const Eigen::VectorXd* loaded_ = nullptr;
};

// Matsumoto et al. 2022 Sec. 3.4 for every crafter but the dummy gradient: draws x1 uniformly from
// `x1_pool` (indices into `images`) and, for benign, x2 uniformly from the other images.
void craft(LdpCrafter crafter, LdpModelView& view, const Dataset& images,
           const std::vector<std::size_t>& x1_pool, PhiloxStream& rng, CraftedPair& out);

// The dummy gradient g1 = (lambda, ..., lambda), lambda = norm / sqrt(d), and g2 = -g1.
// Matsumoto et al. 2022 Sec. 3.4 takes norm = L; Fig. 3 varies it (a norm below L is flipped by the
// norm projection with probability 1/2 - norm/(2L)).
CraftedPair dummy_gradient_pair(std::size_t dim, double norm);

// Plain minibatch SGD on cross-entropy (learning rate 0.1, batches of 32 drawn with
// replacement from `pool`), the stand-in for the rounds before round t.
constexpr double kPretrainLearningRate = 0.1;
constexpr std::size_t kPretrainBatch = 32;
void pretrain(torch::nn::Sequential& model, const Dataset& train,
              const std::vector<std::size_t>& pool, std::size_t steps, PhiloxStream& rng);

// Flat parameters as doubles.
Eigen::VectorXd parameters_of(const torch::nn::Module& model);

}  // namespace dpaudit::ldp
