// A certified LOWER bound on the privacy of DP-SGD with shuffled batches (Chua, Ghazi, Kamath,
// Kumar, Manurangsi, Sinha & Zhang 2024, "How private are DP-SGD implementations?", ICML 2024):
// every epoch a uniform permutation of the n records is cut into B batches of n/B, one noisy
// sum a batch (Gaussian noise of standard deviation s times the clip norm), E epochs, each
// reshuffled independently. No upper bound is known that is tight for it; this is what the
// mechanism provably leaks at least, to set beside the Poisson bound that pipelines report.
//
// Adjacency. Chua et al. use zero-out neighbours: D' is D with one record replaced by a null
// record whose gradient is 0. The data set keeps its size, so the batches keep theirs; for
// Poisson sampling it is the same as add/remove-one (a null record changes nothing), whose
// bound (pld.hpp at q = 1/B over E B steps) is the one compared with. This file uses the same.
//
// The pair. The adversary fixes every other record's (clipped) gradient at -1 and the
// differing record's at +1 (one coordinate; a linear loss, so the gradient does not depend on
// the model and all iterates are post-processings of the noisy sums). In an epoch the record
// falls in one batch, uniformly at random; after adding b (the batch size) to every sum, the
// epoch's B sums are, in units of the clip norm,
//   under D  (record present): P = (1/B) sum_t N(2 e_t, s^2 I_B),
//   under D' (record zeroed):  Q = (1/B) sum_t N(1 e_t, s^2 I_B)
// (the batch with the null record sums to -(b-1), one more than the others' -b). The test
// statistic is the largest sum of the epoch, M = max_t X_t (Chua et al.'s "cube" sets), whose
// law is exact in closed form:
//   P(M <= c) = Phi((c - mu) / s) Phi(c / s)^(B-1),   mu = 2 under P, 1 under Q.
// M is a post-processing of an epoch's release, the epochs are independent, so for every eps
// the hockey-stick divergence of the E-fold product of (law of M under P, under Q) is at most
// the mechanism's delta(eps): a lower bound on delta(eps), and on eps(delta). The other order,
// (Q, P), is a lower bound too, but with this statistic (which looks at the upper tail, where
// P is heavier) it came out far below (P, Q) in every case tried (e.g. 9.3 against 15.2 at
// s 1, B 10, E 10, delta 1e-5): it is not computed.
//
// The discretisation is dominated, so that the composition stays a lower bound: the real line
// of M is cut into slices (the loss moves by at most ~h/4 across one) plus the two tails, and
// the slices, in the order of their privacy loss, are merged into cells whose merged loss
// log(P(cell) / Q(cell)) is at or just above a lattice point k h (merging is a
// post-processing: Blackwell; Dong, Roth & Su 2022); each cell's loss is then rounded DOWN to
// its lattice point after taking off a bound on the computed loss's rounding error (propagated
// from the log-CDFs, log_normal_cdf taken as accurate to 16 units in the last place); an
// outcome whose mass underflows to 0 is dropped.
// delta(eps) = E_P[(1 - e^(eps - L))_+] only falls when a loss falls, and losses add under
// composition, so the rounded, composed PLD's delta is at most the pair's. The E epochs are
// composed by FFT (pld_compose.hpp); its outside mass and roundoff bound are taken off each
// delta (composition_slack), as the PLD accountant's lower end does (pld.hpp).
//
// B = 1 is the Gaussian mechanism (N(2, s^2) against N(1, s^2)) composed E times, whose exact
// eps the bound approaches from below (analytic_gaussian.hpp).
#pragma once
#include <cstddef>

#include "accounting/pld_compose.hpp"

namespace dpaudit {

struct ShuffledRun {
  double noise_multiplier;  // s > 0: the noise standard deviation over the clip norm
  long long batches;        // B >= 1 batches an epoch
  long long epochs;         // E >= 1
};

struct ShuffleLowerBoundOptions {
  // The lattice spacing h by the PLD accountant's rule (pld.hpp): the largest that moves the
  // composed loss's variance by at most this fraction, or `lattice` where > 0. 100 times
  // finer than the accountant's 1e-4: a lower bound is read against an upper one, and the
  // one-dimensional pair is cheap (0.05-0.8 s at 1e-6; 1e-4 left the bound 5e-4 below the
  // pair's exact eps at s 1, B 10, E 10).
  double relative_variance_error = 1e-6;
  double lattice = 0;
  std::size_t max_points = std::size_t{1} << 21;  // h grows to fit (a lower bound still)
  double roundoff_delta = 1e-12;                  // as PldOptions::roundoff_delta
};

class ShuffleLowerBound {
 public:
  // UsageError for s not > 0 or not finite, B < 1, E < 1, a lattice < 0 or not finite;
  // DataError where the composition needs more than max_points after 8 widenings.
  explicit ShuffleLowerBound(const ShuffledRun& run, const ShuffleLowerBoundOptions& options = {});

  // The certified lower bound on the mechanism's eps at delta in (0, 1) (>= 0).
  double epsilon(double delta) const;
  // The certified lower bound on the mechanism's delta at eps >= 0 (>= 0).
  double delta(double eps) const;
  double lattice_spacing() const { return h_; }

 private:
  ComposedPld composed_;
  double slack_ = 0;  // taken off every delta
  double h_ = 0;
};

}  // namespace dpaudit
