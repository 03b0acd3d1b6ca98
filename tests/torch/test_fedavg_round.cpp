// The library round of DP-FedAvg (train/torch/fedavg_round.hpp; McMahan et al. 2018, with canary
// clients as Andrew et al. 2024 Alg. 2-3): its two halves against what they must equal, the
// clients' half against ClientTrainer itself, the combining half against the closed form
// (sum of the clipped updates in order, the inserted ones after them, over m), and the
// server step against theta + lr rho_bar; the noise against the documented Philox stream's normals.
#include <cmath>
#include <limits>
#include <vector>

#include "data/datasets.hpp"
#include "random/philox_stream.hpp"
#include "random/streams.hpp"
#include "train/torch/fedavg_round.hpp"
#include "train/torch/models.hpp"

#include "small_model.hpp"

// LibTorch's headers define a CHECK macro of their own (c10 logging); doctest's comes last.
#undef CHECK
#include <doctest/doctest.h>

using namespace dpaudit;
using namespace dpaudit;

namespace {

// Three clients of two 8 x 8 examples each, and an MLP with 16 hidden units.
using Setup = test::SmallFederation;
Setup setup() {
  return test::small_federation(3);
}

// Inserts one update e_0 (norm 1 before clipping) and records what it was shown.
struct Recorder : FedAvgObserver {
  std::size_t insert(std::size_t, double, UpdateSum& sum, std::vector<double>& norms) override {
    std::vector<double> e(sum.dim(), 0.0);
    e[0] = 1;
    sum.add(e.data());
    norms.push_back(1);
    return 1;
  }
  void released(const FedAvgRelease& r) override { seen = r; }
  FedAvgRelease seen;
};

}  // namespace

TEST_CASE("fedavg round: the clients' half is ClientTrainer's clipped updates, bit for bit") {
  Setup s = setup();
  ClientTrainer trainer(s.model, s.data, s.clients, {1, 1, 0.1}, 1);
  FedAvgRound round(trainer, s.theta.size(), 1.0, 0.0, 3, 100);
  const std::vector<std::size_t> ids = {2, 0};
  const std::vector<ClientUpdate> a = round.train_clients(s.theta, 0.05, ids, 4);
  const std::vector<ClientUpdate> b = trainer.train(to_float_tensor(s.theta), 0.05, ids, 4, 3, 100);
  REQUIRE(a.size() == 2);
  for (std::size_t k = 0; k < 2; ++k) {
    CHECK(a[k].update == b[k].update);
    CHECK(a[k].norm == b[k].norm);
    // Clipped to 0.05 (the local step of lr 0.1 is larger than that here).
    CHECK(a[k].norm > 0.05);
    double n2 = 0;
    for (double v : a[k].update) n2 += v * v;
    CHECK(std::sqrt(n2) == doctest::Approx(0.05).epsilon(1e-12));
  }
}

TEST_CASE("fedavg round: combine sums in client order, then the inserted, over m; step adds it") {
  Setup s = setup();
  ClientTrainer trainer(s.model, s.data, s.clients, {1, 1, 0.1}, 1);
  const std::size_t d = s.theta.size();
  FedAvgRound round(trainer, d, 2.0, 0.0, 3, 100);
  std::vector<ClientUpdate> u(2);
  u[0].update.assign(d, 0.5);
  u[0].norm = 3;
  u[0].loss = 1;
  u[0].has_data = true;
  u[1].update.assign(d, -0.25);
  u[1].norm = 4;  // no data: its loss does not count
  Recorder observer;
  PhiloxStream noise(1, 2);
  const FedAvgRelease r = round.combine(9, u, 1.0, 0.0, noise, observer);
  CHECK(r.round == 9);
  CHECK(r.inserted == 1);
  CHECK(r.norms == std::vector<double>{3, 4, 1});
  CHECK(r.train_loss == 1);
  // (0.5 - 0.25 + [j = 0]) / 3
  CHECK(r.rho_bar[0] == doctest::Approx(1.25 / 3).epsilon(1e-15));
  CHECK(r.rho_bar[d - 1] == doctest::Approx(0.25 / 3).epsilon(1e-15));
  CHECK(observer.seen.rho_bar == r.rho_bar);
  std::vector<double> theta = s.theta;
  REQUIRE(round.step(r, theta));
  CHECK(theta[0] == doctest::Approx(s.theta[0] + 2 * 1.25 / 3).epsilon(1e-12));
  // A release that is not finite makes the model not finite: step says so.
  FedAvgRelease bad = r;
  bad.rho_bar[1] = std::numeric_limits<double>::infinity();
  CHECK_FALSE(round.step(bad, theta));
}

TEST_CASE("fedavg round: the noise is z C times the documented Philox normals, over m") {
  // dp-train fedavg's round t draws its noise from PhiloxStream(seed, kFedAvgNoise + t)
  // (random/streams.hpp): the release is (clipped sum + z C N(0, I)) / m (Andrew et al. 2024,
  // Alg. 3 line 9). Released minus the noiseless release, times m, must be z C times an
  // independent draw of the same stream's normals.
  Setup s = setup();
  ClientTrainer trainer(s.model, s.data, s.clients, {1, 1, 0.1}, 1);
  const std::size_t d = s.theta.size();
  FedAvgRound round(trainer, d, 1.0, 0.0, 3, 100);
  const double z = 1.5, clip = 0.05;
  const std::size_t t = 4;
  const std::vector<ClientUpdate> u = round.train_clients(s.theta, clip, {0, 1, 2}, t);
  Recorder observer;  // inserts e_0: m = 4 participants
  PhiloxStream none(3, streams::kFedAvgNoise + t);
  const FedAvgRelease clean = round.combine(t, u, clip, 0.0, none, observer);
  PhiloxStream noise(3, streams::kFedAvgNoise + t);
  const FedAvgRelease noisy = round.combine(t, u, clip, z * clip, noise, observer);
  std::vector<double> want(d);
  PhiloxStream(3, streams::kFedAvgNoise + t).fill_normal(want.data(), d);
  double mean = 0, square = 0;
  for (std::size_t i = 0; i < d; ++i) {
    const double drawn = (noisy.rho_bar[i] - clean.rho_bar[i]) * 4 / (z * clip);
    CHECK(drawn == doctest::Approx(want[i]).epsilon(1e-9));
    mean += drawn / static_cast<double>(d);
    square += drawn * drawn / static_cast<double>(d);
  }
  // And the draws are N(0, 1): over d = 1210 coordinates the mean is within 4 / sqrt(d) of 0
  // and the second moment within 4 sqrt(2 / d) of 1 (4 standard deviations each).
  REQUIRE(d == 1210);
  CHECK(std::abs(mean) < 4 / std::sqrt(1210.0));
  CHECK(std::abs(square - 1) < 4 * std::sqrt(2 / 1210.0));
}
