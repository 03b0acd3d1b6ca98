// What Nasr et al. 2021's input-crafting adversaries, Crafter 2 (input-space poison,
// Sec. IV-B) and Crafter 3 (adaptive poison, Sec. IV-D), share. Choices where the paper
// is silent: each step moves x by `lr` in L2 norm along the gradient (normalised steps,
// so that lr does not depend on the loss's scale), and x stays in the box [lo, hi] of the
// data's values (Fashion-MNIST: pixels in [0, 1]): the poison is a valid input.
#pragma once
#include <vector>

#include "data/datasets.hpp"

namespace dpaudit {

// The range of the values of `data`'s inputs, the box every crafted input stays in.
struct InputBox {
  float lo = 0, hi = 1;
};
InputBox input_box(const Dataset& data);

// x <- clamp(x + step g / ||g||, lo, hi) for g of x.size() floats; false (x unchanged)
// when g = 0.
bool normalised_step(std::vector<float>& x, const float* g, double step, InputBox box);

// Crafter 3's step on the poison: descent on the query's loss after the virtual step
// (what the text says it is for), or the ascent Crafter 3 prints.
enum class CraftSign { descent, printed };

}  // namespace dpaudit
