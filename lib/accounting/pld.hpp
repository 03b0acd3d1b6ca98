// Privacy-loss-distribution (PLD) accountant for DP-SGD-style runs: heterogeneous
// segments of the Gaussian mechanism on Poisson subsamples or on fixed-size batches drawn
// without replacement (replace-one neighbours; lib/accounting/event.hpp, pld.cpp's
// step_pair),
// composed exactly up to a discretisation whose error is bounded on both sides
// (Koskela, Jalko & Honkela 2020; Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022;
// the method of Google's dp_accounting and Microsoft's prv_accountant). Every answer is
// an interval [lower, upper] that contains the true value of the mechanism:
//   upper: "connect the dots" (a dominating pair), composed by FFT; the Chernoff bound
//          on the mass the FFT window folds back and a proven bound on the FFT's roundoff
//          (pld_compose.hpp) are added;
//   lower: merged outcomes (a dominated pair), composed likewise, the same terms taken off.
// Both adjacency directions (add and remove one record) are composed separately and the
// worse is reported: delta(eps) = max of the two deltas, eps(delta) = max of the two eps.
// Without replacement one pair dominates both orders of replace-one neighbours (the remove
// pair at half the sigma): it is composed in both.
//
// Mixture events (AccountingEvent::micro > 1, Poisson only; lib/accounting/event.hpp): each
// step is the mixture-of-Gaussians pair of K ~ Binomial(micro, q) (pld_mixture.hpp: gradient
// accumulation, or one release of the last-iterate heuristic), discretised and composed with the
// other segments the same way, both directions, with the same proven interval; q = 1 is the
// Gaussian mechanism at sigma / micro. Segments with micro-batches are never merged (a larger q
// is not shown to dominate a mixture): beyond max_segments distinct segments they are refused.
//
// The lattice spacing h is chosen from the events, not fixed: both discretisations move
// the composed privacy loss's variance by about sum_i T_i min(h^2/6, h s_i/2) (s_i the
// standard deviation of one step's loss: cells of width h, or mass below h split over
// a whole step), and h is the largest spacing that keeps this below
// `relative_variance_error` (1e-4 by default) of the composed variance sum_i T_i s_i^2.
// A spacing fixed in absolute terms (dp_accounting's default 1e-4) is far coarser than
// s_i = q sqrt(e^(1/sigma^2) - 1) when q is small, and then its composition can come out
// above RDP; relative to s_i it stays below it. When the composition would need more
// than `max_points` lattice points, h grows to fit (a wider, still sound, interval).
// A fixed spacing (`lattice`, as dp_accounting's value_discretization_interval) replaces the
// choice: the interval stays sound at any h, only its width changes.
//
// The work is bounded whatever the input: one step's discretisation has at most
// `max_points` points and all of them together at most 2^24 (h grows to fit); more than
// `max_segments` distinct (sigma, q) are merged in groups of neighbours (merged_from), each
// group at its smallest sigma and largest q for the upper end, the other way for the lower.
#pragma once
#include <cstddef>
#include <vector>

#include "accounting/event.hpp"
#include "accounting/pld_compose.hpp"

namespace dpaudit {

struct PldOptions {
  double relative_variance_error = 1e-4;
  // The lattice spacing h, fixed; 0 = chosen from the events as above. Still grown where
  // the composition would need more than max_points.
  double lattice = 0;
  std::size_t max_points = std::size_t{1} << 21;  // about 100 MB a composition at the peak
  // Distinct (sigma, q) beyond which the segments are merged in groups (merged_from).
  std::size_t max_segments = 1024;
  // Threads over the one-step PLDs and the (up to four) compositions; 0 = all cores. The
  // result does not depend on it; the peak memory grows with it (a window per composition).
  int threads = 1;
  // The FFT's roundoff moves every delta by at most a proven bound (pld_compose.hpp),
  // added to the upper end and taken off the lower one; a composition whose bound in double
  // arithmetic exceeds this is computed again in long double (5x the time, 2^-11 the bound).
  // Callers that know their delta set about 1e-4 of it (analytic_epsilon, calibration).
  double roundoff_delta = 1e-12;
};

// The options of a PLD read at one delta: `threads`, `lattice` (0: chosen), and the FFT's
// roundoff held to 1e-4 of delta, so that it moves the answer negligibly.
PldOptions pld_options_at(double delta, int threads, double lattice);

// An interval that contains the true value.
struct PldInterval {
  double upper;
  double lower;
};

class PldAccountant {
 public:
  // Throws UsageError for no events, sigma <= 0, q outside (0,1], steps < 1, NaN/Inf, micro < 1
  // or micro > 1 without Poisson sampling, a lattice < 0 or not finite; DataError where no
  // lattice fits (a loss beyond double's range), and more than max_segments distinct segments
  // some of which have micro-batches (UsageError).
  explicit PldAccountant(const std::vector<AccountingEvent>& events,
                         const PldOptions& options = {});

  // eps for a target delta in (0,1): upper may be +inf (a loss of +inf has probability
  // above delta), lower is >= 0.
  PldInterval epsilon(double delta) const;
  // delta for eps >= 0.
  PldInterval delta(double eps) const;
  // The same at each of `eps` (ascending), in one scan of each composition (pld_deltas).
  std::vector<PldInterval> delta(const std::vector<double>& eps) const;
  // The lattice spacing h the compositions used.
  double lattice_spacing() const { return h_; }
  // Above max_segments distinct (sigma, q), the segments are merged into max_segments groups
  // of neighbours (one more where both samplings occur), each at its smallest sigma and largest q
  // for the upper end and the other way for the lower end (a wider interval, still sound): the
  // number of distinct segments merged, or 0 where they were not.
  std::size_t merged_from() const { return merged_from_; }

 private:
  struct Direction {
    ComposedPld pessimistic, optimistic;
    double lower_slack;  // taken off the optimistic delta: outside mass and roundoff
  };
  std::vector<Direction> directions_;  // remove, then add when some q < 1
  double h_ = 0;
  std::size_t merged_from_ = 0;
};

// The smallest noise multiplier whose `steps` steps at rate q have PLD upper bound
// eps(delta) <= eps: bisection on log sigma to 1e-5 relative, between 1e-4 and 1e6
// (UsageError outside, as rdp_sigma_for_epsilon); the roundoff may take up to 1e-4 of delta.
double pld_sigma_for_epsilon(double eps, double q, long long steps, double delta,
                             const PldOptions& options = {}, Sampling sampling = Sampling::poisson);

}  // namespace dpaudit
