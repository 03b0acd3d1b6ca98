// Numbers print in the shortest form that reads back to the same double (fmt's
// "{}"), so pipes lose no precision; infinity prints as "inf".
#pragma once
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace dpaudit {

inline std::string format_number(double x) {
  return fmt::format("{}", x);
}

// Text from the input as an error message shows it: beyond 80 characters cut (at a
// UTF-8 character boundary) with "...", so a 10 MB field gives a one-line error, not a
// 10 MB one; control characters (a NUL byte, which would end the message where it is
// printed as a C string, a newline, which would make it two lines) written \xNN.
// quote_input adds the single quotes.
inline std::string cut_input(std::string_view s) {
  constexpr std::size_t kMax = 80;
  std::size_t cut = s.size();
  if (s.size() > kMax) {
    cut = kMax - 3;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
      --cut;  // not inside a character
  }
  std::string out;
  for (const char c : s.substr(0, cut)) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F)
      out += fmt::format("\\x{:02x}", u);
    else
      out += c;
  }
  return cut < s.size() ? out + "..." : out;
}
inline std::string quote_input(std::string_view s) {
  return "'" + cut_input(s) + "'";
}

}  // namespace dpaudit
