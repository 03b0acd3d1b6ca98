// The adversaries of the LDP privacy test (Matsumoto et al. 2022 Sec. 3.2-3.4, Table 1): six
// crafters that produce a gradient pair (g1, g2), and the white-box and black-box distinguishers
// that guess which of the two a randomized report came from. Crafting needs a model
// (adversaries/torch/ldp_crafters.hpp); the decision rules here need none.
#pragma once
#include <string>

#include <Eigen/Core>

namespace dpaudit {

enum class LdpCrafter {
  benign,                   // g1 = grad f(x1, theta), g2 = grad f(x2, theta)
  input_perturbation,       // x2 = x1 + alpha sgn(grad_x f(x1, theta)) (FGSM), alpha = 1
  parameter_retrogression,  // g2 = grad f(x1, theta + alpha grad f(x1, theta)), alpha = 1
  gradient_flip,            // g2 = -g1
  collusion,                // g1 from a malicious model trained on one label, g2 = -g1
  dummy_gradient,           // g1 = (lambda, ..., lambda), lambda = L/sqrt(d), g2 = -g1
};

enum class LdpDistinguisher { white_box, black_box };

// The black-box rule Matsumoto et al. 2022 pairs with each crafter (Table 1).
enum class BlackBoxRule {
  loss_decrease,  // Eq. 4: g1 iff f(x1; theta_{t+1}) <= f(x1; theta_t)
  loss_change,    // Eq. 6: g1 iff |f(x1; t+1) - f(x1; t)| >= |f(x2; t+1) - f(x2; t)|
  sign_sum,       // Eq. 7: g1 iff sum_i sgn(theta_t^i - theta_{t+1}^i) >= 0
};

// Names as on the command line: "benign", "input-perturbation", ..., "dummy-gradient".
std::string to_string(LdpCrafter crafter);
LdpCrafter parse_ldp_crafter(const std::string& name);  // UsageError if unknown
std::string to_string(LdpDistinguisher distinguisher);
LdpDistinguisher parse_ldp_distinguisher(const std::string& name);  // "white-box" | "black-box"

// Matsumoto et al. 2022 Table 1: Eq. 6 for benign, Eq. 7 for dummy gradient, Eq. 4 for the others.
BlackBoxRule black_box_rule(LdpCrafter crafter);

// Eq. 5: guess g1 (true) iff cos(report, g1) >= cos(report, g2). The cosine with a
// zero gradient is taken as 0.
bool white_box_guess(const Eigen::Ref<const Eigen::VectorXd>& report,
                     const Eigen::Ref<const Eigen::VectorXd>& g1,
                     const Eigen::Ref<const Eigen::VectorXd>& g2);

// Eq. 5 for many reports of one pair: ||g1|| and ||g2|| are computed once, and since
// ||report|| scales both cosines alike, a guess costs two dot products. The pair must
// outlive the distinguisher.
class WhiteBoxDistinguisher {
 public:
  WhiteBoxDistinguisher(const Eigen::Ref<const Eigen::VectorXd>& g1,
                        const Eigen::Ref<const Eigen::VectorXd>& g2);
  bool guess(const Eigen::Ref<const Eigen::VectorXd>& report) const;

 private:
  Eigen::Ref<const Eigen::VectorXd> g1_, g2_;
  double g1_norm_, g2_norm_;
};

// Eq. 4 and Eq. 6 on the losses of x1 (and x2) before and after the server step.
bool loss_decrease_guess(double loss1_before, double loss1_after);
bool loss_change_guess(double loss1_before, double loss1_after, double loss2_before,
                       double loss2_after);

// Eq. 7 in the orientation of a descent step: the server moves theta against the
// reports, theta_{t+1} - theta_t = -eta g, so an update from the positive dummy
// gradient g1 has mostly negative coordinates. Matsumoto et al. 2022 prints sgn(theta_{t+1} -
// theta_t), which with Alg. 2's descent step would guess the wrong gradient; we count sgn(theta_t^i
// - theta_{t+1}^i) and guess g1 iff the sum is >= 0.
bool sign_sum_guess(const Eigen::Ref<const Eigen::VectorXd>& theta_before,
                    const Eigen::Ref<const Eigen::VectorXd>& theta_after);

}  // namespace dpaudit
