#include "accounting/pld_mixture.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <boost/math/special_functions/erf.hpp>

#include "accounting/binomial_pmf.hpp"
#include "accounting/log_space.hpp"
#include "accounting/pld_cells.hpp"
#include "core/error.hpp"
#include "core/infinity.hpp"

namespace dpaudit {

using pld_cells::index_above;
using pld_cells::index_below;

namespace {

// A component N(mu, sigma^2) with weight e^log_a in P and e^log_b in Q (either may be -inf).
struct MixComponent {
  double mu, log_a, log_b;
};

// log sum_i e^(t_i) over the terms of one side, and the terms' weighted mean of mu; terms
// below e^-60 of the largest are left out (below double's digits).
struct MixSideSum {
  double mix_log_sum, mean;
};

void check_mixture_pair(const MixturePair& p) {
  if (!(p.sigma > 0) || !std::isfinite(p.sigma))
    throw UsageError(fmt::format("sigma must be positive and finite, got {}", p.sigma));
  if (p.sensitivity.empty() || p.sensitivity.size() != p.log_probability.size())
    throw UsageError(
        fmt::format("a mixture needs as many probabilities as sensitivities, got {} "
                    "and {}",
                    p.log_probability.size(), p.sensitivity.size()));
  if (!(p.dropped >= 0 && p.dropped < 0.5))
    throw UsageError(fmt::format("the dropped probability must be in [0, 0.5), got {}", p.dropped));
  double total = 0, largest = 0;
  for (std::size_t i = 0; i < p.sensitivity.size(); ++i) {
    const double k = p.sensitivity[i], lp = p.log_probability[i];
    if (!(k >= 0) || !std::isfinite(k))
      throw UsageError(fmt::format("sensitivity must be >= 0 and finite, got {}", k));
    if (!(lp <= 0) || !std::isfinite(lp))
      throw UsageError(fmt::format("log probability must be finite and <= 0, got {}", lp));
    total += std::exp(lp);
    largest = std::max(largest, k);
  }
  if (!(largest > 0)) throw UsageError("a mixture needs a sensitivity > 0");
  if (!(total <= 1 + 1e-9 && total + p.dropped >= 1 - 1e-9))
    throw UsageError(fmt::format(
        "the mixture's probabilities add up to {} with {} dropped, not to 1", total, p.dropped));
}

// The pair as components (the add direction mirrored), its loss, its inverse and its masses.
class Mix {
 public:
  explicit Mix(const MixturePair& p) : sigma(p.sigma), remove(p.adjacency == Adjacency::remove) {
    check_mixture_pair(p);
    name = fmt::format("the mixture of {} Gaussians at sigma {}", p.sensitivity.size(), sigma);
    comps.push_back({0, remove ? -kInf : 0.0, remove ? 0.0 : -kInf});
    for (std::size_t i = 0; i < p.sensitivity.size(); ++i) {
      const double k = p.sensitivity[i], lp = p.log_probability[i];
      if (k == 0) {
        (remove ? comps[0].log_a : comps[0].log_b) = lp;
        continue;
      }
      comps.push_back(remove ? MixComponent{k, lp, -kInf} : MixComponent{-k, -kInf, lp});
    }
    drop_p = remove ? p.dropped : 0;
    log_drop_q = remove || p.dropped == 0 ? -kInf : std::log(p.dropped);
    inf_loss = remove ? comps[0].log_a : -kInf;  // the loss as x -> -inf
    sup_loss = remove ? kInf : -comps[0].log_b;  // the loss as x -> +inf
  }

