// Adaptive clipping of Andrew et al. (2021), "Differentially private learning with
// adaptive clipping" (Andrew et al. 2024, Sec. 5.1 trains with it): the clip norm C follows a
// target quantile gamma of the clients' update norms through a private geometric update,
//   b_bar = (sum_i 1[||Delta_i|| <= C] + N(0, sigma_b^2)) / m,
//   C <- C exp(-eta (b_bar - gamma))                       (their Alg. 1, geometric rule).
// The count query spends part of the privacy budget: for the whole round to have noise
// multiplier z, the updates get z_Delta = (z^-2 - (2 sigma_b)^-2)^(-1/2) (their Thm 1).
#pragma once
#include <cstddef>
#include <vector>

#include "random/philox_stream.hpp"

namespace dpaudit {

class AdaptiveClip {
 public:
  // UsageError for initial clip <= 0, quantile outside [0, 1], learning rate < 0, or a
  // count noise sigma_b < 0.
  AdaptiveClip(double initial_clip, double target_quantile, double learning_rate,
               double count_noise_std);
  double clip() const { return clip_; }
  // One round: norms of the m participants' unclipped updates (canaries report their
  // projected norm, C itself). A round without participants leaves C unchanged.
  void update(const std::vector<double>& norms, PhiloxStream& noise);

 private:
  double clip_, quantile_, learning_rate_, count_noise_std_;
};

// z_Delta = (z^-2 - (2 sigma_b)^-2)^(-1/2); UsageError when 2 sigma_b <= z (the count
// query alone would need more than the whole budget). z = 0 stays 0.
double adaptive_update_noise_multiplier(double z, double count_noise_std);

}  // namespace dpaudit
