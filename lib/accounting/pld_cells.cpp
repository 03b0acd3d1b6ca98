#include "accounting/pld_cells.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace dpaudit::pld_cells {

namespace {

// Lattice indices beyond which the accountant's sizes make no sense (2^40 points).
constexpr double kMaxIndex = 1099511627776.0;

long long lattice_index(double k, double l, double h) {
  if (!(std::abs(k) < kMaxIndex))
    throw DataError(fmt::format("privacy loss {} is beyond 2^40 lattice steps of {}", l, h));
  return static_cast<long long>(k);
}

}  // namespace

long long index_above(double l, double h) {
  return lattice_index(std::ceil(l / h), l, h);
}
long long index_below(double l, double h) {
  return lattice_index(std::floor(l / h), l, h);
}

void check_lattice(double h, double tail) {
  if (!(h > 0) || !std::isfinite(h))
    throw UsageError(fmt::format("lattice spacing must be > 0, got {}", h));
  if (!(tail > 0 && tail < 0.5))
    throw UsageError(fmt::format("tail mass must be in (0, 0.5), got {}", tail));
}

PldPmf checked(PldPmf pld, const std::string& what) {
  for (double m : pld.mass)
    if (!(m >= 0) || !std::isfinite(m))
      throw DataError(fmt::format(
          "the privacy-loss distribution of {} lost precision (a mass of {})", what, m));
  return pld;
}

PldPmf pmf_of_atoms(const std::vector<std::pair<long long, double>>& atoms, double h,
                    const std::string& what) {
  PldPmf pld;
  pld.h = h;
  if (atoms.empty()) return pld;
  const auto [lowest, highest] = std::minmax_element(atoms.begin(), atoms.end());
  pld.first = lowest->first;
  pld.mass.assign(static_cast<std::size_t>(highest->first - lowest->first + 1), 0.0);
  for (const auto& [k, m] : atoms) pld.mass[static_cast<std::size_t>(k - pld.first)] += m;
  return checked(std::move(pld), what);
}

void deficit_to_infinity(PldPmf& pld) {
  double total = pld.inf_mass, carry = 0;
  for (double m : pld.mass) {
    const double t = total + m;
    carry += std::abs(total) >= std::abs(m) ? (total - t) + m : (m - t) + total;
    total = t;
  }
  total += carry;
  if (total < 1) pld.inf_mass += 1 - total;
}

PldPmf empty_lattice(double h, long long k_lo, long long k_hi, const std::string& what) {
  if (k_hi - k_lo >= kMaxStepPoints)
    throw DataError(
        fmt::format("one step needs {} lattice points of {} ({})", k_hi - k_lo + 1, h, what));
  PldPmf pld;
  pld.h = h;
  pld.first = k_lo;
  pld.mass.assign(static_cast<std::size_t>(k_hi - k_lo + 1), 0.0);
  return pld;
}

SplitLogs split_logs(double h) {
  const double up = std::log(-std::expm1(-h));
  return {up, h + up};
}

}  // namespace dpaudit::pld_cells
