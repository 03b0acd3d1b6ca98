// Nasr et al. 2021's loss-based Distinguishers 1 and 2 (adversaries/loss_distinguisher):
// minus the final loss, and minus the max or mean of the losses over the intermediate
// models, a NaN loss kept (a diverged run must not look like a low-loss one).
#include <cmath>
#include <initializer_list>
#include <limits>

#include <doctest/doctest.h>

#include "adversaries/loss_distinguisher.hpp"

using namespace dpaudit;

TEST_CASE("D1 scores minus the final model's loss") {
  CHECK(final_loss_score(2.5) == -2.5);
  CHECK(final_loss_score(0) == 0);
}

TEST_CASE("D2 scores minus the max or the mean of the intermediate losses") {
  IntermediateLossScore d2;
  for (double loss : {0.5, 2.0, 1.0, 0.5}) d2.add(loss);
  CHECK(d2.score(LossReduce::max) == -2.0);
  CHECK(d2.score(LossReduce::mean) == -1.0);  // (0.5 + 2 + 1 + 0.5) / 4
}

TEST_CASE("D2 keeps a NaN loss in its max, wherever it comes") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  IntermediateLossScore first, middle;
  first.add(nan);
  first.add(3);
  middle.add(1);
  middle.add(nan);
  middle.add(5);
  CHECK(std::isnan(first.score(LossReduce::max)));
  CHECK(std::isnan(middle.score(LossReduce::max)));
  CHECK(std::isnan(middle.score(LossReduce::mean)));
}
