// Every Philox stream id a training run draws from, in one table. A run's randomness is
// PhiloxStream(seed, id) (random/philox_stream.hpp); two uses of one id under one seed
// would draw the same numbers, so every family of streams has its own block of 2^40 ids
// and adds its index (a round, a trial, an epoch) inside the block. The table is checked
// at compile time: ids distinct, every family inside its block.
//
// Seeds of another kind keep their own id spaces and are not listed: a canary set's seed
// (canary j is stream first_index + j, canary/canary_spec.hpp), dp-train sum's client and
// noise seeds (mechanisms/gaussian_sum.hpp), the bootstrap's key (stats/bootstrap.cpp).
#pragma once
#include <cstddef>
#include <cstdint>

namespace dpaudit::streams {

constexpr std::uint64_t kBlock = std::uint64_t{1} << 40;

// Data sets (data/datasets.hpp): single streams below the first block.
constexpr std::uint64_t kSynthetic = 1;  // the synthetic task's examples
constexpr std::uint64_t kPartition = 2;  // the clients' partition of the training set

// DP-FedAvg (train/torch): + round, or + epoch for shuffled schedules.
constexpr std::uint64_t kFedAvgSchedule = 1 * kBlock;  // which clients take part
constexpr std::uint64_t kFedAvgRepeats = 2 * kBlock;   // canaries' repeated rounds
constexpr std::uint64_t kFedAvgNoise = 3 * kBlock;     // the aggregate's Gaussian noise
constexpr std::uint64_t kFedAvgBatch = 4 * kBlock;     // clients' local minibatches
constexpr std::uint64_t kFedAvgClip = 5 * kBlock;      // adaptive clipping's count noise

// The LDP-SGD game of Matsumoto et al. (games/torch): + trial.
constexpr std::uint64_t kLdpTrial = 16 * kBlock;
constexpr std::uint64_t kLdpPretrain = 17 * kBlock;
constexpr std::uint64_t kLdpMalicious = 18 * kBlock;

// DP-SGD's threat-model game of Nasr et al. 2021 (games/torch): + trial or shadow model.
constexpr std::uint64_t kSgdTrial = 32 * kBlock;
constexpr std::uint64_t kSgdTarget = 33 * kBlock;
constexpr std::uint64_t kSgdCraft = 34 * kBlock;
constexpr std::uint64_t kSgdShadow = 35 * kBlock;  // + shadow model i (Crafter 2)

// CANIFE (Maddock et al. 2023): + round, + round * n + mock round for the mock rounds.
constexpr std::uint64_t kCanifeTrain = 48 * kBlock;
constexpr std::uint64_t kCanifePool = 49 * kBlock;
constexpr std::uint64_t kCanifeCraft = 50 * kBlock;  // + the audit's round
constexpr std::uint64_t kCanifeMock = 51 * kBlock;   // + round * n + mock round
// User level: each training round's participants and noise (+ round); the local minibatch
// orders (train/torch/fedavg_client.hpp adds round * clients + client) of training rounds,
// of mock rounds (their round: audit round * n + mock round), of the design clients and of
// the canary client (their round: the audit's).
constexpr std::uint64_t kCanifeUserRound = 52 * kBlock;
constexpr std::uint64_t kCanifeUserBatch = 53 * kBlock;
constexpr std::uint64_t kCanifeMockBatch = 54 * kBlock;
constexpr std::uint64_t kCanifeDesignBatch = 55 * kBlock;
constexpr std::uint64_t kCanifeCanaryBatch = 56 * kBlock;

// The Monte Carlo accountant of balls-in-bins batches (accounting/balls_in_bins.hpp): + 64 d + j
// the normals of direction d's stratum j, + 64 d + 32 + j their uniforms, + 64 d + 63 the
// direction's pilot. Its seed is the accountant's.
constexpr std::uint64_t kBallsInBins = 64 * kBlock;

namespace detail {
constexpr std::uint64_t kAll[] = {
    kSynthetic,       kPartition,         kFedAvgSchedule,    kFedAvgRepeats,   kFedAvgNoise,
    kFedAvgBatch,     kFedAvgClip,        kLdpTrial,          kLdpPretrain,     kLdpMalicious,
    kSgdTrial,        kSgdTarget,         kSgdCraft,          kSgdShadow,       kCanifeTrain,
    kCanifePool,      kCanifeCraft,       kCanifeMock,        kCanifeUserRound, kCanifeUserBatch,
    kCanifeMockBatch, kCanifeDesignBatch, kCanifeCanaryBatch, kBallsInBins};
// Distinct blocks: a family's indices stay below 2^40, so no two families can meet.
constexpr bool distinct_blocks() {
  constexpr std::size_t n = sizeof(kAll) / sizeof(kAll[0]);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (kAll[i] / kBlock == kAll[j] / kBlock && kAll[i] >= kBlock) return false;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (kAll[i] == kAll[j]) return false;
  return true;
}
static_assert(distinct_blocks(), "two stream families share a block of ids");
}  // namespace detail

}  // namespace dpaudit::streams
