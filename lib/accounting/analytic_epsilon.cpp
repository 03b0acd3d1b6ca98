#include "accounting/analytic_epsilon.hpp"

#include "core/error.hpp"

namespace dpaudit {

AnalyticEpsilon analytic_epsilon(const std::vector<AccountingEvent>& events, double delta,
                                 const std::vector<double>& orders, int threads) {
  AnalyticEpsilon out{};
  out.rdp = rdp_epsilon(events, delta, orders, threads);  // validates the events first
  out.headline = out.rdp.epsilon;
  out.headline_accountant = "rdp";
  bool poisson = true;
  for (const AccountingEvent& e : events) poisson = poisson && (e.sampling == Sampling::poisson || e.q == 1);
  if (!poisson) {
    out.pld_note = "no PLD accountant for sampling without replacement; the bound is RDP's";
    return out;
  }
  std::vector<AccountingEvent> as_poisson = events;  // q = 1 is the Gaussian mechanism either way
  for (AccountingEvent& e : as_poisson) e.sampling = Sampling::poisson;
  try {
    PldOptions options;
    options.threads = threads;
    out.pld = PldAccountant(as_poisson, options).epsilon(delta);
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
