#include "accounting/accounting_csv.hpp"

#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dpaudit {

std::vector<AccountingEvent> read_accounting_events(CsvReader& csv, Sampling sampling) {
  const std::size_t sigma_col = csv.column("sigma"), q_col = csv.column("q"),
                    steps_col = csv.column("steps");
  std::vector<AccountingEvent> events;
  long long total_steps = 0;  // its sum must not overflow (rdp-compose --json reports it)
  while (csv.next()) {
    const double sigma = csv.number(sigma_col), q = csv.number(q_col),
                 steps = csv.number(steps_col);
    if (!(sigma > 0))
      throw DataError(fmt::format("sigma must be > 0, got {}", sigma), csv.where(sigma_col));
    if (!(q > 0 && q <= 1))
      throw DataError(fmt::format("q must be in (0,1], got {}", q), csv.where(q_col));
    if (!is_whole_number(steps, 1))
      throw DataError(fmt::format("steps must be a whole number in [1, 2^53], got {}", steps),
                      csv.where(steps_col));
    if (steps > static_cast<double>(std::numeric_limits<long long>::max() - total_steps))
      throw DataError("the steps of all rows add up beyond 2^63 - 1", csv.where(steps_col));
    total_steps += static_cast<long long>(steps);
    events.push_back({sigma, q, static_cast<long long>(steps), sampling});
  }
  if (events.empty()) throw DataError("no events: the CSV has a header but no rows", csv.source());
  return events;
}

std::vector<AuditEpsilon> read_audit_epsilons(CsvReader& csv, long long total_rounds) {
  const std::size_t round_col = csv.column("round"), eps_col = csv.column("epsilon");
  std::vector<AuditEpsilon> audits;
  while (csv.next()) {
    const double round = csv.number(round_col);
    if (!(is_whole_number(round) && round < static_cast<double>(total_rounds)))
      throw DataError(
          Pattern{fmt::format("round must be a whole number in [0, {}) ({{rounds}}), got {}",
                              total_rounds, round)},
          literal(csv.where(round_col)));
    if (!audits.empty() && static_cast<long long>(round) <= audits.back().round)
      throw DataError(
          fmt::format("rounds must increase, got {} after {}", round, audits.back().round),
          csv.where(round_col));
    const double e =
        csv.field(eps_col) == "inf" ? std::numeric_limits<double>::infinity() : csv.number(eps_col);
    if (!(e >= 0))
      throw DataError(fmt::format("epsilon must be >= 0, got {}", e), csv.where(eps_col));
    audits.push_back({static_cast<long long>(round), e});
  }
  if (audits.empty()) throw DataError("no audits: the CSV has a header but no rows", csv.source());
  return audits;
}

}  // namespace dpaudit
