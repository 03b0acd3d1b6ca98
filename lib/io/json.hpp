// JSON output (nlohmann::json) with the project's number conventions.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace dpaudit {

using Json = nlohmann::json;

// JSON has no infinity: +-inf becomes the string "inf"/"-inf" (inf is a legitimate
// epsilon), finite values stay numbers.
inline Json json_number(double x) {
  if (x == std::numeric_limits<double>::infinity()) return "inf";
  if (x == -std::numeric_limits<double>::infinity()) return "-inf";
  return x;
}

// One line of JSON, as every --json prints it.
inline std::string json_line(const Json& j) {
  return j.dump() + "\n";
}

}  // namespace dpaudit
