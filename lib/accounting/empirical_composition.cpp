#include "accounting/empirical_composition.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
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
    if (std::isinf(a.epsilon) && o.rule == EmpiricalRule::one_step && !(o.sigma_if_inf > 0))
      throw UsageError("an infinite eps_r needs the run's noise multiplier (audit at round " +
                       std::to_string(a.round) + ")");
  }
}

// GetNoise: the noise at which `rounds` Gaussian steps at rate q meet (max(eps_r, floor),
// delta): one step at q = 1 and round_delta (one_step), or the audit's segment (segment).
double audit_sigma(const AuditEpsilon& audit, long long rounds,
                   const EmpiricalCompositionOptions& o) {
  const double eps = audit.epsilon;
  if (std::isinf(eps))
    return o.rule == EmpiricalRule::one_step ? o.sigma_if_inf
                                             : std::numeric_limits<double>::infinity();
  const bool segment = o.rule == EmpiricalRule::segment;
  try {
    return rdp_sigma_for_epsilon(std::max(eps, o.floor), segment ? o.q : 1.0, segment ? rounds : 1,
                                 segment ? o.delta : o.round_delta);
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

// segment: a skipped (infinite) audit's rounds join the next finite audit's, the rounds
// after the last finite audit that audit's; none finite: no audit covers any.
void join_skipped(const std::vector<AuditEpsilon>& audits, std::vector<long long>& covered) {
  long long pending = 0;
  std::size_t last_finite = audits.size();
  for (std::size_t j = 0; j < audits.size(); ++j) {
    pending += covered[j];
    covered[j] = 0;
    if (std::isinf(audits[j].epsilon)) continue;
    covered[j] = pending;
    pending = 0;
    last_finite = j;
  }
  if (last_finite < audits.size()) covered[last_finite] += pending;
}

}  // namespace

EmpiricalComposition compose_empirical(const std::vector<AuditEpsilon>& audits,
                                       const EmpiricalCompositionOptions& o) {
  check_audits(audits, o);
  const std::size_t k = audits.size();
  const bool segment = o.rule == EmpiricalRule::segment;
  const double inf = std::numeric_limits<double>::infinity();
  EmpiricalComposition result;
  for (std::size_t j = 0; j < k; ++j) result.covered.push_back(covered_rounds(audits, j, o));
  if (segment) join_skipped(audits, result.covered);
  for (std::size_t j = 0; j < k; ++j)
    result.sigma.push_back(audit_sigma(audits[j], result.covered[j], o));
  std::vector<RdpEvent> events;
  for (std::size_t j = 0; j < k; ++j) {
    if (result.covered[j] > 0) events.push_back({result.sigma[j], o.q, result.covered[j]});
    // segment: a skipped audit's rounds are not composed yet (inf), unless it is the last and
    // a finite audit took them.
    const bool skipped = segment && std::isinf(audits[j].epsilon);
    if (skipped && (j + 1 < k || events.empty()))
      result.running_eps.push_back(inf);
    else
      result.running_eps.push_back(events.empty() ? 0.0 : rdp_epsilon(events, o.delta).epsilon);
  }
  result.epsilon = result.running_eps.back();
  return result;
}

}  // namespace dpaudit
