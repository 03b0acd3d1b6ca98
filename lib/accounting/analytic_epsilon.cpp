#include "accounting/analytic_epsilon.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace dpaudit {

AnalyticEpsilon analytic_epsilon(const std::vector<AccountingEvent>& events, double delta,
                                 const std::vector<double>& orders, int threads, double lattice) {
  AnalyticEpsilon out{};
  out.rdp = rdp_epsilon(events, delta, orders, threads);  // validates the events first
  out.headline = out.rdp.epsilon;
  out.headline_accountant = Accountant::rdp;
  try {
    const PldOptions options = pld_options_at(delta, threads, lattice);
    const PldAccountant pld(events, options);
    out.pld = pld.epsilon(delta);
    out.pld_lattice = pld.lattice_spacing();
    if (pld.merged_from() > 0)
      out.pld_note = fmt::format(
          "the PLD merged the {} distinct (sigma, q) into about {} groups of neighbours, each at "
          "its "
          "smallest sigma and largest q for the upper end (the other way for the lower): a "
          "wider interval, still sound",
          pld.merged_from(), options.max_segments);
  } catch (const DataError& e) {
    out.pld_note = std::string("no PLD: ") + e.what() + "; the bound is RDP's";
    return out;
  }
  if (out.pld->upper <= out.rdp.epsilon) {
    out.headline = out.pld->upper;
    out.headline_accountant = Accountant::pld;
  }
  return out;
}

}  // namespace dpaudit
