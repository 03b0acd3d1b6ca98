// dp-train canife --level user: the canary client trains like any of fedavg's clients
// (train/torch/fedavg_client.hpp) on the crafted example alone. With one local epoch that is one
// SGD step, so its update is -lr g with g the gradient Alg. 1 crafted (Maddock et al. 2023
// Sec. 3.3; their code replaces the client's data by the canary): the direction the audit scores on
// is the one the crafter made orthogonal to the other clients'. Checked here across the two code
// paths (fedavg's Dense layers and the crafter's differentiable forward pass), unclipped and
// clipped.
#include <cmath>
#include <limits>
#include <vector>

#include "adversaries/torch/canife_crafter.hpp"
#include "data/datasets.hpp"
#include "random/philox_stream.hpp"
#include "train/torch/fedavg_client.hpp"
#include "train/torch/models.hpp"

// LibTorch's headers define a CHECK macro of their own (c10 logging); doctest's comes last.
#undef CHECK
#include <doctest/doctest.h>

using namespace dpaudit;
using namespace dpaudit;

namespace {

struct Setup {
  torch::nn::Sequential model;
  torch::Tensor global;
  std::vector<float> theta;
  Dataset canary;
};

Setup setup() {
  ModelConfig mc;
  mc.kind = ModelKind::mlp;
  mc.input_shape = {1, 8, 8};
  mc.hidden = 16;
  Setup s{make_model(mc, 5), {}, {}, {}};
  s.global = flatten_parameters(*s.model);
  s.theta.assign(s.global.data_ptr<float>(), s.global.data_ptr<float>() + s.global.numel());
  s.canary.example_shape = {1, 8, 8};
  s.canary.num_classes = 10;
  PhiloxStream rng(3, 1);
  for (int i = 0; i < 64; ++i) s.canary.features.push_back(static_cast<float>(2 * rng.normal()));
  s.canary.labels = {6};
  return s;
}

}  // namespace

TEST_CASE(
    "the canary client's update is one SGD step on the crafted example: -lr g, clipped to C") {
  Setup s = setup();
  const std::vector<float> pool;
  const std::vector<float> g =
      CanaryCrafter({64, 16, 10}, s.theta, pool, 0).gradient(s.canary.features, 6);
  double g_norm = 0;
  for (float v : g) g_norm += double(v) * v;
  g_norm = std::sqrt(g_norm);
  REQUIRE(g_norm > 0.1);
  const ClientIndices holder(1, std::vector<std::size_t>{0});
  ClientTrainer trainer(s.model, s.canary, holder, {1, 16, 0.1}, 1);
  // Unclipped: update = -0.1 g, and its norm before clipping 0.1 ||g||.
  ClientUpdate u =
      trainer.train(s.global, std::numeric_limits<double>::infinity(), holder[0], 0, 1, 0)[0];
  CHECK(u.norm == doctest::Approx(0.1 * g_norm).epsilon(1e-5));
  double max_diff = 0;
  for (std::size_t j = 0; j < g.size(); ++j)
    max_diff = std::max(max_diff, std::fabs(u.update[j] + 0.1 * g[j]));
  CHECK(max_diff <= 1e-6 * g_norm);
  // Clipped to C = 0.01 (below 0.1 ||g||): update = -C g / ||g||, the score's unit vector times C.
  u = trainer.train(s.global, 0.01, holder[0], 0, 1, 0)[0];
  max_diff = 0;
  for (std::size_t j = 0; j < g.size(); ++j)
    max_diff = std::max(max_diff, std::fabs(u.update[j] + 0.01 * g[j] / g_norm));
  CHECK(max_diff <= 1e-7);
}
