// The privacy-loss distribution (PLD) of one step of a mixture-of-Gaussians mechanism and its
// two discretisations on the lattice {k h}, as pld_gaussian.hpp's for the subsampled Gaussian:
// the noise N(0, sigma^2) added to a sum to which the record contributes K times its (unit)
// sensitivity, K = k_i with probability p_i (k_i >= 0, not all 0). With N_k = N(k, sigma^2):
//   remove (D has the record): P = sum_i p_i N_{k_i}, Q = N_0,
//     L(x) = log sum_i p_i e^((2 k_i x - k_i^2) / (2 sigma^2)), increasing and convex;
//   add (D' has it), mirrored x -> -x: P = N_0, Q = sum_i p_i N_{-k_i},
//     L(x) = -log sum_i p_i e^((-2 k_i x - k_i^2) / (2 sigma^2)), increasing and concave.
// The losses are log-sum-exps (every term in log space), inverted numerically (safeguarded
// Newton). K ~ Binomial(1, q) is the subsampled Gaussian (pld_gaussian.hpp), and it agrees
// with it; dp_accounting's MixtureGaussianPrivacyLoss (from_mixture_gaussian_mechanism) is the
// same pair, its sensitivities the k_i.
//
// Two uses (binomial_mixture):
//   - gradient accumulation: one noisy step over the sum of m micro-batches, each Poisson-
//     sampled at rate q: K ~ Binomial(m, q), composed over the steps;
//   - the last-iterate heuristic of Steinke et al. 2025 ("The last iterate advantage"): T
//     steps at noise multiplier s and rate q, only the final model released, under linear
//     losses: N(0, T s^2) against N(K, T s^2), K ~ Binomial(T, q), one mechanism.
//
// Truncation: the far tails of K (total probability `dropped`, an upper bound) are left out,
// soundly either way: the pessimistic PMF puts the dropped P-mass (remove) at +inf, and with
// the dropped Q-mass (add) left out the kept pair is dominating (the Q-mass sits on an outcome
// that P never produces); the optimistic PMF drops the P-mass (a lower mass at a lower loss),
// and merges each cell at the loss log(P(cell) / (Q(cell) + dropped)), a lower bound on its
// true merged loss. Both only move delta the safe way.
#pragma once
#include <vector>

#include "accounting/pld_gaussian.hpp"
#include "accounting/pld_pmf.hpp"

namespace dpaudit {

struct MixturePair {
  double sigma;                         // noise standard deviation over the unit sensitivity
  std::vector<double> sensitivity;      // the k_i, >= 0 and finite, one at least > 0
  std::vector<double> log_probability;  // log p_i, finite and <= 0
  double dropped = 0;                   // probability left out: sum p_i in [1 - dropped, 1]
  Adjacency adjacency = Adjacency::remove;
};

// K ~ Binomial(m, q) at noise sigma, its two tails cut where each holds at most tail / 2 (a
// geometric bound on the rest, recorded in `dropped`); tail 0 keeps every k. q = 1 is one
// component, k = m. UsageError for sigma <= 0, m < 1, q outside (0,1], tail outside [0, 0.5),
// and more than 65,536 values of K kept (T q (1 - q) above about 10^7 at the accountant's tails).
MixturePair binomial_mixture(double sigma, long long m, double q, Adjacency adjacency, double tail);

// delta(eps) of one step, P(L > eps) - e^eps Q(L > eps) from Gaussian tails in log space,
// plus the dropped P-mass: exact where nothing was dropped, an upper bound otherwise.
// UsageError for an invalid pair (as below) or a NaN eps.
double mixture_pair_delta(const MixturePair& pair, double eps);

// Mean and variance of the loss under P (Simpson's rule over +-12 standard deviations of
// every component); the accountant sizes its lattice with them.
LossMoments mixture_loss_moments(const MixturePair& pair);

// About how many lattice points of spacing h one step's discretisations take (pld_gaussian's
// step_points).
double step_points(const MixturePair& pair, double h, double tail);

// Connect the dots (a dominating pair) and merged cells (a dominated pair), as pld_gaussian's
// pessimistic_pld and optimistic_pld, the truncation above included. UsageError for sigma
// <= 0, sizes that differ, a sensitivity < 0 or none > 0, probabilities that do not add up
// to [1 - dropped, 1] (1e-9 slack), a lattice h <= 0 or tail outside (0, 0.5).
PldPmf pessimistic_pld(const MixturePair& pair, double h, double tail);
PldPmf optimistic_pld(const MixturePair& pair, double h, double tail);

}  // namespace dpaudit
