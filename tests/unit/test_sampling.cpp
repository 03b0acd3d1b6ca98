// The one Sampling of the library: its names on the command line and in JSON.
#include <doctest/doctest.h>

#include "core/sampling.hpp"

using namespace dpaudit;

TEST_CASE("each sampling has one name, and each name one sampling") {
  CHECK(sampling_name(Sampling::poisson) == "poisson");
  CHECK(sampling_name(Sampling::without_replacement) == "without-replacement");
  CHECK(sampling_name(Sampling::shuffle) == "shuffle");
  for (Sampling s : {Sampling::poisson, Sampling::without_replacement, Sampling::shuffle})
    CHECK(find_sampling(sampling_name(s)) == s);
  CHECK_FALSE(find_sampling("uniform"));
  CHECK_FALSE(find_sampling("Poisson"));
}
