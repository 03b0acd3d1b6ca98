// The server side of DP-FedAvg (Andrew et al. 2024, Alg. 2 lines 3-9; McMahan et al. 2018): sum the
// clipped client updates and the canaries' projected updates, add Gaussian noise
// N(0, (z S)^2 I), divide by the number of participants m, and apply the result with
// server SGD with momentum. Pure math on double vectors; dp-train does the local training.
#pragma once
#include <cstddef>
#include <vector>

#include "random/philox_stream.hpp"

namespace dpaudit {

double l2_norm(const double* x, std::size_t n);

// Clip(x; S) = x min(1, S / ||x||) (Andrew et al. 2024, Alg. 2 line 15), in place; returns ||x||
// before.
double clip_to_norm(double* x, std::size_t n, double bound);

// Proj(x; S) = x S / ||x|| (Andrew et al. 2024, Alg. 2 line 17), in place. DataError for x = 0.
void project_to_norm(double* x, std::size_t n, double norm);

// rho of one round: the running sum of (already clipped / projected) updates.
class UpdateSum {
 public:
  explicit UpdateSum(std::size_t dim);
  void add(const double* update);
  std::size_t count() const { return count_; }
  std::size_t dim() const { return sum_.size(); }
  // rho_bar = (rho + N(0, noise_std^2 I)) / max(m, 1) with m = count() (Andrew et al. 2024, Alg. 3
  // line 9); a round without participants (Poisson) releases noise only. Noise from `noise`,
  // coordinate i taking the stream's i-th normal of this call.
  std::vector<double> release(double noise_std, PhiloxStream& noise) const;

 private:
  std::vector<double> sum_;
  std::size_t count_ = 0;
};

// Server SGD with momentum: v_t = momentum v_{t-1} + rho_bar_t,
// theta_t = theta_{t-1} + lr v_t (Andrew et al. 2024, Alg. 2 line 9 when momentum = 0; Andrew et
// al. 2024, Sec. 5.2.1 uses server momentum 0.9).
class ServerOptimizer {
 public:
  ServerOptimizer(std::size_t dim, double learning_rate, double momentum);
  // Updates theta (dim values) in place.
  void step(const std::vector<double>& rho_bar, double* theta);

 private:
  double learning_rate_, momentum_;
  std::vector<double> velocity_;
};

}  // namespace dpaudit
