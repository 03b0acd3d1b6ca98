// DP-SGD's per-example gradients: the one-pass path (train/dense_per_example) against
// plain LibTorch, one backward per example (models.hpp), and the DP-SGD step built on it.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "data/datasets.hpp"
#include "random/philox_stream.hpp"
#include "small_model.hpp"
#include "train/torch/dp_sgd.hpp"
#include "train/torch/models.hpp"
#include "train/torch/per_example_model.hpp"

// LibTorch's headers define a CHECK macro of their own (c10 logging); doctest's comes last.
#undef CHECK
#include <doctest/doctest.h>

using namespace dpaudit;
using namespace dpaudit;

namespace {

struct Lot {
  std::vector<float> x;
  std::vector<std::int64_t> y;
};

Lot lot(std::size_t count) {
  Lot l;
  PhiloxStream rng(5, 0);
  for (std::size_t i = 0; i < count * 64; ++i) l.x.push_back(static_cast<float>(3 * rng.normal()));
  for (std::size_t i = 0; i < count; ++i) l.y.push_back(static_cast<std::int64_t>(i % 10));
  return l;
}

double max_abs_difference(const std::vector<float>& a, const std::vector<float>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(double(a[i]) - b[i]));
  return m;
}

double max_abs(const std::vector<float>& a) {
  double m = 0;
  for (float v : a) m = std::max(m, std::fabs(double(v)));
  return m;
}

}  // namespace

TEST_CASE("the one-pass clipped sum equals LibTorch's per-example gradients, clipped and summed") {
  for (ModelKind kind : {ModelKind::logreg, ModelKind::mlp}) {
    std::vector<float> theta;
    auto fast = PerExampleModel::make(test::small_model(kind), 3, theta);
    auto reference = PerExampleModel::make_reference(test::small_model(kind), 3);
    REQUIRE(fast->parameter_count() == theta.size());
    REQUIRE(reference->parameter_count() == theta.size());
    const Lot l = lot(9);
    // clip = inf: the plain sum; clip = 0.5: the inputs' scale 3 makes most gradients longer.
    for (double clip : {std::numeric_limits<double>::infinity(), 0.5}) {
      std::vector<float> a(theta.size(), 0.0f), b(theta.size(), 0.0f);
      fast->add_clipped_sum(theta.data(), l.x.data(), l.y.data(), 9, clip, a.data());
      reference->add_clipped_sum(theta.data(), l.x.data(), l.y.data(), 9, clip, b.data());
      CHECK(max_abs(b) > 0.1);
      CHECK(max_abs_difference(a, b) <= 2e-5 * max_abs(b));
    }
    std::vector<double> fl(9), rl(9);
    const std::size_t fc = fast->losses(theta.data(), l.x.data(), l.y.data(), 9, fl.data());
    const std::size_t rc = reference->losses(theta.data(), l.x.data(), l.y.data(), 9, rl.data());
    CHECK(fc == rc);
    for (std::size_t i = 0; i < 9; ++i) CHECK(fl[i] == doctest::Approx(rl[i]).epsilon(1e-5));
  }
}

TEST_CASE("a clipped sum of identical examples has norm count * min(norm, C)") {
  std::vector<float> theta;
  auto fast = PerExampleModel::make(test::small_model(ModelKind::mlp), 4, theta);
  Lot one = lot(1), four;
  for (int k = 0; k < 4; ++k) {
    four.x.insert(four.x.end(), one.x.begin(), one.x.end());
    four.y.push_back(one.y[0]);
  }
  std::vector<float> g(theta.size(), 0.0f), g4(theta.size(), 0.0f);
  fast->add_clipped_sum(theta.data(), one.x.data(), one.y.data(), 1,
                        std::numeric_limits<double>::infinity(), g.data());
  double norm2 = 0;
  for (float v : g) norm2 += double(v) * v;
  const double clip = std::sqrt(norm2) / 2;  // halves it
  fast->add_clipped_sum(theta.data(), four.x.data(), four.y.data(), 4, clip, g4.data());
  double n4 = 0;
  for (float v : g4) n4 += double(v) * v;
  CHECK(std::sqrt(n4) == doctest::Approx(4 * clip).epsilon(1e-5));
}

