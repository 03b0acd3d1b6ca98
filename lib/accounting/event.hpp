// One segment of a training run, as every accountant (RDP, PLD, GDP) reads it:
// `steps` releases of the Gaussian mechanism with noise multiplier `sigma` (noise
// standard deviation over the L2 sensitivity), each on a batch drawn with rate `q`
// (q = 1: the whole data set, the plain Gaussian mechanism).
//
// A mixture of Gaussians (micro > 1, Poisson only; the PLD accountant alone reads it,
// lib/accounting/pld_mixture.hpp): each release adds one noise of multiplier `sigma` to the
// sum of `micro` micro-batches, each drawn at rate q, so a record enters it K ~ Binomial(micro,
// q) times (gradient accumulation). The last-iterate heuristic of Steinke et al. 2025 is one
// such release: T steps at multiplier s and rate q, the final model only, is {s sqrt(T), q, 1,
// poisson, T}.
#pragma once
#include "core/sampling.hpp"

namespace dpaudit {

// `sampling`: how each step's batch is drawn, Poisson with rate q or a fixed batch of q*N
// records without replacement (lib/core/sampling.hpp). Shuffled epochs are not a
// segment: they are accounted by their participations (run_accountant.hpp).
struct AccountingEvent {
  double sigma;
  double q;
  long long steps;
  Sampling sampling = Sampling::poisson;
  long long micro = 1;  // micro-batches per release, >= 1 (1: the subsampled Gaussian)
};

// Throws UsageError for sigma <= 0, q outside (0,1], steps < 1, NaN or Inf, or shuffled
// sampling; for micro < 1, and for micro > 1 unless `mixture_ok` (the PLD accountant) and the
// sampling is Poisson.
void check_event(const AccountingEvent& e, bool mixture_ok = false);

// The noise standard deviation of one step over its L2 sensitivity: the sigma at which
// every accountant evaluates its sensitivity-1 formulas. sigma is relative to the clip
// norm C (each record's contribution has norm <= C), so adding or removing a record
// (Poisson sampling) moves the sum by at most C: sigma; replacing one record by another
// (without replacement) moves it by at most 2C: sigma / 2, the replace-one Gaussian at
// sensitivity 2. (dp_accounting's noise multiplier for replace-one is relative to that
// sensitivity: its sigma is half of ours.)
double noise_over_sensitivity(const AccountingEvent& e);

}  // namespace dpaudit
