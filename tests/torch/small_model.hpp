// Shared by the LibTorch tests of dp-train's DP-SGD: the model configuration they test
// on, the synthetic task's 8 x 8 images with 10 classes and 16 hidden units.
#pragma once

#include "train/torch/models.hpp"

namespace dpaudit::test {

inline ModelConfig small_model(ModelKind kind) {
  ModelConfig c;
  c.kind = kind;
  c.input_shape = {1, 8, 8};
  c.classes = 10;
  c.hidden = 16;
  return c;
}

}  // namespace dpaudit::test