TEST_CASE("DP-SGD step: q = 1 without noise moves theta by lr * (clipped sum) / (q N)") {
  TrainTest data = make_synthetic_task(1);
  Dataset train;
  train.example_shape = data.train.example_shape;
  train.num_classes = 10;
  train.features.assign(data.train.features.begin(), data.train.features.begin() + 20 * 64);
  train.labels.assign(data.train.labels.begin(), data.train.labels.begin() + 20);
  DpSgdConfig c;
  c.train_size = 20;
  c.q = 1;
  c.steps = 1;
  c.lr = 0.5;
  c.clip = 0.1;
  std::vector<float> theta0;
  auto model = PerExampleModel::make(test::small_model(ModelKind::mlp), 2, theta0);
  DpSgdTrainer trainer(c, train, *model, 0.0);
  std::vector<float> theta = theta0;
  PhiloxStream rng(1, 1);
  trainer.train(theta, rng, nullptr);
  std::vector<float> sum(theta0.size(), 0.0f);
  PerExampleModel::make_reference(test::small_model(ModelKind::mlp), 2)
      ->add_clipped_sum(theta0.data(), train.features.data(), train.labels.data(), 20, 0.1,
                        sum.data());
  std::vector<float> expected(theta0.size());
  for (std::size_t j = 0; j < theta0.size(); ++j) expected[j] = theta0[j] - 0.5f * sum[j] / 20.0f;
  CHECK(max_abs_difference(theta, expected) <= 1e-6);
}

TEST_CASE("DP-SGD noise: each coordinate of the update has sd z C / L") {
  Dataset empty;  // no example: every lot is empty and the update is the noise / L
  empty.example_shape = {1, 8, 8};
  empty.num_classes = 10;
  DpSgdConfig c;
  c.train_size = 50;
  c.q = 0.2;  // L = 10
  c.steps = 4;
  c.lr = 0;
  c.clip = 2;
  std::vector<float> theta0;
  auto model = PerExampleModel::make(test::small_model(ModelKind::mlp), 2, theta0);
  DpSgdTrainer trainer(c, empty, *model, 3.0);
  std::vector<float> theta = theta0;
  PhiloxStream rng(1, 2);
  double sum = 0, sum2 = 0, n = 0;
  trainer.train(theta, rng, nullptr, [&](std::size_t, const float* update) {
    for (std::size_t j = 0; j < theta.size(); ++j) {
      sum += update[j];
      sum2 += double(update[j]) * update[j];
      ++n;
    }
  });
  // 4 steps x 1,210 coordinates of N(0, (3 * 2 / 10)^2): sd 0.6, to 4% (4 standard errors
  // of an sd estimated from 4,840 samples: 1 / sqrt(2 * 4840) = 1%).
  CHECK(n == 4 * 1210);
  CHECK(std::fabs(sum / n) < 4 * 0.6 / std::sqrt(n));
  CHECK(std::sqrt(sum2 / n) == doctest::Approx(0.6).epsilon(0.04));
  CHECK(theta == theta0);  // lr 0
}

TEST_CASE("Poisson lots by geometric skips: every member with probability q, independently") {
  // 20,000 lots of 1,000 candidates at q = 0.1: the mean size 100 (sd of the mean
  // sqrt(90 / 20000) = 0.067), and the first, a middle and the last candidate each in a
  // fraction 0.1 of the lots (sd 0.0021); bounds are 4 sd.
  PhiloxStream rng(3, 4);
  std::vector<std::size_t> lot;
  double total = 0;
  std::size_t first = 0, middle = 0, last = 0;
  bool increasing = true;
  for (int k = 0; k < 20000; ++k) {
    draw_poisson_lot(1000, 0.1, rng, lot);
    total += double(lot.size());
    increasing = increasing && std::is_sorted(lot.begin(), lot.end()) &&
                 std::adjacent_find(lot.begin(), lot.end()) == lot.end() &&
                 (lot.empty() || lot.back() < 1000);
    first += !lot.empty() && lot.front() == 0;
    middle += std::binary_search(lot.begin(), lot.end(), std::size_t{500});
    last += !lot.empty() && lot.back() == 999;
  }
  CHECK(increasing);
  CHECK(std::fabs(total / 20000 - 100) < 4 * 0.067);
  for (std::size_t count : {first, middle, last})
    CHECK(std::fabs(double(count) / 20000 - 0.1) < 4 * 0.0021);
  draw_poisson_lot(7, 1.0, rng, lot);
  CHECK(lot == std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6});
}
