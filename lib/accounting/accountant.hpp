// The accountants a run's eps can come from, and their names (lib/accounting/run_accountant.hpp
// says what each one is and which is the default).
#pragma once
#include <optional>
#include <string>

#include "core/names.hpp"

namespace dpaudit {

enum class Accountant { pld, rdp, gdp, gaussian };

// The names on the command line and in JSON.
inline constexpr Named<Accountant> kAccountantNames[] = {{"pld", Accountant::pld},
                                                         {"rdp", Accountant::rdp},
                                                         {"gdp", Accountant::gdp},
                                                         {"gaussian", Accountant::gaussian}};

// "pld", "rdp", "gdp", "gaussian".
inline std::string accountant_name(Accountant accountant) {
  return name_of(kAccountantNames, accountant);
}

// The accountant of that name, or nullopt.
inline std::optional<Accountant> find_accountant(const std::string& name) {
  const Accountant* a = find_named(kAccountantNames, name);
  return a ? std::optional<Accountant>(*a) : std::nullopt;
}

}  // namespace dpaudit
