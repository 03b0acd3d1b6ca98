#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "io/trial_stream.hpp"

using namespace dpaudit;

namespace {

std::vector<StreamedTrial> read_all(const std::string& text) {
  std::istringstream in(text);
  TrialStream stream("-", in);
  std::vector<StreamedTrial> trials;
  StreamedTrial t;
  while (stream.next(t)) trials.push_back(t);
  return trials;
}

std::string error_of(const std::string& text) {
  try {
    read_all(text);
  } catch (const DataError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("trial stream: a score game's pairs, either label first") {
  const auto t = read_all("trial,label,score\n0,0,0.5\n0,1,2\n3,1,-1\n3,0,4.25\n");
  REQUIRE(t.size() == 2);
  CHECK(t[0].id == 0);
  CHECK(t[0].in == 2);
  CHECK(t[0].out == 0.5);
  CHECK(t[1].id == 3);
  CHECK(t[1].in == -1);
  CHECK(t[1].out == 4.25);
}

TEST_CASE("trial stream: a decision game, with or without trial ids") {
  const auto t = read_all("label,guess\n1,1\n0,1\n0,0\n");
  REQUIRE(t.size() == 3);
  CHECK(t[1].id == 1);
  CHECK(!t[1].label);
  CHECK(t[1].guess);
  const auto u = read_all("trial,label,guess\n5,1,0\n9,0,0\n");
  REQUIRE(u.size() == 2);
  CHECK(u[1].id == 9);
  CHECK(!u[0].guess);
}

TEST_CASE("trial stream: errors name the trial and the row") {
  CHECK(error_of("trial,label,score\n0,0,1\n0,0,2\n") ==
        "trial 0 has two rows with label 0 (stdin, row 3, column 'label')");
  CHECK(error_of("trial,label,score\n0,0,1\n0,1,2\n0,0,1\n0,1,2\n") ==
        "trial 0 comes after trial 0 (trial ids must increase: a repeated or reordered trial) "
        "(stdin, row 4, column 'trial')");
  CHECK(error_of("trial,label,score\n0,0,1\n1,1,2\n") ==
        "trial 0 has only its label-0 row before trial 1 (stdin, row 3, column 'trial')");
  CHECK(error_of("trial,label,score\n0,0,1\n0,1,2\n1,1,2\n") ==
        "trial 1 ends with its label-1 row: the row with label 0 is missing (stdin)");
  CHECK(error_of("trial,label,score\n0,0,1\n0,1,x\n") ==
        "'x' is not a finite number (stdin, row 3, column 'score')");
  CHECK(error_of("trial,label,score\n1.5,0,1\n1.5,1,2\n") ==
        "trial 1.5 is not a whole number >= 0 (stdin, row 2, column 'trial')");
  CHECK(error_of("label,score\n0,1\n") == "missing column 'trial' (header: label,score) (stdin)");
  CHECK(error_of("trial,label,guess\n7,0,1\n2,1,1\n") ==
        "trial 2 comes after trial 7 (trial ids must increase: a repeated or reordered trial) "
        "(stdin, row 3, column 'trial')");
}
