// Composition of discrete privacy-loss distributions: the PLD of an adaptive
// composition of mechanisms is the convolution of their PLDs (the losses add;
// Koskela, Jalko & Honkela 2020; Doroshenko et al. 2022). Computed in one pass by FFT
// (Eigen's FFT module): the product of each step's transform raised to its count,
// then one inverse transform, on a window chosen by a Chernoff bound.
#pragma once
#include <cstddef>
#include <vector>

#include "accounting/pld_pmf.hpp"

namespace dpaudit {

struct PldFactor {
  const PldPmf* pld;  // one step; every factor on the same lattice spacing
  long long count;    // how many times it is composed, >= 1
};

// The window of a composition: the lattice indices [lo, hi] outside which the composed
// finite mass is at most `outside_mass`, split between the two ends: the Chernoff bound
// P(S >= U) <= E[e^(tS)] e^(-tU) at the best t (as dp_accounting sizes its FFT), or the
// exact support where that is narrower.
struct CompositionPlan {
  long long lo, hi;
  double outside_mass;  // the bound at the ends chosen (<= the budget asked for)
  std::size_t points() const { return static_cast<std::size_t>(hi - lo + 1); }
};

// Throws UsageError for no factors, a count < 1, unequal spacings, or a budget outside
// (0,1); DataError where the window is beyond 4e18 lattice points.
CompositionPlan plan_composition(const std::vector<PldFactor>& factors, double outside_mass);

struct ComposedPld {
  PldPmf pld;  // on the plan's window, extended up to the FFT length
  // The plan's bound: the cyclic convolution folds the mass outside the window back into
  // it, so the window's masses are too high by at most this much in total, and the mass
  // beyond it is at most this.
  double outside_mass;
  // Roundoff of the FFT per lattice point: the largest magnitude among the points that
  // came out negative (their true value is >= 0, so this is the noise floor), at least
  // 2^-52 log2(size) times the largest mass. An estimate, not a proven bound.
  double roundoff;
};

ComposedPld compose_plds(const std::vector<PldFactor>& factors, const CompositionPlan& plan);

}  // namespace dpaudit
