#include "mechanisms/participation.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.hpp"
#include "core/names.hpp"
#include "random/philox_stream.hpp"

namespace dpaudit {

Sampling parse_sampling(const std::string& name) {
  static constexpr Named<Sampling> kSamplings[] = {{"poisson", Sampling::poisson},
                                                   {"shuffle", Sampling::shuffle}};
  return parse_named(kSamplings, name, "sampling", "{sampling}");
}

namespace {

// Uniform integer in [0, n).
RoundMembers poisson_schedule(const ParticipationConfig& c) {
  RoundMembers out(c.rounds);
  for (std::size_t t = 0; t < c.rounds; ++t) {
    PhiloxStream rng(c.seed, c.stream + t);
    for (std::size_t i = 0; i < c.population; ++i)
      if (rng.uniform() < c.q) out[t].push_back(i);
  }
  return out;
}

RoundMembers shuffle_schedule(const ParticipationConfig& c) {
  const std::size_t rounds_per_epoch = (c.population + c.per_round - 1) / c.per_round;
  RoundMembers out(c.rounds);
  std::vector<std::size_t> order(c.population);
  for (std::size_t t = 0; t < c.rounds; ++t) {
    const std::size_t epoch = t / rounds_per_epoch, slot = t % rounds_per_epoch;
    if (slot == 0) {  // Fisher-Yates permutation of the population for this epoch
      PhiloxStream rng(c.seed, c.stream + epoch);
      std::iota(order.begin(), order.end(), std::size_t{0});
      for (std::size_t i = order.size(); i > 1; --i)
        std::swap(order[i - 1], order[uniform_below(rng, i)]);
    }
    const std::size_t begin = slot * c.per_round, end = std::min(c.population, begin + c.per_round);
    out[t].assign(order.begin() + static_cast<std::ptrdiff_t>(begin),
                  order.begin() + static_cast<std::ptrdiff_t>(end));
    std::sort(out[t].begin(), out[t].end());
  }
  return out;
}

}  // namespace

RoundMembers participation_schedule(const ParticipationConfig& c) {
  if (c.population == 0)
    throw UsageError(Pattern{"empty population: no clients to sample"}, "{clients}");
  if (c.sampling == Sampling::without_replacement)
    throw UsageError("a participation schedule is Poisson or shuffled, not without replacement");
  if (c.sampling == Sampling::poisson) {
    if (!(c.q > 0 && c.q <= 1)) throw UsageError(Pattern{"q must be in (0, 1]"}, "{q}");
    return poisson_schedule(c);
  }
  if (c.per_round == 0 || c.per_round > c.population)
    throw UsageError(
        Pattern{"clients per round (" + std::to_string(c.per_round) +
                ") must be between 1 and the population (" + std::to_string(c.population) + ")"},
        "{clients_per_round}");
  return shuffle_schedule(c);
}

RoundMembers fixed_repeats_schedule(std::size_t members, std::size_t repeats, std::size_t rounds,
                                    std::uint64_t seed, std::uint64_t stream) {
  if (repeats == 0 || repeats > rounds)
    throw UsageError(
        Pattern{"repeats (" + std::to_string(repeats) +
                ") must be between 1 and the number of rounds (" + std::to_string(rounds) + ")"},
        "{canary_repeats}");
  RoundMembers out(rounds);
  for (std::size_t j = 0; j < members; ++j) {
    PhiloxStream rng(seed, stream + j);
    for (std::size_t r = 0; r < repeats; ++r) {
      const std::size_t begin = rounds * r / repeats, end = rounds * (r + 1) / repeats;
      out[begin + uniform_below(rng, end - begin)].push_back(j);
    }
  }
  return out;  // members were added in increasing j, so each round is sorted
}

std::vector<std::size_t> participation_counts(const RoundMembers& schedule,
                                              std::size_t population) {
  std::vector<std::size_t> counts(population, 0);
  for (const auto& round : schedule)
    for (std::size_t i : round) ++counts.at(i);
  return counts;
}

FederatedSchedule federated_schedule(const FederatedParticipation& p) {
  const std::size_t clients = p.clients, rounds = p.schedule.rounds;
  ParticipationConfig config = p.schedule;
  config.population = clients + (p.canary_repeats == 0 ? p.canaries : 0);
  const RoundMembers all = participation_schedule(config);
  FederatedSchedule s{RoundMembers(rounds), RoundMembers(rounds)};
  for (std::size_t t = 0; t < rounds; ++t)
    for (std::size_t id : all[t])
      (id < clients ? s.clients[t].push_back(id) : s.canaries[t].push_back(id - clients));
  if (p.canary_repeats > 0 && p.canaries > 0)
    s.canaries = fixed_repeats_schedule(p.canaries, p.canary_repeats, rounds, p.schedule.seed,
                                        p.repeats_stream);
  return s;
}

FederatedModel federated_model(const FederatedParticipation& p, const FederatedSchedule& s,
                               double noise_multiplier) {
  FederatedModel m;
  for (std::size_t k : participation_counts(s.clients, p.clients))
    m.max_participations = std::max(m.max_participations, static_cast<long long>(k));
  for (std::size_t k : participation_counts(s.canaries, p.canaries))
    m.max_participations = std::max(m.max_participations, static_cast<long long>(k));
  m.clients.sampling = p.schedule.sampling;
  m.clients.noise_multiplier = noise_multiplier;
  m.clients.steps = static_cast<long long>(p.schedule.rounds);
  if (p.schedule.sampling != Sampling::poisson) {
    m.clients.participations = m.max_participations;
    return m;
  }
  m.clients.q = p.schedule.q;
  if (p.canaries > 0 && p.canary_repeats > 0) {
    RunModel canaries;
    canaries.sampling = Sampling::shuffle;
    canaries.noise_multiplier = noise_multiplier;
    canaries.participations = static_cast<long long>(p.canary_repeats);
    canaries.steps = m.clients.steps;
    m.canaries = canaries;
  }
  return m;
}

}  // namespace dpaudit
