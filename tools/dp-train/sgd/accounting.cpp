#include "sgd/accounting.hpp"

#include <cmath>

#include "accounting/analytic_epsilon.hpp"
#include "accounting/analytic_gaussian.hpp"
#include "accounting/pld.hpp"
#include "core/error.hpp"

namespace dpaudit::dp_train {

double sigma_for_eps(const std::function<double()>& calibrate) {
  try {
    return calibrate();
  } catch (const UsageError& e) {
    throw UsageError(e.what(), "--eps");
  }
}

SgdAccounting account_sgd_run(const SgdConfig& c) {
  SgdAccounting a;
  const auto steps = static_cast<long long>(c.steps);
  if (c.sampling == LotSampling::poisson) {
    a.noise_multiplier =
        c.eps > 0 ? sigma_for_eps([&] { return pld_sigma_for_epsilon(c.eps, c.q, steps, c.delta); })
                  : c.noise_multiplier;
    const AnalyticEpsilon e = analytic_epsilon(a.noise_multiplier, c.q, steps, c.delta);
    a.pld = e.pld;
    a.rdp = e.rdp.epsilon;
    a.epsilon = e.headline;
    a.accountant = std::string(e.headline_accountant) + "-poisson";
    a.assumes =
        "Poisson lots at rate q, add/remove-one adjacency (the worse), every step's update "
        "released";
  } else {
    const double epochs =
        std::ceil(static_cast<double>(c.steps) / static_cast<double>(c.epoch_steps()));
    a.noise_multiplier = c.eps > 0 ? sigma_for_eps([&] {
                                       return gaussian_mechanism_sigma(c.eps, c.delta);
                                     }) * std::sqrt(epochs)
                                   : c.noise_multiplier;
    a.epsilon = gaussian_composition_epsilon(a.noise_multiplier, epochs, c.delta);
    a.accountant = "gaussian-epochs";
    a.assumes = "shuffled lots: one participation per epoch, " +
                std::to_string(static_cast<long long>(epochs)) +
                " epochs composed exactly, no amplification by shuffling claimed";
  }
  return a;
}

}  // namespace dpaudit::dp_train
