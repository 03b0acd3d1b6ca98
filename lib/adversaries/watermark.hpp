// Nasr et al. 2021's gradient watermark, Crafter 4 (gradient canary, Sec. IV-E; reused
// by Crafter 5, the malicious dataset, Sec. IV-F), and the per-step statistics of its
// detector, Distinguisher 3 (Eq. 6).
//
// C4 watches the first t_o steps, M = sum_t |theta_{t+1} - theta_t|, picks the 2n
// coordinates with the smallest M and writes +-C/sqrt(2n) on them with alternating
// signs: a gradient of norm C that the other examples barely touch. D3 projects each
// later update on the same signed coordinates, d_t = sum_p s_p (theta_t -
// theta_{t-1})[p]; normalised so that a lot holding the watermark gives N(1, sigma^2)
// and one without it N(0, sigma^2), the steps' scores are summed (the log of Eq. 6's
// product, or the likelihood ratio that Eq. 6 approximates).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dpaudit {

// The 2n coordinates the adversary writes on, with alternating signs +1, -1, +1, ... in
// increasing coordinate order.
struct Watermark {
  std::vector<std::size_t> coords;
  std::vector<double> signs;
};

// C4 lines 1-2: the 2n = 2 * pairs coordinates with the smallest accumulated movement
// (sum over the observed steps of |theta_{t+1} - theta_t|), ties broken by the lower
// index; coords sorted ascending. Throws std::invalid_argument if pairs == 0,
// 2 * pairs > d, or a movement is NaN.
Watermark select_watermark(const float* movement, std::size_t d, std::size_t pairs);

// C4 lines 3-8: adds the watermark gradient of L2 norm `norm` to grad (d entries):
// grad[c_p] += s_p * norm / sqrt(2n). Zeroing the other entries is the caller's job.
void add_watermark(const Watermark& w, double norm, float* grad);

// D3 lines 10-14: sum_p s_p v[c_p], accumulated in double in coordinate order. The
// watermark itself projects to norm * sqrt(2n).
double watermark_projection(const Watermark& w, const float* v);

// D3's statistic: per step (see watermark_step_score), or per epoch (epoch_max, see
// WatermarkScorer).
enum class WatermarkScore { llr, paper, sum, epoch_max };
// "llr" | "paper" | "sum" | "epoch-max"; anything else is a UsageError naming {score}.
WatermarkScore parse_watermark_score(const std::string& name);
std::string to_string(WatermarkScore score);

// One step's contribution to D3's score, for the step's statistic d normalised so that
// H1 (watermark in the lot) is N(1, sigma^2) and H0 is N(0, sigma^2), and the
// per-step inclusion probability q in [0, 1]; higher means "watermark present".
//  llr:   log(1 - q + q exp(a)), a = (2d - 1) / (2 sigma^2) = log N(d; 1, s^2) - log N(d; 0, s^2):
//         the Neyman-Pearson log-likelihood ratio of "watermark in the lot with
//         probability q" against "never"; log1p(q expm1(a)) while exp(a) is finite
//         (exact for small terms), log q + a + log1p((1 - q) e^-a / q) beyond; q == 1
//         gives a, q == 0 gives 0.
//  paper: log N(d; 1, sigma^2), Eq. 6 as a log density (Eq. 6's normaliser and mean
//         read in these units; its product over steps becomes a sum).
//  sum:   d.
// Unchecked, as it runs once per step of every trial: sigma > 0 and finite, q in [0, 1]
// and d finite are the callers' (SubsampledGaussianGame's validation, dp-train sgd's
// configuration and calibration). Not for epoch_max.
double watermark_step_score(WatermarkScore s, double d, double sigma, double q);

// D3's score of one trial, fed the normalised statistic of every step in order (steps 0 ..
// steps - 1). The per-step scores add watermark_step_score. epoch_max is the test of a
// trainer that shuffles (Chua, Ghazi, Kamath, Kumar, Manurangsi, Sinha & Zhang 2024, "How
// private are DP-SGD implementations?"): with shuffled lots the canary is in exactly one
// step of each epoch of B = epoch_steps steps, uniformly placed, so the epoch's largest
// statistic m is the max of B - 1 draws of N(0, sigma^2) and one of N(1, sigma^2); its
// log-likelihood ratio against "in no step" (the max of B draws of N(0, sigma^2)) is
//   log( (B-1)/B Phi((m-1)/sigma) / Phi(m/sigma) + 1/B exp((2m - 1) / (2 sigma^2)) ),
// summed over the epochs. A last epoch cut short to L < B steps holds the canary with
// probability p = L/B (the trainer's epoch is cut by the end of training): its ratio is
// 1 - p + p r_L(m), r_L the bracket above at L steps. Computed in log space (log Phi of
// accounting/log_space.hpp), finite for every finite m.
class WatermarkScorer {
 public:
  // epoch_steps >= 1 (epoch_max only).
  WatermarkScorer(WatermarkScore score, double sigma, double q, std::uint64_t epoch_steps);
  void add(double d);  // the next step's statistic
  double score();      // after the last step (closes a last, shorter epoch)

 private:
  void close_epoch();
  WatermarkScore kind_;
  double sigma_, q_;
  std::uint64_t epoch_steps_;
  std::uint64_t in_epoch_ = 0;  // steps of the current epoch so far
  double epoch_max_ = 0;
  double total_ = 0;
};

// The log-likelihood ratio of epoch_max for one epoch of `steps` steps holding the canary
// with probability p in (0, 1], at largest statistic m.
double epoch_max_log_ratio(double m, double sigma, std::uint64_t steps, double p);

}  // namespace dpaudit