  // log sum_i e^(log_w_i + (2 mu_i x - mu_i^2) / (2 sigma^2)) of P's (side 0) or Q's weights.
  MixSideSum side(double x, int which) const {
    double top = -kInf;
    for (const MixComponent& c : comps) top = std::max(top, term(c, x, which));
    if (top == -kInf) return {-kInf, 0};
    double s = 0, sm = 0;
    for (const MixComponent& c : comps) {
      const double t = term(c, x, which) - top;
      if (t < -60) continue;
      const double e = std::exp(t);
      s += e;
      sm += e * c.mu;
    }
    return {top + std::log(s), sm / s};
  }
  double loss(double x) const { return side(x, 0).mix_log_sum - side(x, 1).mix_log_sum; }
  // (loss, dloss/dx)
  std::pair<double, double> loss_slope(double x) const {
    const MixSideSum a = side(x, 0), b = side(x, 1);
    return {a.mix_log_sum - b.mix_log_sum, (a.mean - b.mean) / (sigma * sigma)};
  }
  double x_of_loss(double l, double hint) const;
  // The range of x outside which P has mass below `tail` on each side.
  std::pair<double, double> x_range(double tail) const {
    const double z = std::sqrt(2.0) * boost::math::erfc_inv(2 * tail);
    double lo = kInf, hi = -kInf;
    for (const MixComponent& c : comps)
      if (c.log_a > -kInf) {
        lo = std::min(lo, c.mu - z * sigma);
        hi = std::max(hi, c.mu + z * sigma);
      }
    return {lo, hi};
  }
  // log of P's density at x (times sigma sqrt(2 pi)) with Q's (side 1).
  double log_density(double x, int which) const {
    double top = -kInf;
    std::vector<double> t(comps.size());
    for (std::size_t i = 0; i < comps.size(); ++i) {
      const double z = (x - comps[i].mu) / sigma;
      t[i] = (which == 0 ? comps[i].log_a : comps[i].log_b) - 0.5 * z * z;
      top = std::max(top, t[i]);
    }
    if (top == -kInf) return -kInf;
    double s = 0;
    for (double v : t) s += std::exp(v - top);
    return top + std::log(s);
  }

  double sigma;
  bool remove;
  std::string name;
  std::vector<MixComponent> comps;  // comps[0] at mu = 0
  double drop_p = 0, log_drop_q = -kInf, inf_loss = -kInf, sup_loss = kInf;

