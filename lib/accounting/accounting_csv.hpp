// The accountants' inputs as CSV (columns found by name, lib/io/csv.hpp): the segments of
// a run, `sigma,q,steps` one row a segment (lib/accounting/event.hpp), and per-round
// empirical epsilons, `round,epsilon` one row an audit (lib/accounting/
// empirical_composition.hpp; eps-from-scores --per round writes them). Here rather than in
// io/, which knows no accounting type (lib/CMakeLists.txt), as read_tradeoff_curve.
#pragma once
#include <string>
#include <vector>

#include "accounting/empirical_composition.hpp"
#include "accounting/event.hpp"
#include "io/csv.hpp"

namespace dpaudit {

// The segments, each drawn by `sampling`. DataError naming the row and column for sigma
// <= 0, q outside (0,1], steps not a whole number in [1, 2^53], steps adding up beyond
// 2^63 - 1, and no rows.
std::vector<AccountingEvent> read_accounting_events(CsvReader& csv, Sampling sampling);

// The audits, eps "inf" allowed. DataError naming the row and column for a round that is
// not a whole number in [0, total_rounds) (the message names the bound {rounds}) or not
// above the previous one, eps below 0, and no rows.
std::vector<AuditEpsilon> read_audit_epsilons(CsvReader& csv, long long total_rounds);

}  // namespace dpaudit
