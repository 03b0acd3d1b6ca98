// Names of an enum's values on the command line (and in JSON): one table of {name, value}
// per enum serves both directions, the parser with its usage error and the printer.
#pragma once
#include <cstddef>
#include <string>

#include "core/error.hpp"
#include "core/format.hpp"

namespace dpaudit {

template <class E>
struct Named {
  const char* name;
  E value;
};

// The names of a table, "a, b or c".
template <class E, std::size_t N>
std::string name_list(const Named<E> (&table)[N]) {
  std::string out;
  for (std::size_t i = 0; i < N; ++i)
    out += (i == 0 ? "" : i + 1 == N ? " or " : ", ") + std::string(table[i].name);
  return out;
}

// The value named `name`, or nullptr.
template <class E, std::size_t N>
const E* find_named(const Named<E> (&table)[N], const std::string& name) {
  for (const auto& entry : table)
    if (name == entry.name) return &entry.value;
  return nullptr;
}

// The value named `name`; otherwise a UsageError "unknown WHAT 'NAME' (a, b or c)" at
// `where`, a pattern (core/error.hpp) that names the parameter, "{model}" (NAME cut as
// quote_input cuts it, so a long argument still gives a one-line error).
template <class E, std::size_t N>
E parse_named(const Named<E> (&table)[N], const std::string& name, const std::string& what,
              const std::string& where) {
  if (const E* value = find_named(table, name)) return *value;
  throw UsageError(
      Pattern{literal("unknown " + what + " " + quote_input(name) + " (" + name_list(table) + ")")},
      where);
}

// The first name of `value` (tables list every value).
template <class E, std::size_t N>
std::string name_of(const Named<E> (&table)[N], E value) {
  for (const auto& entry : table)
    if (entry.value == value) return entry.name;
  return "";
}

}  // namespace dpaudit
