// The lattice bookkeeping that the one-step PLD discretisations share (pld_gaussian.hpp for
// the subsampled Gaussian, pld_mixture.hpp for a mixture of Gaussians): lattice indices of a
// loss, the limits on one step's points, the PMF of (index, mass) atoms with every mass
// checked, the rounding deficit of a pessimistic PMF sent to +inf, the root search that
// closes an optimistic cell at a lattice point, and the moments of a loss by Simpson's rule.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "accounting/pld_gaussian.hpp"
#include "accounting/pld_pmf.hpp"

namespace dpaudit::pld_cells {

// k = ceil(l / h) or floor(l / h) as an integer; DataError beyond 2^40 points.
long long index_above(double l, double h);
long long index_below(double l, double h);

// UsageError unless h > 0 is finite and tail in (0, 0.5).
void check_lattice(double h, double tail);

// More lattice points than this in one step is a discretisation that cannot be composed.
constexpr long long kMaxStepPoints = 1LL << 26;

// A pessimistic PMF's lattice from index k_lo to k_hi, all masses 0: a DataError naming the
// pair (`what`) when it has kMaxStepPoints or more. And the logs of the connect-the-dots
// splits' denominators, log(1 - e^-h) (up) and log(e^h - 1) (down), without overflowing e^h.
PldPmf empty_lattice(double h, long long k_lo, long long k_hi, const std::string& what);
struct SplitLogs {
  double up, down;
};
SplitLogs split_logs(double h);

// Every mass finite and >= 0, or a DataError naming the pair (`what`, e.g. "sigma 1, q 0.1";
// never a silent NaN).
PldPmf checked(PldPmf pld, const std::string& what);

// The PMF of (lattice index, P-mass) atoms, the masses at one index added, checked.
PldPmf pmf_of_atoms(const std::vector<std::pair<long long, double>>& atoms, double h,
                    const std::string& what);

// Rounding in ~1e6 cell masses can lose ~1e-12 of the total: a pessimistic PMF's deficit
// below 1 goes to +inf (the total by Neumaier's compensated sum, so that its own rounding is
// not counted).
void deficit_to_infinity(PldPmf& pld);

// Where the optimistic cell from the anchor reaches the lattice point u_k: safeguarded
// Newton from x for the root of the probe's g (the cell's merged loss minus the point, in the
// discretisation's own units; it rises in x), accepting 0 <= g <= tol, inside the bracket
// g(lo) < 0 <= g(hi). Not found when even the cell up to `end` stays below it (end_checked)
// or the bracket is spent. A probe has g and slope = dg/dx.
template <class Probe>
struct CellEnd {
  double x;
  Probe pr;
  bool found, end_checked;
};

template <class ProbeAt>
auto cell_end(const ProbeAt& probe, double u_k, double lo, double hi, double x, double end,
              bool upward, double tol) -> CellEnd<decltype(probe(x, u_k))> {
  bool end_checked = false;
  decltype(probe(x, u_k)) pr{};
  bool found = false;
  for (int iter = 0; iter < 200; ++iter) {
    if (!(x > lo && x < hi)) {  // outside the bracket: check the far end once, then bisect
      if (!end_checked) {
        end_checked = true;
        pr = probe(end, u_k);
        if (upward ? pr.g < 0 : pr.g >= 0) break;  // the rest cannot cross k h
      }
      x = 0.5 * (lo + hi);
    }
    pr = probe(x, u_k);
    if (pr.g >= 0 && pr.g <= tol) {
      found = true;
      break;
    }
    (pr.g < 0 ? lo : hi) = x;
    x -= (pr.g - 0.5 * tol) / pr.slope;
    if (hi - lo <= 1e-15 * std::max(std::abs(lo), std::abs(hi))) {  // bracket exhausted: take hi
      x = hi;
      pr = probe(x, u_k);
      found = pr.g >= 0;
      break;
    }
  }
  return {x, pr, found, end_checked};
}

// Mean and variance of loss(x) under the density e^log_density(x) on [lo, hi], by Simpson's
// rule on 4000 intervals (the density need not be normalised).
template <class LogDensity, class Loss>
LossMoments simpson_moments(double lo, double hi, const LogDensity& log_density,
                            const Loss& loss_at) {
  constexpr int kIntervals = 4000;  // even, for Simpson's rule
  const double dx = (hi - lo) / kIntervals;
  std::vector<double> weight(kIntervals + 1), loss(kIntervals + 1);
  double m0 = 0, m1 = 0;
  for (int i = 0; i <= kIntervals; ++i) {
    const double x = lo + i * dx;
    weight[i] = ((i == 0 || i == kIntervals) ? 1 : (i % 2 ? 4 : 2)) * std::exp(log_density(x));
    loss[i] = loss_at(x);
    m0 += weight[i];
    m1 += weight[i] * loss[i];
  }
  const double mean = m1 / m0;
  double m2 = 0;  // about the mean: the spread can be 1e-20 of the mean (sigma 1e-10)
  for (int i = 0; i <= kIntervals; ++i) m2 += weight[i] * (loss[i] - mean) * (loss[i] - mean);
  return {mean, m2 / m0};
}

}  // namespace dpaudit::pld_cells
