// The confidence interval of gauss-fit's eps_est (Andrew et al. 2024, Alg. 3: a Gaussian
// fitted to each class, then the exact two-Gaussian eps at delta) that eps-from-scores
// --bootstrap reports: the range of eps over a confidence region of the fitted
// parameters, the region's shape from the bootstrap.
//
// Why not BCa (Efron 1987), which this replaced. eps_est = F(d, g) depends on the fits
// only through d = (mu_in - mu_out) / s_out and g = log(s_in / s_out) (eps is invariant
// under affine maps of the score). At g = 0, the equal spreads of the Gaussian mechanism
// that an audit usually meets, F has a kink: unequal variances give an unbounded privacy
// loss in one direction, so eps grows as g leaves 0 either way, with slopes of ~20-50
// per unit of g at delta 1e-5 (against ~5-7 per unit of d). Locally
//   F(d, g) ~ F(d0, 0) + a (d - d0) + c+- |g|,
// and the noise of g-hat (sd sqrt(1/(2 n_in) + 1/(2 n_out))) enters through |g-hat|:
// eps_est is biased upward by about 0.8 c sd(g-hat) (6.5-14% of eps at 10^3 scores per
// class, 2-4% at 10^4) and its sampling distribution is a folded normal. Such a
// functional is not differentiable at the truth, and no bootstrap that resamples eps
// itself is consistent there (Andrews 2000; Fang & Santos 2019): a replicate's |g*|
// scatters about |g-hat|, not about 0, so the replicates sit above eps_est (z0 about
// -0.6), BCa pushes its lower end down to the outermost replicates (the "B limits it"
// note in 28-33% of runs) and still leaves it above the truth in 14-22% of runs: 77-85%
// coverage for a nominal 95% (500 simulated audits per cell, N(0,1) out against N(mu,1)
// in, mu 1-3, 10^3 and 10^4 scores per class: bench/bootstrap_coverage.md). Nor can any estimator
// of eps_est be unbiased at a kink (Hirano & Porter 2012), so the bias is stated, not removed (the
// replicates' mean is reported beside eps_est).
//
// The interval: the range of F over the ellipse
//   E = {phi : (phi - phi-hat)' S^-1 (phi - phi-hat) <= r^2},  phi = (d, g),
// S the covariance of phi over the B stratified bootstrap resamples (no normality of
// the scores needed for the spread of the fits; F itself is the Gaussian model's), F's
// minimum and maximum on E found on its boundary (F grows with |d| and with |g| on each
// side of the kink, so neither extremum lies inside E except F = 0 at phi = 0) by a grid
// of angles, the boundary's crossings of the kink lines g = 0 and d = 0, and a golden-
// section refinement. Projecting a region through F is valid whatever the geometry,
// kink or not, so one radius serves every case. With phi-hat - phi ~ N(0, S), in the
// coordinates where S = I:
// - where F is smooth (|g| >> sd(g-hat)), the sublevel set {F <= eps} is a half-plane and
//   each end misses with probability Q(r) = 1 - Phi(r);
// - at the kink (g = 0) it is a wedge; in the least favourable case, the g-term
//   dominating (the wedge a half-line), the upper end never misses and the lower end
//   misses when phi-hat lies farther than r from the half-line: probability
//   Q(r) + exp(-r^2/2) / 2 (half the plane at distance > r from the end point, chi^2_2;
//   the other half at distance |v| > r from the line).
// r solves Q(r) + exp(-r^2/2) / 2 = alpha, so that the least favourable case has exactly
// the nominal coverage 1 - alpha; r = 2.2668 for alpha = 0.05. Everywhere else the
// sublevel sets are larger wedges and the interval errs on the safe side: coverage
// 1 - 2 Q(r) = 97.7% where F is smooth. Measured on the cells above: 93.8-96.6% (every
// miss at the lower end); with s_in = 1.1 (smooth), 96.8-97.6%.
//
// With an analytic null (Andrew et al. 2024, Alg. 2) only the in scores are sampled: phi = (mu_in,
// log s_in), F the null-vs-Gaussian eps, kink lines mu = 0 and s_in = 1/sqrt(dim) (the
// null's spread).
#pragma once
#include <array>
#include <cstddef>
#include <functional>
#include <vector>

#include "stats/bootstrap.hpp"
#include "stats/epsilon_estimators.hpp"
#include "stats/scores.hpp"

namespace dpaudit {

// r with 1 - Phi(r) + exp(-r^2/2) / 2 = alpha (above). UsageError unless 0 < alpha < 1.
double fit_region_radius(double alpha);

// A line of the plane where a coordinate takes a value: x[coordinate] = value.
struct AxisLine {
  int coordinate;  // 0 or 1
  double value;
};

struct EllipseRange {
  double lower = 0;
  double upper = 0;
  std::array<double, 2> argmin{};  // where f takes them
  std::array<double, 2> argmax{};
};

// The minimum and maximum of f over the ellipse {x : (x - center)' S^-1 (x - center) <=
// r^2}, S = {{s11, s12}, {s12, s22}} symmetric positive semidefinite (a degenerate S
// gives a segment or the centre). f must be continuous, smooth on the boundary except
// where it crosses `kinks`, and without a local extremum inside the ellipse except at
// `points` (evaluated when inside). f may return +inf, not NaN. UsageError for r < 0 or
// an S that is not positive semidefinite.
EllipseRange range_over_ellipse(const std::array<double, 2>& center,
                                const std::array<double, 3>& s11_s12_s22, double r,
                                const std::function<double(const std::array<double, 2>&)>& f,
                                const std::vector<AxisLine>& kinks,
                                const std::vector<std::array<double, 2>>& points);

struct GaussFitInterval {
  double estimate = 0;  // eps_est on the scores (estimate_epsilon)
  double lower = 0;     // the two-sided 1 - alpha interval
  double upper = 0;
  double radius = 0;               // r = fit_region_radius(alpha)
  std::array<double, 2> center{};  // phi-hat: (d, g), or (mu_in, log s_in) against a null
  std::array<double, 3>
      covariance{};            // S over the replicates: var phi_1, cov, var phi_2 (divisor B - 1)
  std::size_t replicates = 0;  // B
  double replicate_mean = 0;   // mean of eps_est on the resamples (inf when one is)
  double standard_error = 0;   // their sd (divisor B - 1; inf when one is inf)
};

// The interval above for estimate_epsilon(scores, options) with options.method =
// gauss_fit, at 1 - options.alpha, from boot.replicates resamples (for_each_resample:
// the resamples bootstrap_epsilon evaluates, seeded by boot.seed; the jackknife is not
// used); byte-identical for any boot.threads. With a null only the in scores are
// resampled. UsageError for another method or B < 2; the estimator's errors on the
// scores pass unchanged; on a resample (e.g. all its in scores equal) they become a
// DataError naming the replicate.
GaussFitInterval gauss_fit_interval(const ScoreSet& scores, const EstimatorOptions& options,
                                    const BootstrapOptions& boot);

}  // namespace dpaudit
