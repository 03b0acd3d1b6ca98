// The accountants' CSV inputs: segments (sigma,q,steps) and per-round epsilons
// (round,epsilon), read from a stream as rdp-compose reads stdin.
#include <doctest/doctest.h>

#include <functional>
#include <limits>
#include <sstream>
#include <string>

#include "accounting/accounting_csv.hpp"
#include "core/error.hpp"

using namespace dpaudit;

namespace {

std::vector<AccountingEvent> events(const std::string& text,
                                    Sampling sampling = Sampling::poisson) {
  std::istringstream in(text);
  CsvReader csv("-", in);
  return read_accounting_events(csv, sampling);
}

std::vector<AuditEpsilon> audits(const std::string& text, long long rounds) {
  std::istringstream in(text);
  CsvReader csv("-", in);
  return read_audit_epsilons(csv, rounds);
}

std::string error_of(const std::function<void()>& read) {
  try {
    read();
  } catch (const DataError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("segments: columns by name, each row a segment with the given sampling") {
  const auto e = events("steps,q,sigma\n10,0.5,2\n\n5,1,4\n", Sampling::without_replacement);
  REQUIRE(e.size() == 2);
  CHECK(e[0].sigma == 2);
  CHECK(e[0].q == 0.5);
  CHECK(e[0].steps == 10);
  CHECK(e[1].steps == 5);
  CHECK(e[1].sampling == Sampling::without_replacement);
  CHECK(events("sigma,q,steps\n1,1,9007199254740992\n")[0].steps == 9007199254740992LL);
}

TEST_CASE("segments: bad values name the row and column") {
  CHECK(error_of([] { events("sigma,q,steps\n0,0.1,10\n"); }) ==
        "sigma must be > 0, got 0 (stdin, row 2, column 'sigma')");
  CHECK(error_of([] { events("sigma,q,steps\n1,1.5,10\n"); }) ==
        "q must be in (0,1], got 1.5 (stdin, row 2, column 'q')");
  CHECK(error_of([] { events("sigma,q,steps\n1,0.1,2.5\n"); }) ==
        "steps must be a whole number in [1, 2^53], got 2.5 (stdin, row 2, column 'steps')");
  CHECK(error_of([] { events("sigma,q,steps\n1,0.1,5e18\n"); }).find("[1, 2^53]") !=
        std::string::npos);
  std::string huge = "sigma,q,steps\n";
  for (int i = 0; i < 1025; ++i) huge += "1,1,9007199254740992\n";
  CHECK(error_of([&] { events(huge); }) ==
        "the steps of all rows add up beyond 2^63 - 1 (stdin, row 1025, column 'steps')");
  CHECK(error_of([] { events("sigma,q,steps\n"); }) ==
        "no events: the CSV has a header but no rows (stdin)");
  CHECK(error_of([] { events("sigma,steps\n1,10\n"); }).find("missing column 'q'") !=
        std::string::npos);
}

TEST_CASE("audits: increasing rounds below the run's, eps inf allowed") {
  const auto a = audits("round,epsilon\n0,1.5\n3,inf\n", 10);
  REQUIRE(a.size() == 2);
  CHECK(a[0].round == 0);
  CHECK(a[0].epsilon == 1.5);
  CHECK(a[1].round == 3);
  CHECK(a[1].epsilon == std::numeric_limits<double>::infinity());
  CHECK(error_of([] { audits("round,epsilon\n10,1\n", 10); }) ==
        "round must be a whole number in [0, 10) (rounds), got 10 (stdin, row 2, column "
        "'round')");
  try {  // the bound is named as a parameter, which a tool renders as its flag
    audits("round,epsilon\n12,1\n", 10);
    FAIL("no error");
  } catch (const DataError& e) {
    CHECK(render_parameters(e.pattern(), [](const std::string& name) { return "--" + name; }) ==
          "round must be a whole number in [0, 10) (--rounds), got 12 (stdin, row 2, column "
          "'round')");
  }
  CHECK(error_of([] { audits("round,epsilon\n3,1\n3,1\n", 10); }) ==
        "rounds must increase, got 3 after 3 (stdin, row 3, column 'round')");
  CHECK(error_of([] { audits("round,epsilon\n1,-1\n", 10); }) ==
        "epsilon must be >= 0, got -1 (stdin, row 2, column 'epsilon')");
  CHECK(error_of([] { audits("round,epsilon\n", 10); }) ==
        "no audits: the CSV has a header but no rows (stdin)");
}
