// Composition of discrete privacy-loss distributions: the PLD of an adaptive
// composition of mechanisms is the convolution of their PLDs (the losses add;
// Koskela, Jalko & Honkela 2020; Doroshenko et al. 2022). Computed in one pass by FFT
// (pld_fft.hpp): the product of each step's transform raised to its count,
// then one inverse transform, on a window chosen by a Chernoff bound.
#pragma once
#include <cstddef>
#include <limits>
#include <vector>

#include "accounting/pld_pmf.hpp"

namespace dpaudit {

struct PldFactor {
  const PldPmf* pld;  // one step; every factor on the same lattice spacing
  long long count;    // how many times it is composed, >= 1
  // A bound on the l2 norm of (mass - exact mass) when the masses are themselves a computed
  // composition (0 for a one-step PLD, whose masses are taken as exact).
  double error_l2 = 0;
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
  // A proven bound on the roundoff: ||computed masses - exact masses||_2 <= roundoff,
  // exact meaning the cyclic convolution in exact arithmetic of the exact factors
  // (pld_compose.cpp, "The roundoff bound"). Negative results are set to 0, which only
  // brings them closer. For delta(eps) = sum_j mass_j w_j with 0 <= w_j <= 1 and w_j = 0
  // at losses <= eps, the error is at most roundoff sqrt(#points with loss > eps)
  // (Cauchy-Schwarz).
  double roundoff;
};

// The most the composition's delta(eps) at any eps >= 0 is off by: its outside mass (folded
// back and beyond the window) and its roundoff, an l2 bound, times the root of the number
// of lattice points with a positive loss (the only ones that enter delta(eps), with
// weights in [0, 1]: Cauchy-Schwarz above). Added to an upper delta, taken off a lower one.
double composition_slack(const ComposedPld& composed);

// Computed in double; where the roundoff bound comes out above max_roundoff, again in
// x87 long double (80 bits: a unit roundoff 2^-11 of double's, and the bound with it; the
// transforms take about 5 times as long).
ComposedPld compose_plds(const std::vector<PldFactor>& factors, const CompositionPlan& plan,
                         double max_roundoff = std::numeric_limits<double>::infinity());

// The same composition for many factors (heterogeneous runs): one transform per factor on
// the whole window costs factors x window; here the factors are composed in groups of about
// sqrt(factors), each on its own (narrower) Chernoff window with outside mass 1e-18, and the
// groups' results on the plan's window. The result's outside_mass covers the groups' too
// (twice: the mass each window left out, and what its FFT folded back into it), and each
// group's roundoff bound enters the next as its factor's error. Long double (max_roundoff)
// only with at most 8 factors: its transforms cost 5x, per factor. Up to 16 factors this is
// compose_plds.
ComposedPld compose_grouped(const std::vector<PldFactor>& factors, const CompositionPlan& plan,
                            double max_roundoff = std::numeric_limits<double>::infinity());

}  // namespace dpaudit
