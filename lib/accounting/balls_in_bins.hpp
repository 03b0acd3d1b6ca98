// DP-SGD with balls-in-bins batches ("random allocation"): every epoch each record goes to one
// of the epoch's B batches, uniformly and independently of the other records; one noisy sum a
// batch (Gaussian noise of standard deviation s times the clip norm), E epochs, each allocated
// afresh (Chua, Ghazi, Harrison, Leeman, Kamath, Kumar, Manurangsi, Sinha & Zhang 2025,
// "Balls-and-bins sampling for DP-SGD"; Feldman & Shenfeld 2025, "Privacy amplification by
// random allocation"). Unlike shuffling, a record's batch does not depend on the others', so
// add/remove-one neighbours change nothing but that record's one contribution an epoch.
//
// The pair of one epoch (Chua et al. 2025: it dominates the epoch's adaptive steps), in units
// of the clip norm, over the epoch's B sums:
//   remove (D has the record, D' not): P = (1/B) sum_t N(e_t, s^2 I_B), Q = N(0, s^2 I_B),
//     L(x) = log dP/dQ (x) = log sum_t e^(x_t / s^2) - log B - 1 / (2 s^2);
//   add: the pair (Q, P), whose loss at x ~ Q is -L(x).
// The epochs are independent and their losses add. B = 1 is the Gaussian mechanism. No closed
// form of the law of L is known for B > 1, so this file samples it (by symmetry the record is
// taken to be in batch 1 under P), and bounds what sampling cannot see:
//   remove: L <= max_t (x_t - 1/2) / s^2, so by the union bound
//     P(L > l) <= Phi^c((s^2 l - 1/2) / s) + (B - 1) Phi^c((s^2 l + 1/2) / s);
//   and by Chernoff, P(L > l) <= E_P[e^(lambda L)] e^(-lambda l) at every integer lambda >= 1,
//     where E_P[e^(lambda L)] = E_Q[(S / B)^(lambda + 1)], S = sum_t w_t, w_t = e^((x_t - 1/2)/s^2)
//     independent under Q with E[w^k] = e^(k (k - 1) / (2 s^2)): so E[S^a] / a! is the
//     coefficient of z^a in (sum_k E[w^k] z^k / k!)^B, a power of a series of positive terms,
//     computed in log space (lambda up to 64);
//   add: log-mean-exp is at least the mean, L >= (mean_t x_t - 1/2) / s^2, so
//     P(-L > l) <= Phi(sqrt(B) (1/2 - s^2 l) / s).
//
// Strata. The loss is large only where one sum is: sampling it plainly leaves its tail to the
// union bound, which is loose by about log B. The remove direction is therefore sampled in
// strata of the largest centred sum M = max_t y_t (y = x less the record's e_1, B independent
// N(0, s^2)): stratum j holds M in [c_j, c_{j+1}), with P(M >= c_j) = 10^-j (j = 1 .. 9; c_0 =
// -inf, c_10 = +inf), a probability known exactly (P(M < c) = Phi(c/s)^B), and on it
// L <= (c_{j+1} + 1/2) / s^2. Within a stratum M is drawn by inversion and the other B - 1 sums
// from N(0, s^2) conditioned below M (a normal at or above M is replaced by an inverted uniform
// below it: exact, and rare). The add direction, whose tail the bound above already holds
// tight, is one stratum, sampled plainly.
//
// From any bounds U_k >= P(L > l_{k-1}) at the points l_k of a lattice (nonincreasing in k),
// the law that puts mass U_k - U_{k+1} at l_k (U_0 = 1; the last U at +inf) is stochastically
// larger than L's rounded up to the lattice. delta(eps) = E[(1 - e^(eps - S))_+], S the sum of
// the E epochs' losses, is nondecreasing in every loss, and sums of independent stochastically
// larger variables are stochastically larger, so that law composed E times (by FFT,
// pld_compose.hpp, its outside mass and roundoff added) has a delta at least the mechanism's:
// an upper bound wherever the U_k are (lib/stats/balls_in_bins_bound.hpp makes them a
// confidence band from the strata's counts).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "accounting/pld_compose.hpp"
#include "accounting/pld_gaussian.hpp"

