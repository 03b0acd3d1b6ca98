// The analytic epsilon of a run, from every sound accountant at once, and the number to
// report: the smallest sound upper bound among them, named. The PLD interval contains
// the true eps of the mechanism (lib/accounting/pld.hpp); RDP is a looser bound that is
// cheap and always available (lib/accounting/rdp.hpp). The PLD's upper end is the
// tighter one except where its lattice had to be coarsened (huge runs), so the headline
// is min(PLD upper, RDP). GDP's CLT is an approximation, not a bound, and is not a
// candidate (lib/accounting/gdp.hpp).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "accounting/accountant.hpp"
#include "accounting/event.hpp"
#include "accounting/pld.hpp"
#include "accounting/rdp.hpp"

namespace dpaudit {

struct AnalyticEpsilon {
  // Absent where the PLD is beyond double's reach (sigma ~1e-100); pld_note says why. With
  // a PLD, pld_note says when its segments were merged (PldAccountant::merge_ratio).
  std::optional<PldInterval> pld;
  std::string pld_note;
  double pld_lattice = 0;  // the PLD's lattice spacing (PldAccountant::lattice_spacing)
  RdpResult rdp;
  double headline;                 // min(pld->upper, rdp.epsilon)
  Accountant headline_accountant;  // pld or rdp
};

// Throws UsageError for invalid events, delta or orders (as rdp_epsilon) or lattice (as
// PldOptions). `threads` as rdp_epsilon's and PldOptions' (0 = all cores; the result does not
// depend on it); `lattice` as PldOptions' (0 = chosen from the events).
AnalyticEpsilon analytic_epsilon(const std::vector<AccountingEvent>& events, double delta,
                                 const std::vector<double>& orders = default_rdp_orders(),
                                 int threads = 1, double lattice = 0);

}  // namespace dpaudit
