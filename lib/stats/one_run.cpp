#include "stats/one_run.hpp"

#include <algorithm>
#include <cmath>

#include <boost/math/special_functions/beta.hpp>
#include <fmt/format.h>

#include "accounting/log_space.hpp"
#include "core/error.hpp"
#include "stats/roc.hpp"

namespace dpaudit {
namespace {

void check_outcome(std::size_t m, std::size_t r, std::size_t v) {
  if (!(v <= r && r <= m))
    throw UsageError(fmt::format("one-run outcome needs correct <= guesses <= canaries, got {} <= {} <= {}", v, r, m));
}

void check_delta_alpha(double delta, double alpha) {
  if (!(delta >= 0 && delta < 1)) throw UsageError(fmt::format("delta {} is not in [0,1)", delta));
  if (!(alpha > 0 && alpha < 1)) throw UsageError(fmt::format("alpha {} is not in (0,1)", alpha));
}

// p(eps, delta) of the header, arguments checked. W ~ Binomial(r, q) with
// 1 - q = 1 / (1 + e^eps), kept exact for large eps.
double p_value(std::size_t m, std::size_t r, std::size_t v, double eps, double delta) {
  if (v == 0) return 1.0;
  const double log1p_e = std::log1p(std::exp(-eps));
  const double log_q = -log1p_e, log_not_q = -eps - log1p_e;
  const double rd = double(r), vd = double(v);
  // beta = P[W >= v] = I_q(v, r - v + 1) = 1 - I_{1-q}(r - v + 1, v).
  const double beta = boost::math::ibetac(rd - vd + 1, vd, std::exp(log_not_q));
  if (delta == 0) return beta;
  // max_i (P[v-i <= W < v]) / i is the largest running mean of a_i = P[W = v - i].
  // a_i is unimodal in i (the binomial pmf is), so the running mean rises while the
  // next term exceeds it and never rises again once one does not: stop there. The
  // terms go in log space (a_1 can underflow when the delta term is negligible):
  // P[W = j-1] / P[W = j] = j / (r - j + 1) * e^-eps.
  double log_a = std::lgamma(rd + 1) - std::lgamma(vd) - std::lgamma(rd - vd + 2) + (vd - 1) * log_q +
                 (rd - vd + 1) * log_not_q;  // log P[W = v - 1]
  double log_sum = log_a;
  std::size_t i = 1;
  for (; i < v; ++i) {
    const double j = vd - double(i);  // a_i = P[W = j]; next is P[W = j - 1]
    const double log_next = log_a + std::log(j) - std::log(rd - j + 1) - eps;
    if (log_next <= log_sum - std::log(double(i))) break;
    log_a = log_next;
    log_sum = log_add(log_sum, log_a);
  }
  const double max_mean = std::exp(log_sum - std::log(double(i)));
  return std::min(1.0, beta + 2 * double(m) * delta * max_mean);
}

// Largest eps with p(eps) <= alpha, given p(lo) <= alpha: bracket by doubling, then
// bisect to 1e-12 relative; returns the lower end, where p <= alpha holds.
double largest_rejected(std::size_t m, std::size_t r, std::size_t v, double delta, double alpha, double lo) {
  double hi = std::max(1.0, 2 * lo);
  // p -> 1 as eps -> inf (q -> 1 and v <= r), so the doubling stops (by eps ~ 750
  // 1 - q underflows to 0 and p = 1).
  while (p_value(m, r, v, hi, delta) <= alpha) {
    lo = hi;
    hi *= 2;
  }
  for (int it = 0; it < 200 && hi - lo > 1e-12 * hi; ++it) {
    const double mid = lo + (hi - lo) / 2;
    (p_value(m, r, v, mid, delta) <= alpha ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace

double one_run_p_value(std::size_t m, std::size_t r, std::size_t v, double eps, double delta) {
  check_outcome(m, r, v);
  if (!(eps >= 0 && std::isfinite(eps))) throw UsageError(fmt::format("epsilon {} is not finite and >= 0", eps));
  if (!(delta >= 0 && delta < 1)) throw UsageError(fmt::format("delta {} is not in [0,1)", delta));
  return p_value(m, r, v, eps, delta);
}

double one_run_epsilon(std::size_t m, std::size_t r, std::size_t v, double delta, double alpha) {
  check_outcome(m, r, v);
  check_delta_alpha(delta, alpha);
  if (p_value(m, r, v, 0, delta) > alpha) return 0;
  return largest_rejected(m, r, v, delta, alpha, 0);
}

OneRunEstimate one_run_fixed(const ScoreSet& scores, std::size_t k_in, std::size_t k_out, double delta,
                             double alpha) {
  check_delta_alpha(delta, alpha);
  const auto& in = scores.in();
  const auto& out = scores.out();
  const std::size_t m = in.size() + out.size();
  if (k_in + k_out == 0) throw UsageError("one-run needs at least one guess");
  if (k_in + k_out > m)
    throw UsageError(fmt::format("{} + {} guesses exceed the {} canaries", k_in, k_out, m));
  std::vector<double> all(in);
  all.insert(all.end(), out.begin(), out.end());
  std::sort(all.begin(), all.end());
  OneRunEstimate e;
  e.canaries = m;
  e.guesses_in = k_in;
  e.guesses_out = k_out;
  e.alpha_per_count = alpha;
  // The cut between guessed and not guessed must fall between two different scores.
  const auto tie = [&](std::size_t below) { return below > 0 && below < m && all[below - 1] == all[below]; };
  if (k_in > 0) {
    if (tie(m - k_in))
      throw DataError(fmt::format("the {} highest scores end inside tied scores ({}): guess a different number", k_in,
                                  all[m - k_in]));
    const double t = all[m - k_in];
    e.threshold_in = t;
    e.correct += std::size_t(in.end() - std::lower_bound(in.begin(), in.end(), t));
  }
  if (k_out > 0) {
    if (tie(k_out))
      throw DataError(fmt::format("the {} lowest scores end inside tied scores ({}): guess a different number", k_out,
                                  all[k_out - 1]));
    const double t = all[k_out - 1];
    e.threshold_out = t;
    e.correct += std::size_t(std::upper_bound(out.begin(), out.end(), t) - out.begin());
  }
  e.epsilon = one_run_epsilon(m, k_in + k_out, e.correct, delta, alpha);
  return e;
}

std::size_t one_run_search_counts(const ScoreSet& scores) {
  return roc_sweep(scores.in(), scores.out()).points.size();
}

OneRunEstimate one_run_search(const ScoreSet& scores, double delta, double alpha_per_count) {
  check_delta_alpha(delta, alpha_per_count);
  const RocSweep sweep = roc_sweep(scores.in(), scores.out());
  OneRunEstimate best;
  best.canaries = sweep.n_in + sweep.n_out;
  best.counts_tried = sweep.points.size();
  best.alpha_per_count = alpha_per_count;
  const std::size_t m = best.canaries;
  for (const OperatingPoint& p : sweep.points) {
    const std::size_t r = p.true_positives + p.false_positives, v = p.true_positives;
    // A count beats the best so far only if it rejects the best eps itself; p grows
    // with delta, so the cheap delta = 0 test rules most counts out.
    if (p_value(m, r, v, best.epsilon, 0) > alpha_per_count) continue;
    if (p_value(m, r, v, best.epsilon, delta) > alpha_per_count) continue;
    const double eps = largest_rejected(m, r, v, delta, alpha_per_count, best.epsilon);
    if (eps > best.epsilon || !best.threshold_in) {
      best.epsilon = eps;
      best.guesses_in = r;
      best.correct = v;
      best.threshold_in = p.threshold;
    }
  }
  return best;
}

}  // namespace dpaudit