 private:
  double term(const MixComponent& c, double x, int which) const {
    const double w = which == 0 ? c.log_a : c.log_b;
    if (w == -kInf) return -kInf;
    return w + (2 * c.mu * x - c.mu * c.mu) / (2 * sigma * sigma);
  }
};

// The x with L(x) = l: -inf at or below the smallest loss, +inf at or above the largest;
// otherwise a bracket grown from `hint` (any finite x) by doubling steps, then Newton inside it
// (bisection where a step leaves it), to a loss within 1e-14 of l or a bracket at rounding.
double Mix::x_of_loss(double l, double hint) const {
  if (!(l > inf_loss)) return -kInf;
  if (!(l < sup_loss)) return kInf;
  double x = std::isfinite(hint) ? hint : 0.0;
  auto [f, slope] = loss_slope(x);
  double lo = -kInf, hi = kInf;
  (f < l ? lo : hi) = x;
  for (double step = sigma; !(std::isfinite(lo) && std::isfinite(hi)); step *= 2) {
    // Steps of at most 1e18 sigma; a loss within rounding of its limit is never reached: there
    // the half-line beyond it is empty in double, and its end is returned.
    if (!(step < 1e18 * sigma)) return f < l ? kInf : -kInf;
    x = f < l ? lo + std::min(1e18 * sigma, std::max(step, (l - f) / std::max(slope, 1e-300)))
              : hi - std::min(1e18 * sigma, std::max(step, (f - l) / std::max(slope, 1e-300)));
    std::tie(f, slope) = loss_slope(x);
    (f < l ? lo : hi) = x;
  }
  const double tol = 1e-14 * std::max(1.0, std::abs(l));
  for (int iter = 0; iter < 200; ++iter) {
    if (std::abs(f - l) <= tol || hi - lo <= 4e-16 * std::max({1.0, std::abs(lo), std::abs(hi)}))
      break;
    double next = slope > 0 ? x - (f - l) / slope : 0.5 * (lo + hi);
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    x = next;
    std::tie(f, slope) = loss_slope(x);
    (f < l ? lo : hi) = x;
  }
  return x;
}

// The standard-normal tails of every component at a point x: z_i = (x - mu_i)/sigma and
// log Phi(-|z_i|), the smaller tail, from which interval masses keep their digits.
struct MixTails {
  std::vector<double> z, log_small;
};

MixTails mix_tails_at(const Mix& mix, double x) {
  MixTails t;
  t.z.resize(mix.comps.size());
  t.log_small.resize(mix.comps.size());
  for (std::size_t i = 0; i < mix.comps.size(); ++i) {
    t.z[i] = (x - mix.comps[i].mu) / mix.sigma;
    t.log_small[i] = log_normal_cdf(-std::abs(t.z[i]));
  }
  return t;
}

// log N_i((a, b]) of every component, and log P and log Q of the cell.
struct MixCell {
  std::vector<double> n;
  double log_p, log_q;
};

double mix_log_sum(const std::vector<double>& terms) {
  const double top = terms.empty() ? -kInf : *std::max_element(terms.begin(), terms.end());
  if (top == -kInf) return -kInf;
  double s = 0;
  for (double t : terms) s += std::exp(t - top);
  return top + std::log(s);
}

MixCell mix_cell(const Mix& mix, const MixTails& a, const MixTails& b) {
  MixCell c;
  const std::size_t n = mix.comps.size();
  c.n.resize(n);
  std::vector<double> p(n), q(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double za = a.z[i], zb = b.z[i];
    if (!(zb > za))
      c.n[i] = -kInf;
    else if (zb <= 0)
      c.n[i] = log_sub(b.log_small[i], a.log_small[i]);
    else if (za >= 0)
      c.n[i] = log_sub(a.log_small[i], b.log_small[i]);
    else
      c.n[i] = std::log1p(-(std::exp(a.log_small[i]) + std::exp(b.log_small[i])));
    p[i] = mix.comps[i].log_a + c.n[i];
    q[i] = mix.comps[i].log_b + c.n[i];
  }
  c.log_p = mix_log_sum(p);
  c.log_q = mix_log_sum(q);
  return c;
}

// log of H(l) = P(cell) - e^l Q(cell) = sum_i (a_i - e^l b_i) N_i(cell) where it is > 0
// (-inf where it is <= 0), or of -H(l) with `negate`: each component's coefficient exactly in
// logs (a_i and e^l b_i cancel in the component at 0), then the positive and negative sums.
double mix_log_hockey(const Mix& mix, const MixCell& c, double l, bool negate = false) {
  std::vector<double> pos, neg;
  for (std::size_t i = 0; i < mix.comps.size(); ++i) {
    const double a = mix.comps[i].log_a, b = l + mix.comps[i].log_b;
    if (c.n[i] == -kInf || (a == -kInf && b == -kInf)) continue;
    const bool positive = a > b;
    const double log_abs = positive ? log_sub(a, b) : log_sub(b, a);
    (positive != negate ? pos : neg).push_back(log_abs + c.n[i]);
  }
  return log_sub(mix_log_sum(pos), mix_log_sum(neg));
}

// Each loss evaluation costs one exp per component: beyond this many, minutes.
constexpr std::size_t kMaxComponents = 65536;

}  // namespace

MixturePair binomial_mixture(double sigma, long long m, double q, Adjacency adjacency,
                             double tail) {
  if (!(sigma > 0) || !std::isfinite(sigma))
    throw UsageError(fmt::format("sigma must be positive and finite, got {}", sigma));
  if (m < 1) throw UsageError(fmt::format("micro-batches must be >= 1, got {}", m));
  if (!(q > 0 && q <= 1)) throw UsageError(fmt::format("q must be in (0,1], got {}", q));
  if (!(tail >= 0 && tail < 0.5))
    throw UsageError(fmt::format("tail mass must be in [0, 0.5), got {}", tail));
  MixturePair pair{sigma, {}, {}, 0, adjacency};
  const double n = static_cast<double>(m);
  if (q == 1) {
    pair.sensitivity = {n};
    pair.log_probability = {0};
    return pair;
  }
  const double log_q = std::log(q), log_1mq = std::log1p(-q), log_half_tail = std::log(tail / 2);
  auto log_pmf = [&](double k) { return log_binomial_pmf(n, k, log_q, log_1mq); };
  // From the mode outwards; the ratio of neighbouring masses falls away from it, so the rest
  // of a tail beyond k is at most p_k / (1 - ratio at k), a geometric series.
  const double mode = std::min(n, std::floor((n + 1) * q));
  std::vector<std::pair<double, double>> kept{{mode, log_pmf(mode)}};
  for (int side : {1, -1}) {
    for (double k = mode + side; k >= 0 && k <= n; k += side) {
      const double lp = log_pmf(k);
      const double ratio =
          side > 0 ? (n - k) / (k + 1) * q / (1 - q) : k / (n - k + 1) * (1 - q) / q;
      // (the first value above the mode is always kept: a mixture has a sensitivity > 0)
      const bool first_above = side > 0 && k == mode + 1;
      if (tail > 0 && !first_above && ratio < 1 && lp - std::log1p(-ratio) <= log_half_tail) {
        pair.dropped += std::exp(lp - std::log1p(-ratio));
        break;
      }
      kept.emplace_back(k, lp);
      if (kept.size() > kMaxComponents)
        throw UsageError(fmt::format(
            "Binomial({}, {}) has more than {} values above its tails: a mixture too large to "
            "account",
            m, q, kMaxComponents));
    }
  }
  std::sort(kept.begin(), kept.end());
  for (const auto& [k, lp] : kept) {
    pair.sensitivity.push_back(k);
    pair.log_probability.push_back(std::min(lp, 0.0));
  }
  return pair;
}

double mixture_pair_delta(const MixturePair& p, double eps) {
  const Mix mix(p);
  if (std::isnan(eps)) throw UsageError("eps is NaN");
  const double x = mix.x_of_loss(eps, 0);
  if (x == kInf) return mix.drop_p;
  const MixCell c = mix_cell(mix, mix_tails_at(mix, x), mix_tails_at(mix, kInf));
  return std::exp(mix_log_hockey(mix, c, eps)) + mix.drop_p;
}

LossMoments mixture_loss_moments(const MixturePair& p) {
  const Mix mix(p);
  const auto [lo, hi] = mix.x_range(1e-33);  // +-12 standard deviations
  return pld_cells::simpson_moments(
      lo, hi, [&](double x) { return mix.log_density(x, 0); },
      [&](double x) { return mix.loss(x); });
}

double step_points(const MixturePair& p, double h, double tail) {
  const Mix mix(p);
  pld_cells::check_lattice(h, tail);
  const auto [x_lo, x_hi] = mix.x_range(tail);
  return (mix.loss(x_hi) - mix.loss(x_lo)) / h + 2;
}

PldPmf pessimistic_pld(const MixturePair& p, double h, double tail) {
  const Mix mix(p);
  pld_cells::check_lattice(h, tail);
  const auto [x_lo, x_hi] = mix.x_range(tail);
  const long long k_lo = index_below(mix.loss(x_lo), h);
  const long long k_hi = index_above(mix.loss(x_hi), h);
  PldPmf pld = pld_cells::empty_lattice(h, k_lo, k_hi, mix.name);
  const auto [log_split_up, log_split_down] = pld_cells::split_logs(h);
  double x = mix.x_of_loss(static_cast<double>(k_lo) * h, x_lo);
  MixTails a = mix_tails_at(mix, x);
  pld.mass[0] =
      std::exp(mix_cell(mix, mix_tails_at(mix, -kInf), a).log_p);  // left tail, up to l_lo
  for (long long k = k_lo; k < k_hi; ++k) {
    const double l = static_cast<double>(k) * h, l_next = static_cast<double>(k + 1) * h;
    x = mix.x_of_loss(l_next, std::isfinite(x) ? x : x_lo);
    const MixTails b = mix_tails_at(mix, x);
    const MixCell c = mix_cell(mix, a, b);
    const std::size_t i = static_cast<std::size_t>(k - k_lo);
    pld.mass[i] += std::exp(mix_log_hockey(mix, c, l_next, true) - log_split_down);
    pld.mass[i + 1] += std::exp(mix_log_hockey(mix, c, l) - log_split_up);
    a = b;
  }
  // The right tail and the dropped P-mass to +inf, then what rounding lost.
  pld.inf_mass = std::exp(mix_cell(mix, a, mix_tails_at(mix, kInf)).log_p) + mix.drop_p;
  pld_cells::deficit_to_infinity(pld);
  return pld_cells::checked(std::move(pld), mix.name);
}

namespace {

// optimistic_pld's cell between the anchor and x: its P-mass, g = its merged loss
// log(P / (Q + dropped Q-mass)) minus the target, and dg/dx.
struct MixProbe {
  double log_p, g, slope;
};

// The cells of optimistic_pld, cut from the anchor towards the end (upward for remove, whose
// loss is unbounded above; downward for add): (lattice index, P-mass) atoms.
class MergedCells {
 public:
  MergedCells(const Mix& mix, double h, double anchor, double end)
      : mix_(mix), h_(h), upward_(mix.remove), end_(end) {
    move_anchor(anchor);
  }

