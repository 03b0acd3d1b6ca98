// A privacy-loss distribution (PLD) on the lattice {k h}: the law of the privacy loss
// L = log(dP/dQ)(X), X ~ P, of a dominating pair (P, Q), discretised (Koskela, Jalko &
// Honkela 2020; Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022, "Connect the dots").
// Every (eps, delta) of the pair is read off it through the hockey-stick divergence
//   delta(eps) = H_{e^eps}(P || Q) = P(L = +inf) + E_P[(1 - e^(eps - L))_+]
// (Doroshenko et al. 2022, Sec. 2), nonincreasing in eps and nondecreasing in every
// mass: adding mass anywhere, or moving it to larger losses, never lowers delta.
#pragma once
#include <cstddef>
#include <vector>

namespace dpaudit {

struct PldPmf {
  double h = 0;              // lattice spacing (> 0)
  long long first = 0;       // mass[i] sits at the loss (first + i) h
  std::vector<double> mass;  // nonnegative
  double inf_mass = 0;       // P(L = +inf): outcomes that Q cannot produce

  double loss(std::size_t i) const {
    return static_cast<double>(first + static_cast<long long>(i)) * h;
  }
};

// delta(eps) above, for any real eps; each term is computed as -expm1(eps - L), so
// small deltas keep their digits.
double pld_delta(const PldPmf& pld, double eps);

// pld_delta at each of `eps` (ascending), in one scan down the lattice with pld_epsilon's
// sums of nonnegative terms: O(points + eps.size()) for all, where pld_delta costs O(points)
// each. UsageError when eps is not ascending or holds a NaN.
std::vector<double> pld_deltas(const PldPmf& pld, const std::vector<double>& eps);

// The smallest eps >= 0 with pld_delta(eps) <= delta (delta(eps) is continuous and
// strictly decreasing where positive, so this is its exact inverse up to rounding);
// +inf when inf_mass > delta. Throws UsageError unless 0 < delta < 1.
double pld_epsilon(const PldPmf& pld, double delta);

}  // namespace dpaudit
