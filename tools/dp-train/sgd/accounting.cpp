#include "sgd/accounting.hpp"

#include <algorithm>
#include <cmath>

#include "accounting/analytic_gaussian.hpp"
#include "accounting/pld.hpp"
#include "accounting/rdp.hpp"

namespace dpaudit::dp_train {

SgdAccounting account_sgd_run(const SgdConfig& c) {
  SgdAccounting a;
  const auto steps = static_cast<long long>(c.steps);
  if (c.sampling == LotSampling::poisson) {
    a.noise_multiplier = c.eps > 0 ? pld_sigma_for_epsilon(c.eps, c.q, steps, c.delta) : c.noise_multiplier;
    const PldInterval pld = PldAccountant({{a.noise_multiplier, c.q, steps}}).epsilon(c.delta);
    a.pld_upper = pld.upper;
    a.pld_lower = pld.lower;
    a.rdp = rdp_epsilon({{a.noise_multiplier, c.q, steps}}, c.delta).epsilon;
    a.epsilon = std::min(a.pld_upper, a.rdp);
    a.accountant = a.pld_upper <= a.rdp ? "pld-poisson" : "rdp-poisson";
    a.assumes = "Poisson lots at rate q, add/remove-one adjacency (the worse), every step's update released";
  } else {
    const double epochs = std::ceil(static_cast<double>(c.steps) / static_cast<double>(c.epoch_steps()));
    a.noise_multiplier = c.eps > 0 ? gaussian_mechanism_sigma(c.eps, c.delta) * std::sqrt(epochs) : c.noise_multiplier;
    a.epsilon = gaussian_mechanism_epsilon(a.noise_multiplier / std::sqrt(epochs), c.delta);
    a.accountant = "gaussian-epochs";
    a.assumes = "shuffled lots: one participation per epoch, " + std::to_string(static_cast<long long>(epochs)) +
                " epochs composed exactly, no amplification by shuffling claimed";
  }
  return a;
}

}  // namespace dpaudit::dp_train
