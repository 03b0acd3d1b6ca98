#include "accounting/mixture_epsilon.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "accounting/log_space.hpp"
#include "accounting/rdp.hpp"
#include "core/error.hpp"

namespace dpaudit {

namespace {

// log of the probability that the record is never drawn: sum_i micro_i steps_i log(1 - q_i).
double log_never_drawn(const std::vector<AccountingEvent>& events) {
  double s = 0;
  for (const AccountingEvent& e : events)
    s += static_cast<double>(e.micro) * static_cast<double>(e.steps) * std::log1p(-e.q);
  return s;
}

}  // namespace

AccountingEvent last_iterate_event(double sigma, double q, long long steps, long long micro) {
  if (steps < 1 || micro < 1 || micro > std::numeric_limits<long long>::max() / steps)
    throw UsageError("steps times micro-batches is beyond 2^63 - 1");
  return {sigma * std::sqrt(static_cast<double>(steps)), q, 1, Sampling::poisson, steps * micro};
}

MixtureEpsilon mixture_epsilon(const std::vector<AccountingEvent>& events, double delta,
                               int threads, double lattice) {
  check_delta(delta);
  MixtureEpsilon out;
  try {
    const PldAccountant pld(events, pld_options_at(delta, threads, lattice));
    out.pld = pld.epsilon(delta);
    out.pld_lattice = pld.lattice_spacing();
    out.epsilon = out.pld->upper;
    return out;
  } catch (const DataError& e) {
    out.note = std::string("no PLD: ") + e.what();
  }
  if (-std::expm1(log_never_drawn(events)) <= delta) {
    out.note += "; eps 0: the record is drawn in some step with probability at most delta";
    return out;
  }
  std::vector<AccountingEvent> gaussian;
  for (const AccountingEvent& e : events)
    gaussian.push_back({e.sigma / static_cast<double>(e.micro), 1, e.steps});
  out.epsilon = rdp_epsilon(gaussian, delta, default_rdp_orders(), threads).epsilon;
  out.note +=
      "; the bound is RDP's for the Gaussian mechanism at sensitivity micro, which dominates the "
      "mixture (loose)";
  return out;
}

}  // namespace dpaudit
