#include "mechanisms/fedavg_server.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace dpaudit {

double l2_norm(const double* x, std::size_t n) {
  // Scaled sum of squares: no overflow for huge entries, no underflow for tiny ones.
  double scale = 0, ssq = 1;
  for (std::size_t i = 0; i < n; ++i) {
    const double a = std::fabs(x[i]);
    if (a == 0) continue;
    if (scale < a) {
      ssq = 1 + ssq * (scale / a) * (scale / a);
      scale = a;
    } else {
      ssq += (a / scale) * (a / scale);
    }
  }
  return scale * std::sqrt(ssq);
}

double clip_to_norm(double* x, std::size_t n, double bound) {
  const double norm = l2_norm(x, n);
  if (norm > bound) {
    const double factor = bound / norm;
    for (std::size_t i = 0; i < n; ++i) x[i] *= factor;
  }
  return norm;
}

void project_to_norm(double* x, std::size_t n, double norm) {
  const double current = l2_norm(x, n);
  if (current == 0) throw DataError("cannot project a zero vector to a sphere");
  const double factor = norm / current;
  for (std::size_t i = 0; i < n; ++i) x[i] *= factor;
}

UpdateSum::UpdateSum(std::size_t dim) : sum_(dim, 0.0) {}

void UpdateSum::add(const double* update) {
  for (std::size_t i = 0; i < sum_.size(); ++i) sum_[i] += update[i];
  ++count_;
}

std::vector<double> UpdateSum::release(double noise_std, PhiloxStream& noise) const {
  std::vector<double> out(sum_.size(), 0.0);
  if (noise_std > 0) noise.fill_normal(out.data(), out.size());
  const double inv_m = 1.0 / static_cast<double>(std::max<std::size_t>(count_, 1));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = (sum_[i] + noise_std * out[i]) * inv_m;
  return out;
}

ServerOptimizer::ServerOptimizer(std::size_t dim, double learning_rate, double momentum)
    : learning_rate_(learning_rate), momentum_(momentum), velocity_(dim, 0.0) {}

void ServerOptimizer::step(const std::vector<double>& rho_bar, double* theta) {
  for (std::size_t i = 0; i < velocity_.size(); ++i) {
    velocity_[i] = momentum_ * velocity_[i] + rho_bar[i];
    theta[i] += learning_rate_ * velocity_[i];
  }
}

}  // namespace dpaudit
