#include "sgd/accounting.hpp"

#include <cmath>
#include <limits>

#include "accounting/run_accountant.hpp"
#include "calibration.hpp"

namespace dpaudit::dp_train {

SgdAccounting account_sgd_run(const SgdConfig& c) {
  RunModel m;
  m.sampling = c.sampling;
  m.noise_multiplier = c.noise_multiplier;
  m.q = c.q;
  m.steps = static_cast<long long>(c.steps);
  m.participations = static_cast<long long>(
      std::ceil(static_cast<double>(c.steps) / static_cast<double>(c.epoch_steps())));
  SgdAccounting a;
  a.noise_multiplier = c.eps > 0
                           ? sigma_for_eps([&] { return run_noise_multiplier(m, c.eps, c.delta); })
                           : c.noise_multiplier;
  m.noise_multiplier = a.noise_multiplier;
  const RunEpsilon e = run_epsilon(m, c.delta);
  a.epsilon = e.epsilon;
  a.accountant = e.label();
  a.assumes = e.assumes;
  a.pld = e.pld;
  a.rdp = e.rdp ? e.rdp->epsilon : std::numeric_limits<double>::infinity();
  if (reads_final_model(c.threat)) a.last_iterate = last_iterate_heuristic(m, c.delta);
  return a;
}

}  // namespace dpaudit::dp_train
