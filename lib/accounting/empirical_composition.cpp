#include "accounting/empirical_composition.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "accounting/rdp.hpp"
#include "core/error.hpp"

namespace dpaudit {

namespace {

// The options' ranges, and audits at strictly increasing rounds within the run.
void check_audits(const std::vector<AuditEpsilon>& audits, const EmpiricalCompositionOptions& o) {
  if (audits.empty()) throw UsageError("no audit estimates to compose");
  if (o.total_rounds < 1) throw UsageError("the run needs at least one round");
  if (!(o.q > 0 && o.q <= 1)) throw UsageError("the sampling rate q must lie in (0, 1]");
  if (!(o.floor > 0) || !std::isfinite(o.floor))
    throw UsageError("the eps floor must be a finite number > 0");
  if (!(o.round_delta > 0 && o.round_delta < 1))
    throw UsageError("the delta of eps_r must lie in (0, 1)");
  for (std::size_t j = 0; j < audits.size(); ++j) {
    const AuditEpsilon& a = audits[j];
    if (a.round < 0 || a.round >= o.total_rounds || (j > 0 && a.round <= audits[j - 1].round))
      throw UsageError("audit rounds must increase strictly within [0, " +
                       std::to_string(o.total_rounds) + "), got " + std::to_string(a.round));
    if (!(a.epsilon >= 0))
      throw UsageError("eps_r must be >= 0 (audit at round " + std::to_string(a.round) + ")");
    if (std::isinf(a.epsilon) && !(o.sigma_if_inf > 0))
      throw UsageError("an infinite eps_r needs the run's noise multiplier (audit at round " +
                       std::to_string(a.round) + ")");
  }
}

// GetNoise: one step of the Gaussian mechanism (q = 1) at (max(eps_r, floor), round_delta).
double audit_sigma(const AuditEpsilon& audit, const EmpiricalCompositionOptions& o) {
  const double eps = audit.epsilon;
  try {
    return std::isinf(eps) ? o.sigma_if_inf
                           : rdp_sigma_for_epsilon(std::max(eps, o.floor), 1.0, 1, o.round_delta);
  } catch (const UsageError& e) {  // an eps_r beyond what any noise in [1e-4, 1e6] has
    const std::string where = "audit at round " + std::to_string(audit.round);
    // Above ~4e7 (a data value such as 1e308): bad data, exit 1; a floor so small that no
    // noise up to 1e6 meets it (eps < 1e-12): the flag's fault.
    if (std::max(eps, o.floor) > 1)
      throw DataError(Pattern{literal(e.what()) + ": an eps_r that large reads as inf (write "
                                                  "inf, give {sigma_if_inf})"},
                      where);
    throw UsageError(std::string(e.what()), where);
  }
}

// The number of rounds [begin, end) that audit j stands for.
long long covered_rounds(const std::vector<AuditEpsilon>& audits, std::size_t j,
                         const EmpiricalCompositionOptions& o) {
  const std::size_t k = audits.size();
  long long begin, end;
  if (o.cover == AuditCover::backward) {
    begin = j == 0 ? 0 : audits[j - 1].round + 1;
    end = j + 1 == k ? o.total_rounds : audits[j].round + 1;
  } else {
    begin = j == 0 ? 0 : audits[j].round;
    end = j + 1 == k ? o.total_rounds : audits[j + 1].round;
  }
  return end - begin;
}

}  // namespace

EmpiricalComposition compose_empirical(const std::vector<AuditEpsilon>& audits,
                                       const EmpiricalCompositionOptions& o) {
  check_audits(audits, o);
  const std::size_t k = audits.size();
  EmpiricalComposition result;
  for (std::size_t j = 0; j < k; ++j) {
    result.sigma.push_back(audit_sigma(audits[j], o));
    result.covered.push_back(covered_rounds(audits, j, o));
  }
  std::vector<RdpEvent> events;
  for (std::size_t j = 0; j < k; ++j) {
    if (result.covered[j] > 0) events.push_back({result.sigma[j], o.q, result.covered[j]});
    result.running_eps.push_back(events.empty() ? 0.0 : rdp_epsilon(events, o.delta).epsilon);
  }
  result.epsilon = result.running_eps.back();
  return result;
}

}  // namespace dpaudit
