// Numbers print in the shortest form that reads back to the same double (fmt's
// "{}"), so pipes lose no precision; infinity prints as "inf".
#pragma once
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace dpaudit {

inline std::string format_number(double x) { return fmt::format("{}", x); }

// Text from the input as an error message shows it: beyond 80 characters cut (at a
// UTF-8 character boundary) with "...", so a 10 MB field gives a one-line error, not a
// 10 MB one. quote_input adds the single quotes.
inline std::string cut_input(std::string_view s) {
  constexpr std::size_t kMax = 80;
  if (s.size() <= kMax) return std::string(s);
  std::size_t cut = kMax - 3;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
  return std::string(s.substr(0, cut)) + "...";
}
inline std::string quote_input(std::string_view s) { return "'" + cut_input(s) + "'"; }

}  // namespace dpaudit
