#include "accounting/pld_gaussian.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <boost/math/special_functions/erf.hpp>

#include "accounting/log_space.hpp"
#include "accounting/pld_cells.hpp"
#include "core/error.hpp"
#include "core/infinity.hpp"

namespace dpaudit {

using pld_cells::check_lattice;
using pld_cells::empty_lattice;
using pld_cells::index_above;
using pld_cells::index_below;
using pld_cells::kMaxStepPoints;
using pld_cells::split_logs;

namespace {

// log(1 - q + q e^u), the remove loss, and its inverse in u (for l > log(1-q));
// log1p/expm1 keep the digits of small q and u, the second forms avoid overflow.
double remove_loss(double q, double u) {
  if (q == 1) return u;
  if (u < 700) return std::log1p(q * std::expm1(u));
  return u + std::log(q) + std::log1p((1 - q) / q * std::exp(-u));
}

double remove_loss_inverse(double q, double l) {
  if (q == 1) return l;
  if (!(l > std::log1p(-q))) return -kInf;
  if (l < 700) return std::log1p(std::expm1(l) / q);
  return l - std::log(q) + std::log1p(-(1 - q) * std::exp(-l));
}

// P = a0 N0 + a1 N1 and Q = b0 N0 + b1 N1 (log coefficients), the loss L(u) and its
// inverse, and the coefficients of H(l) = P - e^l Q.
class Pair {
 public:
  explicit Pair(const GaussianPair& p)
      : sigma(p.sigma), q(p.q), add_(p.adjacency == Adjacency::add && p.q < 1) {
    if (!(p.sigma > 0) || !std::isfinite(p.sigma))
      throw UsageError(fmt::format("sigma must be positive and finite, got {}", p.sigma));
    if (!(p.q > 0 && p.q <= 1)) throw UsageError(fmt::format("q must be in (0,1], got {}", p.q));
    if (add_) {
      log_p = {-kInf, 0.0};
      log_q = {std::log(q), std::log1p(-q)};
    } else {
      log_p = {std::log1p(-q), std::log(q)};
      log_q = {0.0, -kInf};
    }
  }
  double loss(double u) const { return add_ ? -remove_loss(q, -u) : remove_loss(q, u); }
  double loss_inverse(double l) const {
    return add_ ? -remove_loss_inverse(q, -l) : remove_loss_inverse(q, l);
  }
  double x_of_u(double u) const { return sigma * sigma * u + 0.5; }
  double u_of_x(double x) const { return (2 * x - 1) / (2 * sigma * sigma); }
  // Largest loss of the pair: +inf (remove), -log(1-q) (add).
  double supremum() const { return add_ ? -std::log1p(-q) : kInf; }
  // H(l) = P - e^l Q = c0 N0 + c1 N1: (sign > 0, log|c|) of c0 = a0 - e^l b0 and c1.
  std::pair<bool, double> c0(double l) const {
    if (add_) return {false, std::log(q) + l};  // -q e^l
    const double log_1mq = std::log1p(-q);      // (1 - q) - e^l
    return l < log_1mq ? std::pair{true, log_sub(log_1mq, l)}
                       : std::pair{false, log_sub(l, log_1mq)};
  }
  std::pair<bool, double> c1(double l) const {
    if (!add_) return {true, std::log(q)};  // q
    const double x = l + std::log1p(-q);    // 1 - (1 - q) e^l
    return x < 0 ? std::pair{true, log_sub(0, x)} : std::pair{false, log_sub(x, 0)};
  }
  // The range of x outside which P has mass below `tail` on each side.
  std::pair<double, double> x_range(double tail) const {
    const double z = std::sqrt(2.0) * boost::math::erfc_inv(2 * tail);
    return {(log_p[0] > -kInf ? 0.0 : 1.0) - z * sigma, 1 + z * sigma};
  }

  double sigma, q;
  std::array<double, 2> log_p, log_q;