namespace dpaudit {

struct BallsInBinsRun {
  double noise_multiplier;  // s > 0
  long long batches;        // B >= 1 batches an epoch
  long long epochs;         // E >= 1
};

// UsageError naming what is wrong: s not > 0 or not finite, B outside [1, 2^20] (a sample
// holds B normals), E < 1.
void check_balls_in_bins(const BallsInBinsRun& run);

// The lattice of one epoch's loss: points l_k = (first + k) h, k = 0 .. points - 1.
struct EpochLossLattice {
  double h = 0;
  long long first = 0;
  std::size_t points = 0;
  double loss(std::size_t k) const {
    return static_cast<double>(first + static_cast<long long>(k)) * h;
  }
};

// log E_P[e^(lambda L)] of the remove direction at lambda = 1 .. 64 (index lambda - 1), as above.
std::vector<double> epoch_log_moments(const BallsInBinsRun& run);

// The analytic bounds above on the probability that one epoch's loss (remove: L under P; add:
// -L under Q) exceeds l, the least of them, in (0, 1]: what no sample shows.
class EpochLossTail {
 public:
  EpochLossTail(const BallsInBinsRun& run, Adjacency adjacency);
  double operator()(double l) const;

 private:
  BallsInBinsRun run_;
  Adjacency adjacency_;
  std::vector<double> log_moment_;  // remove: log E_P[e^(lambda L)], lambda = 1, 2, ...
};

// A stratum of one epoch's outcomes (above): the largest centred sum in [lo, hi), its exact
// probability, and the most the loss can be on it (+inf for the top one).
struct EpochStratum {
  double lo, hi;
  double probability;
  double max_loss;
};
std::vector<EpochStratum> epoch_strata(const BallsInBinsRun& run, Adjacency adjacency);

// Losses of samples [first, first + count) of a stratum (sample i of stratum j of a direction
// d: its normals at words [i B, (i + 1) B) of stream streams::kBallsInBins + 64 d + j, its
// uniforms in stream + 32), rounded UP to the lattice and counted: counts[k] for k < points
// holds the losses in (l_{k-1}, l_k] (k = 0: at or below l_0), counts[points] those above
// l_{points-1}. A pure function of its arguments: the same counts for any `threads` (0 = all
// cores).
std::vector<std::uint64_t> count_epoch_losses(const BallsInBinsRun& run, Adjacency adjacency,
                                              const EpochStratum& stratum, std::size_t index,
                                              const EpochLossLattice& lattice, std::uint64_t seed,
                                              std::uint64_t first, std::uint64_t count,
                                              int threads);

// The lattice for a direction: its spacing a fraction of the epoch loss's standard deviation
// (estimated from `pilot` plain samples of the pilot stream, streams::kBallsInBins + 64 d + 63,
// so that the counted samples stay independent of it), small enough that rounding every
// epoch's loss up moves the E-epoch sum by at most 2% of its standard deviation; from a few
// standard deviations below the pilot's least loss to where EpochLossTail is below 1e-16;
// the spacing grows to fit max_points.
EpochLossLattice epoch_loss_lattice(const BallsInBinsRun& run, Adjacency adjacency,
                                    std::uint64_t seed, std::size_t pilot, std::size_t max_points);

// The E-fold composition of the epoch-loss law with P(L' >= l_k) = survival[k], k = 0 ..
// points (survival[0] = 1, nonincreasing, survival[points] at +inf), as above.
class ComposedEpochs {
 public:
  // UsageError for survival of the wrong size, not in [0, 1] or increasing.
  ComposedEpochs(const EpochLossLattice& lattice, const std::vector<double>& survival,
                 long long epochs);
  // The composition's delta at eps >= 0, its slack included; the smallest eps >= 0 with it
  // at most delta in (0, 1) (+inf where none).
  double delta(double eps) const;
  double epsilon(double delta) const;

 private:
  ComposedPld composed_;  // slack in its inf_mass
};

}  // namespace dpaudit
