// What Nasr et al. 2021's input-crafting Crafters 2 and 3 share (adversaries/input_crafting):
// the box of the data's values, and the normalised step that stays in it.
#include <cmath>
#include <vector>

#include <doctest/doctest.h>

#include "adversaries/input_crafting.hpp"

using namespace dpaudit;
using namespace dpaudit;

TEST_CASE("the input box is the range of the data's values") {
  Dataset d;
  d.example_shape = {1, 1, 3};
  d.features = {0.25f, -1.5f, 0.5f, 2.0f, 0.0f, 1.0f};
  d.labels = {0, 1};
  const InputBox box = input_box(d);
  CHECK(box.lo == -1.5f);
  CHECK(box.hi == 2.0f);
}

TEST_CASE("a normalised step moves x by `step` along g in L2 norm, clamped to the box") {
  std::vector<float> x{0.5f, 0.5f};
  const std::vector<float> g{3, 4};  // ||g|| = 5: the step 0.5 moves by (0.3, 0.4)
  CHECK(normalised_step(x, g.data(), 0.5, {0, 1}));
  CHECK(x[0] == doctest::Approx(0.8));
  CHECK(x[1] == doctest::Approx(0.9));
  CHECK(normalised_step(x, g.data(), 0.5, {0, 1}));  // (1.1, 1.3) clamped to the box
  CHECK(x[0] == 1.0f);
  CHECK(x[1] == 1.0f);
  CHECK(normalised_step(x, g.data(), -5, {0, 1}));  // descent: (-2, -3) clamped
  CHECK(x == std::vector<float>{0, 0});
  const std::vector<float> zero{0, 0};
  CHECK(!normalised_step(x, zero.data(), 1, {0, 1}));  // no direction: x unchanged
  CHECK(x == std::vector<float>{0, 0});
}