  // The cell between the anchor and x at the target l_k.
  MixProbe probe(double x, double l_k) const {
    const MixTails t = mix_tails_at(mix_, x);
    const MixCell c = upward_ ? mix_cell(mix_, t_anchor_, t) : mix_cell(mix_, t, t_anchor_);
    const double log_q = log_add(c.log_q, mix_.log_drop_q);
    const double dp = std::exp(mix_.log_density(x, 0) - log_norm() - c.log_p);
    const double dq = std::exp(mix_.log_density(x, 1) - log_norm() - log_q);
    return {c.log_p, c.log_p - log_q - l_k, upward_ ? dp - dq : dq - dp};
  }

  // The next lattice point inwards from L(x); a target within rounding of L(x) would leave a
  // sliver that no root finder resolves, and is skipped.
  long long next_point(double x) const {
    const double l = mix_.loss(x);
    const long long k = upward_ ? index_below(l, h_) + 1 : index_above(l, h_) - 1;
    const double x_k = mix_.x_of_loss(static_cast<double>(k) * h_, x);
    if (std::abs(x_k - x) > 1e-6 * (mix_.sigma + std::abs(x))) return k;
    return upward_ ? k + 1 : k - 1;
  }

  // Closes the cells up to the end; the atoms.
  std::vector<std::pair<long long, double>> sweep() {
    for (long long k = next_point(anchor_);;) {
      const double l_k = static_cast<double>(k) * h_;
      const double x_k = mix_.x_of_loss(l_k, anchor_);
      if (!(upward_ ? x_k < end_ : x_k > end_)) break;
      const double tol =
          std::max(1e-7 * std::abs(l_k - mix_.loss(anchor_)), 1e-11 * (1 + std::abs(l_k)));
      auto c = pld_cells::cell_end([&](double x, double l) { return probe(x, l); }, l_k,
                                   upward_ ? x_k : end_, upward_ ? end_ : x_k,
                                   x_k + (x_k - anchor_), end_, upward_, tol);
      long long index = k;
      if (!c.found) {  // the cell up to x_k instead, its merged loss rounded down
        c.x = x_k;
        c.pr = probe(x_k, l_k);
        index = index_below(c.pr.g + l_k, h_);
      }
      add(index, c.pr.log_p);
      move_anchor(c.x);
      k = upward_ ? std::max(k + 1, next_point(anchor_)) : std::min(k - 1, next_point(anchor_));
    }
    // The remainder between the anchor and the end: one outcome, its loss rounded down.
    const MixProbe rest = probe(end_, 0);
    if (rest.log_p > -kInf) add(index_below(rest.g, h_), rest.log_p);
    return atoms_;
  }

