#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.hpp"
#include "mechanisms/participation.hpp"

using namespace dpaudit;

namespace {
ParticipationConfig shuffle_config(std::size_t population, std::size_t per_round,
                                   std::size_t rounds) {
  ParticipationConfig c;
  c.sampling = Sampling::shuffle;
  c.population = population;
  c.per_round = per_round;
  c.rounds = rounds;
  c.seed = 11;
  return c;
}
}  // namespace

TEST_CASE("shuffle: every member exactly once per epoch, remainder in the epoch's last round") {
  // 10 members, 4 per round: rounds of 4, 4, 2 members make one epoch; 6 rounds = 2 epochs.
  const RoundMembers s = participation_schedule(shuffle_config(10, 4, 6));
  REQUIRE(s.size() == 6);
  const std::vector<std::size_t> sizes{4, 4, 2, 4, 4, 2};
  for (std::size_t t = 0; t < 6; ++t) CHECK(s[t].size() == sizes[t]);
  for (std::size_t epoch = 0; epoch < 2; ++epoch) {
    const RoundMembers one_epoch(s.begin() + 3 * epoch, s.begin() + 3 * epoch + 3);
    CHECK(participation_counts(one_epoch, 10) == std::vector<std::size_t>(10, 1));
  }
  CHECK(s[0] != s[3]);  // a fresh permutation each epoch (seed 11)
}

TEST_CASE("poisson: participation count matches q * population * rounds") {
  ParticipationConfig c;
  c.sampling = Sampling::poisson;
  c.population = 1000;
  c.q = 0.1;
  c.rounds = 200;
  c.seed = 3;
  const RoundMembers s = participation_schedule(c);
  std::size_t total = 0;
  for (const auto& r : s) total += r.size();
  // Binomial(200000, 0.1): mean 20000, sd sqrt(200000 * 0.1 * 0.9) = 134.2; 5 sd.
  CHECK(std::fabs(static_cast<double>(total) - 20000.0) < 5 * 134.2);
  CHECK(participation_schedule(c) == s);  // a pure function of the seed
  c.seed = 4;
  CHECK(participation_schedule(c) != s);
  c.q = 1;
  for (const auto& r : participation_schedule(c)) CHECK(r.size() == 1000);
}

TEST_CASE("fixed repeats: exactly R distinct rounds, one in each period") {
  // 10 rounds, 4 periods: [0,2) [2,5) [5,7) [7,10).
  const RoundMembers s = fixed_repeats_schedule(50, 4, 10, 5, 100);
  CHECK(participation_counts(s, 50) == std::vector<std::size_t>(50, 4));
  const std::vector<std::size_t> period_start{0, 2, 5, 7, 10};
  for (std::size_t p = 0; p < 4; ++p) {
    const RoundMembers period(s.begin() + period_start[p], s.begin() + period_start[p + 1]);
    CHECK(participation_counts(period, 50) == std::vector<std::size_t>(50, 1));
  }
  // R = T: every member in every round.
  for (const auto& r : fixed_repeats_schedule(7, 3, 3, 5, 100)) CHECK(r.size() == 7);
}

TEST_CASE("participation schedule errors") {
  ParticipationConfig c;
  c.sampling = Sampling::poisson;
  c.population = 10;
  c.rounds = 2;
  c.q = 0;
  CHECK_THROWS_WITH_AS(participation_schedule(c), "q must be in (0, 1] (the sampling rate q)",
                       UsageError);
  c.q = 1.5;
  CHECK_THROWS_AS(participation_schedule(c), UsageError);
  CHECK_THROWS_WITH_AS(
      participation_schedule(shuffle_config(10, 11, 2)),
      "clients per round (11) must be between 1 and the population (10) (clients per round)",
      UsageError);
  CHECK_THROWS_AS(participation_schedule(shuffle_config(10, 0, 2)), UsageError);
  CHECK_THROWS_AS(fixed_repeats_schedule(5, 11, 10, 1, 0), UsageError);
  CHECK_THROWS_AS(fixed_repeats_schedule(5, 0, 10, 1, 0), UsageError);
  CHECK(parse_sampling("poisson") == Sampling::poisson);
  CHECK(parse_sampling("shuffle") == Sampling::shuffle);
  CHECK_THROWS_WITH_AS(parse_sampling("without-replacement"),
                       "unknown sampling 'without-replacement' (poisson or shuffle) (sampling)",
                       UsageError);
  CHECK_THROWS_AS(parse_sampling("uniform"), UsageError);
  ParticipationConfig w = shuffle_config(10, 2, 2);
  w.sampling = Sampling::without_replacement;  // a schedule is Poisson or shuffled
  CHECK_THROWS_AS(participation_schedule(w), UsageError);
}

TEST_CASE("a federated run's schedule: canaries sampled like the clients, or on fixed repeats") {
  FederatedParticipation p;
  p.schedule = shuffle_config(0, 7, 4);  // the population is set from clients and canaries
  p.clients = 10;
  p.canaries = 4;
  // Sampled like the clients: members 10..13 of one 14-member schedule, 2 rounds an epoch.
  FederatedSchedule s = federated_schedule(p);
  ParticipationConfig all = p.schedule;
  all.population = 14;
  const RoundMembers joint = participation_schedule(all);
  for (std::size_t t = 0; t < 4; ++t) {
    RoundMembers::value_type clients, canaries;
    for (std::size_t id : joint[t])
      (id < 10 ? clients : canaries).push_back(id < 10 ? id : id - 10);
    CHECK(s.clients[t] == clients);
    CHECK(s.canaries[t] == canaries);
  }
  FederatedModel m = federated_model(p, s, 2.0);
  CHECK(m.max_participations == 2);  // two epochs: every member twice
  CHECK(m.clients.sampling == Sampling::shuffle);
  CHECK(m.clients.participations == 2);
  CHECK(m.clients.noise_multiplier == 2.0);
  CHECK_FALSE(m.canaries);
  // On 3 fixed repeats: the clients alone (10 of them, 7 a round), the canaries' own schedule;
  // a shuffled run counts the canaries' 3 rounds in max_participations.
  p.canary_repeats = 3;
  p.repeats_stream = 100;
  s = federated_schedule(p);
  all.population = 10;
  CHECK(s.clients == participation_schedule(all));
  CHECK(s.canaries == fixed_repeats_schedule(4, 3, 4, 11, 100));
  m = federated_model(p, s, 2.0);
  CHECK(m.max_participations == 3);
  CHECK(m.clients.participations == 3);
  CHECK_FALSE(m.canaries);
  // Poisson: the clients at q over every round, the canaries on 3 known rounds apart.
  p.schedule.sampling = Sampling::poisson;
  p.schedule.q = 0.5;
  s = federated_schedule(p);
  m = federated_model(p, s, 2.0);
  CHECK(m.clients.sampling == Sampling::poisson);
  CHECK(m.clients.q == 0.5);
  CHECK(m.clients.steps == 4);
  REQUIRE(m.canaries);
  CHECK(m.canaries->sampling == Sampling::shuffle);
  CHECK(m.canaries->participations == 3);
  CHECK(m.canaries->noise_multiplier == 2.0);
  std::size_t most = 3;
  for (std::size_t k : participation_counts(s.clients, 10)) most = std::max(most, k);
  CHECK(m.max_participations == static_cast<long long>(most));
  // Without seen canaries there is no canary model.
  p.canaries = 0;
  CHECK_FALSE(federated_model(p, federated_schedule(p), 2.0).canaries);
}
