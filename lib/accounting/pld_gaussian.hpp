// The privacy-loss distribution (PLD) of one step of the Gaussian mechanism (L2
// sensitivity 1, noise standard deviation sigma) on a Poisson subsample with rate q,
// in each adjacency direction, and its two discretisations on the lattice {k h}: a
// pessimistic one (a dominating pair: every delta(eps) of every composition is at
// least the true one) and an optimistic one (a dominated pair: at most the true one).
//
// The pairs (Koskela, Jalko & Honkela 2020; Zhu, Dong & Wang 2022, Poisson subsampling), with
// N0 = N(0, sigma^2), N1 = N(1, sigma^2) and u(x) = (2x - 1) / (2 sigma^2) the log of
// the density ratio N1/N0 at x:
//   remove (D has the record, D' not): P = (1-q) N0 + q N1, Q = N0,
//     L(x) = log(1 - q + q e^u), increasing, from log(1-q) to +inf;
//   add (D' has it), mirrored x -> 1 - x: P = N1, Q = q N0 + (1-q) N1,
//     L(x) = -log(1 - q + q e^-u), increasing, from -inf to -log(1-q).
// q = 1 is the Gaussian mechanism, L = u in both directions.
#pragma once
#include "accounting/pld_pmf.hpp"

namespace dpaudit {

enum class Adjacency { remove, add };

struct GaussianPair {
  double sigma;  // > 0
  double q;      // in (0, 1]
  Adjacency adjacency;
};

// The exact delta(eps) of one step: P(L > eps) - e^eps Q(L > eps), from Gaussian
// tails in log space. Throws UsageError for sigma <= 0, q outside (0,1], NaN.
double gaussian_pair_delta(const GaussianPair& pair, double eps);

// Mean and variance of the privacy loss under P (the first is KL(P||Q)), by Simpson's
// rule over +-12 standard deviations; the accountant sizes its lattice with them.
struct LossMoments {
  double mean;
  double variance;
};
LossMoments privacy_loss_moments(const GaussianPair& pair);

// Pessimistic: "connect the dots" (Doroshenko et al. 2022). The outcomes whose
// loss lies in (l_k, l_{k+1}] = (k h, (k+1) h] are split between the two lattice
// points so that both the P-mass and the Q-mass (= E_P[e^-L]) are kept:
//   to l_{k+1}: b = H_k(l_k) / (1 - e^-h),   to l_k: a = -H_k(l_{k+1}) / (e^h - 1),
// with H_k(l) = P(cell) - e^l Q(cell). The true pair is a post-processing of the
// discrete one (each outcome x is drawn back from the point it was split to), so the
// discrete pair dominates, and so do its compositions. Outcomes with P-mass below
// `tail` on the left are moved up to the lowest point, on the right to +inf: both
// only raise delta.
PldPmf pessimistic_pld(const GaussianPair& pair, double h, double tail);

// About how many lattice points of spacing h the discretisations of one step take: the
// span of the loss between the two tails over h (computed without building them, in
// double: it may be far beyond what could be built).
double step_points(const GaussianPair& pair, double h, double tail);

// Optimistic: the outcomes are merged into consecutive cells (a, b] chosen so that
// each cell's merged loss log(P(a,b] / Q(a,b]) is exactly a lattice point k h (in
// practice at or just above it, and rounded down to it; the last cell, which cannot
// reach a point of its own, is rounded down). Merging is a post-processing
// of the true pair, so the discrete pair is dominated, and so are its compositions
// (Blackwell; Dong, Roth & Su 2022, Prop. 2.8). The two tails (P-mass below `tail`
// each) are dropped, which only lowers delta.
PldPmf optimistic_pld(const GaussianPair& pair, double h, double tail);

}  // namespace dpaudit
