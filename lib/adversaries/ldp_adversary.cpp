#include "adversaries/ldp_adversary.hpp"

#include <cmath>
#include <vector>

#include "core/names.hpp"

namespace dpaudit {

namespace {

constexpr Named<LdpCrafter> kCrafters[] = {
    {"benign", LdpCrafter::benign},
    {"input-perturbation", LdpCrafter::input_perturbation},
    {"parameter-retrogression", LdpCrafter::parameter_retrogression},
    {"gradient-flip", LdpCrafter::gradient_flip},
    {"collusion", LdpCrafter::collusion},
    {"dummy-gradient", LdpCrafter::dummy_gradient}};
constexpr Named<LdpDistinguisher> kDistinguishers[] = {{"white-box", LdpDistinguisher::white_box},
                                                       {"black-box", LdpDistinguisher::black_box}};

}  // namespace

std::string to_string(LdpCrafter crafter) {
  return name_of(kCrafters, crafter);
}

LdpCrafter parse_ldp_crafter(const std::string& name) {
  return parse_named(kCrafters, name, "crafter", "{crafter}");
}

std::string to_string(LdpDistinguisher distinguisher) {
  return name_of(kDistinguishers, distinguisher);
}

LdpDistinguisher parse_ldp_distinguisher(const std::string& name) {
  return parse_named(kDistinguishers, name, "distinguisher", "{distinguisher}");
}

BlackBoxRule black_box_rule(LdpCrafter crafter) {
  switch (crafter) {
    case LdpCrafter::benign:
      return BlackBoxRule::loss_change;
    case LdpCrafter::dummy_gradient:
      return BlackBoxRule::sign_sum;
    default:
      return BlackBoxRule::loss_decrease;
  }
}

WhiteBoxDistinguisher::WhiteBoxDistinguisher(const Eigen::Ref<const Eigen::VectorXd>& g1,
                                             const Eigen::Ref<const Eigen::VectorXd>& g2)
    : g1_(g1), g2_(g2), g1_norm_(g1.norm()), g2_norm_(g2.norm()) {}

bool WhiteBoxDistinguisher::guess(const Eigen::Ref<const Eigen::VectorXd>& report) const {
  // cos(r, g) ||r|| = <r, g> / ||g||, or 0 for g = 0.
  const double scaled_cos1 = g1_norm_ > 0 ? report.dot(g1_) / g1_norm_ : 0.0;
  const double scaled_cos2 = g2_norm_ > 0 ? report.dot(g2_) / g2_norm_ : 0.0;
  return scaled_cos1 >= scaled_cos2;
}

bool white_box_guess(const Eigen::Ref<const Eigen::VectorXd>& report,
                     const Eigen::Ref<const Eigen::VectorXd>& g1,
                     const Eigen::Ref<const Eigen::VectorXd>& g2) {
  return WhiteBoxDistinguisher(g1, g2).guess(report);
}

bool loss_decrease_guess(double loss1_before, double loss1_after) {
  return loss1_after <= loss1_before;
}

bool loss_change_guess(double loss1_before, double loss1_after, double loss2_before,
                       double loss2_after) {
  return std::abs(loss1_after - loss1_before) >= std::abs(loss2_after - loss2_before);
}

bool sign_sum_guess(const Eigen::Ref<const Eigen::VectorXd>& theta_before,
                    const Eigen::Ref<const Eigen::VectorXd>& theta_after) {
  const Eigen::ArrayXd step = (theta_before - theta_after).array();
  const auto positive = (step > 0).count();
  const auto negative = (step < 0).count();
  return positive >= negative;
}

}  // namespace dpaudit
