// games/torch/canife_game: CANIFE's game (Maddock et al. 2023) as a library call, at both
// levels on the synthetic task: the audits before rounds 0, S, 2S, ..., n scores each, eps_r
// from them as the estimator "canife" gives it (Maddock et al. 2023's rule at delta 1/n), a
// metrics row per round, and the progress callback once per audit with the audits done.
#include <cmath>
#include <vector>

#include "data/datasets.hpp"
#include "games/torch/canife_game.hpp"

// LibTorch's headers define a CHECK macro of their own (c10 logging); doctest's comes last.
#undef CHECK
#include <doctest/doctest.h>

using namespace dpaudit;
using namespace dpaudit;

namespace {

CanifeGameConfig small(CanifeLevel level) {
  CanifeGameConfig c;
  c.level = level;
  c.task = "synthetic";
  c.hidden = 8;
  c.q = 0.1;
  c.rounds = 5;
  c.audit_every = 2;
  c.audit_rounds = 6;
  c.design_pool = 8;
  c.craft.steps = 3;
  c.threads = 1;
  c.user.clients = 20;
  return c;
}

void check_run(const CanifeGameConfig& c) {
  const TrainTest data = load_task(c.task, "", c.seed);
  std::vector<std::size_t> progress;
  const CanifeRun run =
      play_canife(c, data, 1.0, [&](std::size_t done) { progress.push_back(done); });
  CHECK(progress == std::vector<std::size_t>{1, 2, 3});
  REQUIRE(run.audits.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    const Audit& a = run.audits[i];
    CHECK(a.round == 2 * i);
    REQUIRE(a.scores.size() == 6);
    std::vector<double> in, out;
    split_scores(a, in, out);
    const CanifeEpsilon direct = canife_epsilon(in, out, 1.0 / 6);
    CHECK(a.eps.epsilon == direct.epsilon);
    CHECK(a.eps.epsilon_lower == direct.epsilon_lower);
    CHECK(a.canary.x.size() == data.train.example_size());
  }
  REQUIRE(run.metrics.size() == 5);
  for (std::size_t t = 0; t < 5; ++t) {
    CHECK(run.metrics[t].round == t + 1);
    CHECK(std::isfinite(run.metrics[t].update_norm));
    CHECK((run.metrics[t].train_loss >= 0) == (c.level == CanifeLevel::user));
  }
  // the accuracy before the audits at rounds 2 and 4, and at the end
  CHECK(run.metrics[1].test_accuracy == run.audits[1].test_accuracy);
  CHECK(run.metrics[3].test_accuracy == run.audits[2].test_accuracy);
  CHECK(run.metrics[4].test_accuracy == run.test_accuracy);
  CHECK(run.metrics[0].test_accuracy < 0);
  CHECK(run.parameters > 0);
}

}  // namespace

TEST_CASE("sample level: audits at 0, 2, 4 of 5 rounds, eps_r by Maddock et al. 2023's rule") {
  check_run(small(CanifeLevel::sample));
}

TEST_CASE("user level: the same, with fedavg's clients and their train loss") {
  const CanifeGameConfig c = small(CanifeLevel::user);
  check_run(c);
}
