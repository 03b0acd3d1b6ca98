// How the records of a data set (examples, or clients) take part in the steps (rounds) of
// a run: the one vocabulary for it in the library, in core because every layer speaks it.
// The accountants read it (lib/accounting/event.hpp, run_accountant.hpp), the participation
// schedules draw by it (lib/mechanisms/participation.hpp), and so do the games (lib/games).
#pragma once
#include <optional>
#include <string>

#include "core/names.hpp"

namespace dpaudit {

enum class Sampling {
  // Each record joins each step independently with probability q (add/remove-one
  // neighbours).
  poisson,
  // Each step is a fixed batch of q*N records drawn without replacement (replace-one
  // neighbours).
  without_replacement,
  // Each epoch is a uniform permutation cut into batches: every record takes part exactly
  // once per epoch (no amplification by the shuffling is claimed for it).
  shuffle,
  // Balls-in-bins (random allocation): every epoch each record joins one of its steps, drawn
  // uniformly and independently of the other records; batch sizes vary.
  balls_in_bins,
};

// Whether every record takes part exactly once an epoch (shuffle, balls-in-bins): accounted by
// its participations, each a Gaussian mechanism the adversary may locate.
inline bool by_epochs(Sampling sampling) {
  return sampling == Sampling::shuffle || sampling == Sampling::balls_in_bins;
}

// The names on the command line and in JSON.
inline constexpr Named<Sampling> kSamplingNames[] = {
    {"poisson", Sampling::poisson},
    {"without-replacement", Sampling::without_replacement},
    {"shuffle", Sampling::shuffle},
    {"balls-in-bins", Sampling::balls_in_bins}};

inline std::string sampling_name(Sampling sampling) {
  return name_of(kSamplingNames, sampling);
}

// The sampling of that name, or nullopt.
inline std::optional<Sampling> find_sampling(const std::string& name) {
  const Sampling* s = find_named(kSamplingNames, name);
  return s ? std::optional<Sampling>(*s) : std::nullopt;
}

}  // namespace dpaudit
