#include "stats/betting.hpp"

#include <algorithm>
#include <cmath>

#include "random/multiversion.hpp"

namespace dpaudit {

namespace {
// Online Newton step's gain for exp-concave losses on fractions in [0, 1/2] (Cutkosky &
// Orabona 2018): 2 / (2 - ln 3).
const double kOnsGain = 2.0 / (2.0 - std::log(3.0));
constexpr std::size_t kRescaleEvery = 32;
}  // namespace

BettingLanes::BettingLanes(std::size_t lanes)
    : lambda_(lanes, 0.0),
      sum_z2_(lanes, 1.0),
      w_(lanes, 1.0),
      scale_(lanes, 1.0),
      exponent_(lanes, 0) {}

DPAUDIT_MULTIVERSION
void BettingLanes::bet(std::size_t begin, std::size_t end, const double* g) {
  double* lambda = lambda_.data();
  double* sum_z2 = sum_z2_.data();
  double* w = w_.data();
  // Every lane's update is independent of the others, with no reduction across lanes and no
  // fused multiply-add in any clone (the build's -ffp-contract=off: the avx512f clone has FMA
  // instructions), so the vectorized loop gives the bits of the scalar one.
  for (std::size_t j = begin; j < end; ++j) {
    const double x = g[j - begin];
    const double factor = 1.0 + lambda[j] * x;
    w[j] *= factor;
    const double z = x / factor;
    sum_z2[j] += z * z;
    const double next = lambda[j] + kOnsGain * z / sum_z2[j];
    lambda[j] = std::min(0.5, std::max(0.0, next));
  }
  if (++since_rescale_ == kRescaleEvery) {
    rescale();
    since_rescale_ = 0;
  }
}

DPAUDIT_MULTIVERSION
void BettingLanes::mark_crossed(const BettingLanes& other, std::size_t begin, std::size_t end,
                                double level, char* crossed) const {
  const double *w = w_.data(), *s = scale_.data(), *ow = other.w_.data(), *os = other.scale_.data();
  for (std::size_t j = begin; j < end; ++j)
    crossed[j] = static_cast<char>(crossed[j] | (w[j] * s[j] + ow[j] * os[j] >= level));
}

void BettingLanes::rescale() {
  for (std::size_t j = 0; j < w_.size(); ++j) {
    if (w_[j] > 0x1p64 || w_[j] < 0x1p-64) {
      int e = 0;
      w_[j] = std::frexp(w_[j], &e);  // exact: a power of two moves from w to the exponent
      exponent_[j] += e;
      scale_[j] = exponent_[j] < -1000 ? 0.0 : std::ldexp(1.0, static_cast<int>(exponent_[j]));
    }
  }
}

double BettingLanes::log_wealth(std::size_t j) const {
  return std::log(w_[j]) + static_cast<double>(exponent_[j]) * std::log(2.0);
}

}  // namespace dpaudit
