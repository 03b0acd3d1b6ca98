#include "accounting/analytic_epsilon.hpp"

#include "core/error.hpp"

namespace dpaudit {

AnalyticEpsilon analytic_epsilon(const std::vector<AccountingEvent>& events, double delta,
                                 const std::vector<double>& orders, int threads, double lattice) {
  AnalyticEpsilon out{};
  out.rdp = rdp_epsilon(events, delta, orders, threads);  // validates the events first
  out.headline = out.rdp.epsilon;
  out.headline_accountant = "rdp";
  try {
    PldOptions options;
    options.threads = threads;
    options.roundoff_delta = 1e-4 * delta;
    options.lattice = lattice;
    const PldAccountant pld(events, options);
    out.pld = pld.epsilon(delta);
    out.pld_lattice = pld.lattice_spacing();
  } catch (const DataError& e) {
    out.pld_note = std::string("no PLD: ") + e.what() + "; the bound is RDP's";
    return out;
  }
  if (out.pld->upper <= out.rdp.epsilon) {
    out.headline = out.pld->upper;
    out.headline_accountant = "pld";
  }
  return out;
}

AnalyticEpsilon analytic_epsilon(double sigma, double q, long long steps, double delta) {
  return analytic_epsilon({{sigma, q, steps}}, delta);
}

}  // namespace dpaudit