 private:
  // log(sigma sqrt(2 pi)): Mix::log_density leaves it out
  double log_norm() const { return std::log(mix_.sigma) + 0.91893853320467274178; }
  void move_anchor(double x) {
    anchor_ = x;
    t_anchor_ = mix_tails_at(mix_, x);
  }
  void add(long long index, double log_p) {
    atoms_.emplace_back(index, std::exp(log_p));
    if (static_cast<long long>(atoms_.size()) > pld_cells::kMaxStepPoints)
      throw DataError(fmt::format("one step needs more than {} lattice points of {} ({})",
                                  pld_cells::kMaxStepPoints, h_, mix_.name));
  }

  const Mix& mix_;
  double h_;
  bool upward_;
  double end_, anchor_ = 0;
  MixTails t_anchor_;
  std::vector<std::pair<long long, double>> atoms_;
};

}  // namespace

PldPmf optimistic_pld(const MixturePair& p, double h, double tail) {
  const Mix mix(p);
  pld_cells::check_lattice(h, tail);
  const auto [x_lo, x_hi] = mix.x_range(tail);
  MergedCells cells(mix, h, mix.remove ? x_lo : x_hi, mix.remove ? x_hi : x_lo);
  return pld_cells::pmf_of_atoms(cells.sweep(), h, mix.name);
}

}  // namespace dpaudit
