#include "cli/gate.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/format.hpp"

namespace dpaudit::cli {

void check_budget(const std::optional<double>& budget, double value, const std::string& noun,
                  const std::string& qualifier, const std::string& where) {
  if (!budget || value <= *budget) return;
  if (std::isnan(value))  // never a silent pass: a NaN cannot be shown to be within the budget
    throw Refusal(fmt::format("{} is not a number, so it cannot be checked against the budget "
                              "--fail-above {}",
                              noun, format_number(*budget)),
                  where);
  throw Refusal(
      fmt::format("{} {}{} exceeds the budget --fail-above {}", noun, format_number(value),
                  qualifier.empty() ? "" : " (" + qualifier + ")", format_number(*budget)),
      where);
}

}  // namespace dpaudit::cli
