// core/names.hpp: one {name, value} table per enum, read both ways; an unknown name is a
// usage error (exit 2) that names the option and lists the valid names.
#include <doctest/doctest.h>

#include <string>

#include "core/names.hpp"

using namespace dpaudit;

namespace {

enum class Colour { red, green, blue };
constexpr Named<Colour> kColours[] = {
    {"red", Colour::red}, {"green", Colour::green}, {"blue", Colour::blue}};
// Two names of one value (as NPY's f8 and float64): the first is the one printed.
constexpr Named<Colour> kAliases[] = {{"red", Colour::red}, {"crimson", Colour::red}};

std::string parse_error(const std::string& name) {
  try {
    parse_named(kColours, name, "colour", "--colour");
  } catch (const UsageError& e) {
    CHECK(e.kind() == ErrorKind::usage);
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("names: every entry parses to its value and prints back") {
  for (const auto& entry : kColours) {
    CHECK(parse_named(kColours, entry.name, "colour", "--colour") == entry.value);
    CHECK(name_of(kColours, entry.value) == entry.name);
  }
  CHECK(parse_named(kAliases, "crimson", "colour", "--colour") == Colour::red);
  CHECK(name_of(kAliases, Colour::red) == "red");
  CHECK(name_of(kAliases, Colour::blue) == "");  // not in the table
  CHECK(find_named(kColours, "green") == &kColours[1].value);
  CHECK(find_named(kColours, "Green") == nullptr);  // names are case-sensitive
}

TEST_CASE("names: the list reads 'a, b or c'") {
  CHECK(name_list(kColours) == "red, green or blue");
  CHECK(name_list(kAliases) == "red or crimson");
  constexpr Named<Colour> one[] = {{"red", Colour::red}};
  CHECK(name_list(one) == "red");
}

TEST_CASE("names: an unknown name is a usage error naming the option and the valid names") {
  CHECK(parse_error("purple") == "unknown colour 'purple' (red, green or blue) (--colour)");
  CHECK(parse_error("") == "unknown colour '' (red, green or blue) (--colour)");
  // A long argument is cut as quote_input cuts it: 77 characters and "...".
  CHECK(parse_error(std::string(1000, 'x')) ==
        "unknown colour '" + std::string(77, 'x') + "...' (red, green or blue) (--colour)");
}
