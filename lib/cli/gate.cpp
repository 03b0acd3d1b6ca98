#include "cli/gate.hpp"

#include <fmt/format.h>

#include "core/format.hpp"

namespace dpaudit::cli {

void check_budget(const std::optional<double>& budget, double value, const std::string& noun,
                  const std::string& qualifier, const std::string& where) {
  if (!budget || !(value > *budget)) return;
  throw Refusal(
      fmt::format("{} {}{} exceeds the budget --fail-above {}", noun, format_number(value),
                  qualifier.empty() ? "" : " (" + qualifier + ")", format_number(*budget)),
      where);
}

}  // namespace dpaudit::cli
