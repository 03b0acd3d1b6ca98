// The gates of the tools: --fail-above (exit 3 when a printed epsilon exceeds the budget) and
// any other refusal with exit 3 (eps-from-scores --fail-on-refute). A refusal is one line,
// `TOOL: error: WHAT (WHERE)`, and nothing is written.
#pragma once
#include <optional>
#include <stdexcept>
#include <string>

namespace dpaudit::cli {

// A gate's refusal: exit 3 (cli/tool.hpp's run() and guarded()). Not a library error: the
// library has no budgets.
struct Refusal : std::runtime_error {
  explicit Refusal(const std::string& what, const std::string& where = "")
      : std::runtime_error(where.empty() ? what : what + " (" + where + ")") {}
};

// --fail-above: a Refusal "NOUN VALUE[ (QUALIFIER)] exceeds the budget --fail-above BUDGET
// (WHERE)" when value > budget; nothing without a budget. `qualifier` says what the value is
// when that is not a plain lower bound (e.g. "point estimate, assumes gaussian scores").
void check_budget(const std::optional<double>& budget, double value, const std::string& noun,
                  const std::string& qualifier = "", const std::string& where = "");

}  // namespace dpaudit::cli
