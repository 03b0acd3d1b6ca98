#include "mechanisms/adaptive_clip.hpp"

#include <cmath>
#include <string>

#include "core/error.hpp"

namespace dpaudit {

AdaptiveClip::AdaptiveClip(double initial_clip, double target_quantile, double learning_rate,
                           double count_noise_std)
    : clip_(initial_clip),
      quantile_(target_quantile),
      learning_rate_(learning_rate),
      count_noise_std_(count_noise_std) {
  if (!(initial_clip > 0) || !std::isfinite(initial_clip))
    throw UsageError(Pattern{"clip norm must be positive"}, "{clip}");
  if (!(target_quantile >= 0 && target_quantile <= 1))
    throw UsageError(Pattern{"target quantile must be in [0, 1]"}, "{target_quantile}");
  if (!(learning_rate >= 0) || !std::isfinite(learning_rate))
    throw UsageError(Pattern{"clip learning rate must be >= 0"}, "{clip_lr}");
  if (!(count_noise_std >= 0) || !std::isfinite(count_noise_std))
    throw UsageError(Pattern{"count noise must be >= 0"}, "{clip_count_noise}");
}

void AdaptiveClip::update(const std::vector<double>& norms, PhiloxStream& noise) {
  if (norms.empty()) return;
  double below = 0;
  for (double n : norms) below += n <= clip_ ? 1.0 : 0.0;
  const double b_bar =
      (below + count_noise_std_ * noise.normal()) / static_cast<double>(norms.size());
  clip_ *= std::exp(-learning_rate_ * (b_bar - quantile_));
}

double adaptive_update_noise_multiplier(double z, double count_noise_std) {
  if (z == 0) return 0;
  if (!(2 * count_noise_std > z))
    throw UsageError(Pattern{"count noise " + std::to_string(count_noise_std) +
                             " must exceed half the noise multiplier " + std::to_string(z)},
                     "{clip_count_noise}");
  return 1.0 / std::sqrt(1.0 / (z * z) - 1.0 / (4 * count_noise_std * count_noise_std));
}

}  // namespace dpaudit
