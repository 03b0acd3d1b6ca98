#include "accounting/pld_pmf.hpp"

#include <cmath>
#include <limits>

#include "accounting/log_space.hpp"
#include "core/error.hpp"

namespace dpaudit {

double pld_delta(const PldPmf& pld, double eps) {
  double delta = 0;
  for (std::size_t i = pld.mass.size(); i-- > 0;) {
    const double l = pld.loss(i);
    if (!(l > eps)) break;
    delta += pld.mass[i] * -std::expm1(eps - l);
  }
  return delta + pld.inf_mass;
}

std::vector<double> pld_deltas(const PldPmf& pld, const std::vector<double>& eps) {
  for (std::size_t k = 0; k < eps.size(); ++k)
    if (std::isnan(eps[k]) || (k > 0 && eps[k] < eps[k - 1]))
      throw UsageError("pld_deltas: eps must be ascending");
  // With i the lowest point above the current eps: B = sum_{j >= i} p_j e^(l_i - l_j),
  // D = sum_{j > i} p_j (1 - e^(l_i - l_j)), and delta(eps) = inf + D + (1 - e^(eps - l_i)) B
  // (pld_epsilon's sums); taking point i - 1 in: D += (1 - e^-h) B, B = p_(i-1) + e^-h B.
  const double shrink = std::exp(-pld.h), gain = -std::expm1(-pld.h);
  std::vector<double> deltas(eps.size());
  double b = 0, d = 0;
  std::size_t i = pld.mass.size();
  for (std::size_t k = eps.size(); k-- > 0;) {
    while (i > 0 && pld.loss(i - 1) > eps[k]) {
      d += gain * b;
      b = pld.mass[--i] + shrink * b;
    }
    deltas[k] =
        pld.inf_mass + (i == pld.mass.size() ? 0 : d - std::expm1(eps[k] - pld.loss(i)) * b);
  }
  return deltas;
}

double pld_epsilon(const PldPmf& pld, double delta) {
  check_delta(delta);
  if (pld.inf_mass > delta) return std::numeric_limits<double>::infinity();
  // Scan down from the largest loss. With l_i the current lattice point,
  //   B = sum_{j >= i} p_j e^(l_i - l_j),  D = sum_{j > i} p_j (1 - e^(l_i - l_j)),
  // delta(eps) = inf + D + (1 - e^(eps - l_i)) B on [l_{i-1}, l_i], and
  // D(l_{i-1}) = D(l_i) + (1 - e^-h) B(l_i): both sums of nonnegative terms.
  const double shrink = std::exp(-pld.h), gain = -std::expm1(-pld.h);
  const double budget = delta - pld.inf_mass;  // >= 0
  double b = 0, d = 0;
  for (std::size_t i = pld.mass.size(); i-- > 0;) {
    b = pld.mass[i] + shrink * b;
    // delta(l_{i-1}) - inf_mass; below the lowest point, the limit eps -> -inf.
    const double d_below = i > 0 ? d + gain * b : d + b;
    if (d_below > budget) {
      // Solve inf + D + (1 - e^(eps - l_i)) B = delta inside (l_{i-1}, l_i].
      const double eps = pld.loss(i) + std::log1p(-(budget - d) / b);
      return eps > 0 ? eps : 0;
    }
    d = d_below;
    if (pld.loss(i) - pld.h <= 0) break;  // delta(0) <= delta(l_{i-1}) <= delta
  }
  return 0;
}

}  // namespace dpaudit
