// Who takes part in each round of federated training (Andrew et al. 2024, Sec. 5.2): Poisson
// sampling, shuffled epochs, or a fixed number of repetitions per member. Members are indices
// 0..population-1; a schedule lists, for each round, its members in increasing order.
// Every schedule is a pure function of its configuration and seed (PhiloxStream).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "accounting/run_accountant.hpp"
#include "core/sampling.hpp"

namespace dpaudit {

using RoundMembers = std::vector<std::vector<std::size_t>>;  // [round] -> sorted member ids

// "poisson" | "shuffle" (the schedules drawn here); UsageError otherwise.
Sampling parse_sampling(const std::string& name);

struct ParticipationConfig {
  Sampling sampling = Sampling::shuffle;  // poisson or shuffle
  std::size_t population = 0;
  std::size_t rounds = 0;
  double q = 0;  // poisson: each member joins each round independently w.p. q, 0 < q <= 1
  std::size_t per_round = 0;  // shuffle: members per round, 1 <= per_round <= population
  std::uint64_t seed = 0;
  std::uint64_t stream = 0;  // Philox stream base; round/epoch e uses stream + e
};

// poisson: round t draws PhiloxStream(seed, stream + t) and keeps member i when its
// uniform is below q. shuffle: epoch e is a uniform permutation from
// PhiloxStream(seed, stream + e), cut into ceil(population / per_round) rounds of
// per_round members (the last round of an epoch takes the remainder), so every member
// takes part exactly once per epoch. UsageError for q outside (0, 1], per_round 0 or
// above the population, an empty population, or sampling without replacement.
RoundMembers participation_schedule(const ParticipationConfig& config);

// Andrew et al. 2024, Sec. 5.2's fixed repetitions: the run is cut into `repeats` periods of equal
// length (rounds * r / repeats .. rounds * (r + 1) / repeats) and each member takes
// part once per period, in a round drawn uniformly within it from
// PhiloxStream(seed, stream + member): exactly `repeats` distinct rounds each.
// UsageError when repeats is 0 or exceeds rounds.
RoundMembers fixed_repeats_schedule(std::size_t members, std::size_t repeats, std::size_t rounds,
                                    std::uint64_t seed, std::uint64_t stream);

// Number of rounds each member takes part in (a histogram input for checks and run.json).
std::vector<std::size_t> participation_counts(const RoundMembers& schedule, std::size_t population);

// A federated run's participation (Andrew et al. 2024, Alg. 2 and Sec. 5.2): `clients`
// drawn by `schedule` (its population is set here), and `canaries` seen canaries, sampled
// like the clients when canary_repeats is 0, else each in canary_repeats rounds of its own
// fixed_repeats_schedule (seed schedule.seed, stream repeats_stream).
struct FederatedParticipation {
  ParticipationConfig schedule;
  std::size_t clients = 0;
  std::size_t canaries = 0;
  std::size_t canary_repeats = 0;
  std::uint64_t repeats_stream = 0;
};

// Who takes part in each round: the clients (ids 0..clients-1) and the seen canaries (ids
// 0..canaries-1). Sampled like the clients, the canaries are members clients..clients+canaries-1
// of one participation_schedule. UsageError as participation_schedule's and
// fixed_repeats_schedule's.
struct FederatedSchedule {
  RoundMembers clients;
  RoundMembers canaries;
};
FederatedSchedule federated_schedule(const FederatedParticipation& participation);

// The run accountant's model of the run (lib/accounting/run_accountant.hpp) at that noise
// multiplier: a Poisson run is its clients at rate q over every round, with the canaries on
// fixed repetitions apart (canary_repeats known rounds); a shuffled run is the most rounds any
// client or seen canary took part in, each known to the adversary (the schedule's count: no
// amplification by shuffling is claimed).
FederatedModel federated_model(const FederatedParticipation& participation,
                               const FederatedSchedule& schedule, double noise_multiplier);

}  // namespace dpaudit