 private:
  bool add_;
};

// The standard-normal tails of N0 and N1 at a point x: z_j = (x - j)/sigma and
// log Phi(-|z_j|), the smaller tail, from which interval masses keep their digits.
struct Tails {
  std::array<double, 2> z;
  std::array<double, 2> log_small;
};

Tails tails_at(const Pair& pair, double x) {
  Tails t;
  for (int j = 0; j < 2; ++j) {
    t.z[j] = (x - j) / pair.sigma;
    t.log_small[j] = log_normal_cdf(-std::abs(t.z[j]));
  }
  return t;
}

// log N_j((a, b]).
double log_interval(const Tails& a, const Tails& b, int j) {
  const double za = a.z[j], zb = b.z[j];
  if (!(zb > za)) return -kInf;
  if (zb <= 0) return log_sub(b.log_small[j], a.log_small[j]);
  if (za >= 0) return log_sub(a.log_small[j], b.log_small[j]);
  return std::log1p(-(std::exp(a.log_small[j]) + std::exp(b.log_small[j])));
}

struct CellMasses {
  double n0, n1;  // log N0 and log N1 of the cell
};

CellMasses cell(const Tails& a, const Tails& b) {
  return {log_interval(a, b, 0), log_interval(a, b, 1)};
}

double log_p_mass(const Pair& pair, const CellMasses& m) {
  return log_add(pair.log_p[0] + m.n0, pair.log_p[1] + m.n1);
}

// log of H(l) = P(cell) - e^l Q(cell) = c0(l) N0(cell) + c1(l) N1(cell) where it is
// > 0 (-inf where it is <= 0), or of -H(l) with `negate`; the coefficients' signs
// change at the pair's smallest (remove) or largest (add) loss.
double log_hockey(const Pair& pair, const CellMasses& m, double l, bool negate = false) {
  const auto [positive0, log_abs0] = pair.c0(l);
  const auto [positive1, log_abs1] = pair.c1(l);
  double pos = -kInf, neg = -kInf;
  (positive0 != negate ? pos : neg) = log_abs0 + m.n0;
  double& other = positive1 != negate ? pos : neg;
  other = log_add(other, log_abs1 + m.n1);
  return log_sub(pos, neg);
}

// optimistic_pld's cell between the anchor and x: its masses, g = rho - u_k with
// rho = log(N1/N0) (the merged loss is L(rho)), and dg/dx; g rises in x either way.
struct Probe {
  CellMasses m;
  double g, slope;
};

// The pair's name in messages.
std::string name_of(const GaussianPair& p) {
  return fmt::format("sigma {}, q {}", p.sigma, p.q);
}

}  // namespace

double gaussian_pair_delta(const GaussianPair& p, double eps) {
  const Pair pair(p);
  if (std::isnan(eps)) throw UsageError("eps is NaN");
  // Below the smallest loss the event {L > eps} is everything: delta = 1 - e^eps.
  if (pair.loss_inverse(eps) == -kInf) return -std::expm1(eps);
  if (!(eps < pair.supremum())) return 0;
  const Tails from = tails_at(pair, pair.x_of_u(pair.loss_inverse(eps)));
  const Tails to = tails_at(pair, kInf);
  return std::exp(log_hockey(pair, cell(from, to), eps));
}

LossMoments privacy_loss_moments(const GaussianPair& p) {
  const Pair pair(p);
  const auto [lo, hi] = pair.x_range(1e-33);  // +-12 standard deviations
  return pld_cells::simpson_moments(
      lo, hi,
      [&](double x) {
        return log_add(pair.log_p[0] - 0.5 * std::pow(x / pair.sigma, 2),
                       pair.log_p[1] - 0.5 * std::pow((x - 1) / pair.sigma, 2));
      },
      [&](double x) { return pair.loss(pair.u_of_x(x)); });
}

double step_points(const GaussianPair& p, double h, double tail) {
  const Pair pair(p);
  check_lattice(h, tail);
  const auto [x_lo, x_hi] = pair.x_range(tail);
  return (pair.loss(pair.u_of_x(x_hi)) - pair.loss(pair.u_of_x(x_lo))) / h + 2;
}

PldPmf pessimistic_pld(const GaussianPair& p, double h, double tail) {
  const Pair pair(p);
  check_lattice(h, tail);
  const auto [x_lo, x_hi] = pair.x_range(tail);
  const long long k_lo = index_below(pair.loss(pair.u_of_x(x_lo)), h);
  const long long k_hi = index_above(pair.loss(pair.u_of_x(x_hi)), h);
  PldPmf pld = empty_lattice(h, k_lo, k_hi, fmt::format("sigma {}, q {}", p.sigma, p.q));
  const auto [log_split_up, log_split_down] = split_logs(h);
  const Tails minus_inf = tails_at(pair, -kInf);
  Tails a = tails_at(pair, pair.x_of_u(pair.loss_inverse(static_cast<double>(k_lo) * h)));
  pld.mass[0] = std::exp(log_p_mass(pair, cell(minus_inf, a)));  // left tail, moved up to l_lo
  for (long long k = k_lo; k < k_hi; ++k) {
    const double l = static_cast<double>(k) * h, l_next = static_cast<double>(k + 1) * h;
    const Tails b = tails_at(pair, pair.x_of_u(pair.loss_inverse(l_next)));
    const CellMasses m = cell(a, b);
    const std::size_t i = static_cast<std::size_t>(k - k_lo);
    pld.mass[i] += std::exp(log_hockey(pair, m, l_next, true) - log_split_down);
    pld.mass[i + 1] += std::exp(log_hockey(pair, m, l) - log_split_up);
    a = b;
  }
  pld.inf_mass = std::exp(log_p_mass(pair, cell(a, tails_at(pair, kInf))));  // right tail
  pld_cells::deficit_to_infinity(pld);  // rounding in ~1e6 cell masses: to +inf
  return pld_cells::checked(std::move(pld), name_of(p));
}

PldPmf optimistic_pld(const GaussianPair& p, double h, double tail) {
  const Pair pair(p);
  check_lattice(h, tail);
  const auto [x_lo, x_hi] = pair.x_range(tail);
  // Cells are cut from the end where the loss is unbounded towards the end where it is
  // bounded (add: up to -log(1-q)), so that the remainder, which cannot reach a lattice
  // point of its own and is rounded down, sits at the end that matters least: the
  // smallest losses for remove, the most negative ones for add.
  const bool upward = pair.supremum() == kInf;
  const double end = upward ? x_hi : x_lo;
  double anchor = upward ? x_lo : x_hi;
  Tails t_anchor = tails_at(pair, anchor);
  // The cell between the anchor and x (Probe).
  const double log_norm = std::log(pair.sigma) + 0.91893853320467274178;  // log(sigma sqrt(2 pi))
  auto probe = [&](double x, double u_k) {
    const Tails t = tails_at(pair, x);
    const CellMasses m = upward ? cell(t_anchor, t) : cell(t, t_anchor);
    const double d1 = std::exp(-0.5 * t.z[1] * t.z[1] - log_norm - m.n1);
    const double d0 = std::exp(-0.5 * t.z[0] * t.z[0] - log_norm - m.n0);
    return Probe{m, m.n1 - m.n0 - u_k, upward ? d1 - d0 : d0 - d1};
  };
  // The next lattice point inwards from L(x). A cell has to reach past its target as far
  // as it starts before it, so a target within rounding of L(x) would leave a sliver that
  // no root finder resolves: such a target is skipped.
  auto next_point = [&](double x) {
    const double u = pair.u_of_x(x), l = pair.loss(u);
    const long long k = upward ? index_below(l, h) + 1 : index_above(l, h) - 1;
    const double u_k = pair.loss_inverse(static_cast<double>(k) * h);
    if (std::abs(u_k - u) > 1e-6 * (1 + std::abs(u))) return k;
    return upward ? k + 1 : k - 1;
  };
  std::vector<std::pair<long long, double>> atoms;  // (lattice index, P-mass)
  for (long long k = next_point(anchor);;) {
    const double u_k = pair.loss_inverse(static_cast<double>(k) * h);
    const double x_k = pair.x_of_u(u_k);  // g(x_k) < 0 upward, > 0 downward
    if (!(upward ? x_k < end : x_k > end)) break;
    // Safeguarded Newton for the root of g, accepting 0 <= g <= tol (merged loss at or
    // at most ~1e-7 of a cell above k h; not below the rounding of rho, ~1e-11 where
    // cells are thin), inside a bracket g(lo) < 0 <= g(hi).
    const double tol =
        std::max(1e-7 * std::abs(u_k - pair.u_of_x(anchor)), 1e-11 * (1 + std::abs(u_k)));
    auto c = pld_cells::cell_end(probe, u_k, upward ? x_k : end, upward ? end : x_k,
                                 x_k + (x_k - anchor), end, upward, tol);
    long long index = k;
    if (!c.found) {
      // Even all the rest merged stays below k h (say the bulk of N0, loss near log(1-q),
      // with h far above it). Upward, the cell up to x_k is closed instead, its merged
      // loss rounded down, and the sweep goes on from x_k; otherwise (or when x_k is the
      // end) the rest is the remainder below.
      if (!upward || !c.end_checked || !(c.pr.g < 0)) break;
      c.x = x_k;
      c.pr = probe(c.x, u_k);
      index = index_below(pair.loss(c.pr.g + u_k), h);
    }
    atoms.emplace_back(index, std::exp(log_p_mass(pair, c.pr.m)));
    if (static_cast<long long>(atoms.size()) > kMaxStepPoints)
      throw DataError(
          fmt::format("one step needs more than {} lattice points of {} (sigma {}, q {})",
                      kMaxStepPoints, h, p.sigma, p.q));
    anchor = c.x;
    t_anchor = tails_at(pair, anchor);
    k = upward ? std::max(k + 1, next_point(anchor)) : std::min(k - 1, next_point(anchor));
  }
  // The remainder between the anchor and the end cannot reach the next lattice point:
  // merged into one outcome whose loss L(rho) is rounded down, which only lowers delta.
  const Tails t_end = tails_at(pair, end);
  const CellMasses rest = upward ? cell(t_anchor, t_end) : cell(t_end, t_anchor);
  if (rest.n0 > -kInf || rest.n1 > -kInf)
    atoms.emplace_back(index_below(pair.loss(rest.n1 - rest.n0), h),
                       std::exp(log_p_mass(pair, rest)));
  return pld_cells::pmf_of_atoms(atoms, h, name_of(p));
}

}  // namespace dpaudit
