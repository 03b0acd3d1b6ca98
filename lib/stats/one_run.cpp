#include "stats/one_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <fmt/format.h>
#include <boost/math/special_functions/beta.hpp>

#include "accounting/binomial_pmf.hpp"
#include "core/error.hpp"
#include "stats/roc.hpp"
#include "stats/sorted_union.hpp"

namespace dpaudit {

Guarantee one_run_guarantee(const OneRunOptions& options) {
  const bool gaussian = options.test == OneRunTest::fdp && options.curve == FdpCurve::gaussian;
  return {bound_kind(options.strategy.choice),
          gaussian ? Assumption::gaussian_tradeoff_curve : Assumption::none};
}
namespace {

void check_outcome(std::size_t m, std::size_t r, std::size_t v) {
  if (!(v <= r && r <= m))
    throw UsageError(fmt::format(
        "one-run outcome needs correct <= guesses <= canaries, got {} <= {} <= {}", v, r, m));
}

void check_delta_alpha(double delta, double alpha) {
  if (!(delta >= 0 && delta < 1)) throw UsageError(fmt::format("delta {} is not in [0,1)", delta));
  if (!(alpha > 0 && alpha < 1)) throw UsageError(fmt::format("alpha {} is not in (0,1)", alpha));
}

// W ~ Binomial(r, q) with 1 - q = 1 / (1 + e^eps), kept exact for large eps: the tail
// beta = P[W >= v] and log a_1 = log P[W = v - 1] (v >= 1).
struct Tail {
  double beta;
  double log_a1;
};

Tail binomial_tail(std::size_t r, std::size_t v, double eps, bool with_pmf) {
  const double log1p_e = std::log1p(std::exp(-eps));
  const double log_q = -log1p_e, log_not_q = -eps - log1p_e;
  const double rd = double(r), vd = double(v);
  // beta = P[W >= v] = I_q(v, r - v + 1) = 1 - I_{1-q}(r - v + 1, v).
  const double not_q = std::exp(log_not_q);
  Tail t{boost::math::ibetac(rd - vd + 1, vd, not_q), 0};
  if (!with_pmf) return t;
  // log P[W = v - 1] by Loader's saddle-point form: the lgamma form's error (1.5e-9 at r = 10^6,
  // relative in a_1 and so in the delta term) put one-run's eps at 10^7 scores 4e-10 above
  // the exact root (mpmath, 40 digits); this one's, about 1e-11.
  t.log_a1 = log_binomial_pmf(rd, vd - 1, log_q, log_not_q);
  return t;
}

// The delta term's factor max_i (P[v-i <= W < v]) / i, the largest running mean of
// a_i = P[W = v - i]. a_i is unimodal in i (the binomial pmf is), so the running mean rises
// while the next term exceeds it and never rises again once one does not: stop there.
// P[W = j-1] / P[W = j] = j / (r - j + 1) * e^-eps, so the terms are summed relative to a_1
// (three roundings a term, each relative), their sum kept below 2^900 by exact scalings by
// 2^-900 (counted in log_scale), and a_1 applied once at the end in log space (where it
// underflows, the delta term is negligible and comes out 0). Summing the logarithms of the
// terms instead rounds each at the size of log a_1 (up to hundreds) and took four logarithms,
// an exp and a log1p a term: half of one-run's time at 10^7 scores.
double max_mean(std::size_t r, std::size_t v, double eps, double log_a1) {
  const double rd = double(r), vd = double(v);
  const double e_minus_eps = std::exp(-eps), big = std::ldexp(1.0, 900);
  double a = 1, sum = 1, log_scale = 0;
  std::size_t i = 1;
  for (; i < v; ++i) {
    const double j = vd - double(i);  // a_i = P[W = j]; next is P[W = j - 1]
    const double next = a * (j / (rd - j + 1) * e_minus_eps);
    if (next * double(i) <= sum) break;
    a = next;
    sum += a;
    if (sum > big) {
      a /= big;
      sum /= big;
      log_scale += 900 * std::log(2.0);
    }
  }
  return std::exp(log_a1 + log_scale + std::log(sum / double(i)));
}

// p(eps, delta) of the header, arguments checked.
double p_value(std::size_t m, std::size_t r, std::size_t v, double eps, double delta) {
  if (v == 0) return 1.0;
  const Tail t = binomial_tail(r, v, eps, delta > 0);
  if (delta == 0) return t.beta;
  return std::min(1.0, t.beta + 2 * double(m) * delta * max_mean(r, v, eps, t.log_a1));
}

bool p_value_at_most(std::size_t m, std::size_t r, std::size_t v, double eps, double delta,
                     double alpha) {
  return p_value(m, r, v, eps, delta) <= alpha;
}

}  // namespace

double one_run_p_value(std::size_t m, std::size_t r, std::size_t v, double eps, double delta) {
  check_outcome(m, r, v);
  if (!(eps >= 0 && std::isfinite(eps)))
    throw UsageError(fmt::format("epsilon {} is not finite and >= 0", eps));
  if (!(delta >= 0 && delta < 1)) throw UsageError(fmt::format("delta {} is not in [0,1)", delta));
  return p_value(m, r, v, eps, delta);
}

double one_run_epsilon(std::size_t m, std::size_t r, std::size_t v, double delta, double alpha) {
  OneRunOptions o;
  o.delta = delta;
  return one_run_outcome_epsilon(o, m, r, v, alpha);
}

double one_run_outcome_epsilon(const OneRunOptions& o, std::size_t m, std::size_t r, std::size_t v,
                               double alpha) {
  if (o.test == OneRunTest::fdp) return one_run_fdp_epsilon(m, r, v, o.delta, alpha, o.curve);
  check_outcome(m, r, v);
  check_delta_alpha(o.delta, alpha);
  // p grows with delta, so the cheap delta = 0 test rules most outcomes out.
  if (!p_value_at_most(m, r, v, 0, 0, alpha) || !p_value_at_most(m, r, v, 0, o.delta, alpha))
    return 0;
  // Largest eps with p(eps) <= alpha. p -> 1 as eps -> inf (q -> 1 and v <= r), so the
  // search's doubling stops (by eps ~ 750 1 - q underflows to 0 and p = 1).
  return largest_refuted_epsilon(
      [&](double eps) { return p_value_at_most(m, r, v, eps, o.delta, alpha); }, 0);
}

std::vector<std::size_t> one_run_guess_grid(std::size_t m) {
  std::vector<std::size_t> grid;
  for (std::size_t decade = 10; decade <= m / 2 && decade <= SIZE_MAX / 10; decade *= 10)
    for (std::size_t f : {1, 2, 5})
      if (f * decade <= m / 2) grid.push_back(f * decade);
  if (grid.empty()) grid.push_back(std::max<std::size_t>(1, m / 2));
  return grid;
}

void check_one_run_labels(const ScoreSet& scores) {
  const std::size_t n_in = scores.in().size(), n_out = scores.out().size(), m = n_in + n_out;
  if (n_in == 0 || n_out == 0)
    throw DataError(fmt::format(
        "one-run needs canaries with both labels, got {} in and {} out: each canary must be "
        "included independently with probability 1/2",
        n_in, n_out));
  // 2 P[Bin(m, 1/2) <= k] = 2 I_{1/2}(m - k, k + 1), k the smaller class.
  const double k = double(std::min(n_in, n_out));
  const double p = std::min(1.0, 2 * boost::math::ibeta(double(m) - k, k + 1, 0.5));
  if (p <= 1e-6)
    throw DataError(fmt::format(
        "{} in and {} out of {} canaries: independent inclusion with probability 1/2 splits "
        "this unevenly with probability {:.3g} (two-sided binomial test, refused below 1e-6), "
        "and the one-run tests need that inclusion",
        n_in, n_out, m, p));
}

namespace {

// "in" for the scores >= t, tested at alpha.
OneRunEstimate at_threshold(const ScoreSet& s, double t, const OneRunOptions& o, double alpha,
                            std::size_t tried) {
  OneRunEstimate e;
  e.canaries = s.in().size() + s.out().size();
  const OperatingPoint p = operating_point_at(s.in(), s.out(), t);
  e.guesses_in = p.true_positives + p.false_positives;
  e.correct = p.true_positives;
  if (e.guesses_in > 0) e.threshold_in = t;
  e.counts_tried = tried;
  e.alpha_per_count = alpha;
  e.epsilon = one_run_outcome_epsilon(o, e.canaries, e.guesses_in, e.correct, alpha);
  return e;
}

// The best rule "in for the scores >= t" over every distinct score t (the sweep's
// points), each at alpha.
OneRunEstimate best_threshold(const RocSweep& sweep, const OneRunOptions& o, double alpha) {
  OneRunEstimate best;
  best.canaries = sweep.n_in + sweep.n_out;
  best.counts_tried = sweep.points.size();
  best.alpha_per_count = alpha;
  const std::size_t m = best.canaries;
  // A count can only beat `floor` if it refutes it. For the binomial test, a precision
  // v/r at most q(floor) gives P[W >= v] >= 1/2 (v is at most the median of W ~ Bin(r, q)),
  // which no alpha < 1/2 rejects: ruled out without a Beta function; then the cheap
  // delta = 0 p-value (p grows with delta).
  const auto refutes = [&](std::size_t r, std::size_t v, double floor) {
    if (v == 0) return false;
    if (o.test == OneRunTest::fdp)
      return floor == 0 || one_run_fdp_refutes(m, r, v, floor, o.delta, alpha, o.curve);
    if (alpha < 0.5 && double(v) <= double(r) / (1 + std::exp(-floor))) return false;
    return p_value_at_most(m, r, v, floor, 0, alpha) &&
           p_value_at_most(m, r, v, floor, o.delta, alpha);
  };
  double floor = 0;
  const auto visit = [&](const OperatingPoint& p, bool record) {
    const std::size_t r = p.true_positives + p.false_positives, v = p.true_positives;
    if (!refutes(r, v, floor)) return;
    // Each count's bound from scratch, so it is a function of (m, r, v) alone.
    const double eps = one_run_outcome_epsilon(o, m, r, v, alpha);
    floor = std::max(floor, eps);
    if (record && (eps > best.epsilon || !best.threshold_in)) {
      best.epsilon = eps;
      best.guesses_in = r;
      best.correct = v;
      best.threshold_in = p.threshold;
    }
  };
  // A good floor early rules most counts out with one comparison: first the counts at
  // geometrically spaced positions (about 20 per factor 10), then every count in order.
  const std::size_t n = sweep.points.size();
  for (double i = 0; i < double(n); i = std::max(i + 1, std::floor(i * 1.12)))
    visit(sweep.points[std::size_t(i)], false);
  for (const OperatingPoint& p : sweep.points) visit(p, true);
  return best;
}

// The rule "in for the scores >= t" of grid count k on the ascending scores: t is the k-th
// highest score when the cut falls between two different scores. A cut inside tied scores
// moves to the nearer end of the tie (above it on equal distance; below it when nothing lies
// above), so a tie costs the count only the guesses the tie forces: moving always above would
// leave no guesses when the top scores are one tie (randomized response, scores in {0,1}).
// A function of the scores and k alone.
double grid_threshold(const SortedUnion& c, std::size_t k) {
  const std::size_t m = c.size();
  const double t = c.at(m - k);
  if (k == m || c.at(m - k - 1) != t) return t;
  const std::size_t up_to_tie = c.at_most(t);
  if (up_to_tie == m) return t;  // the top scores are all one tie: guess them all
  const std::size_t guesses_above = m - up_to_tie, guesses_with_tie = m - c.below(t);
  return k - guesses_above <= guesses_with_tie - k ? c.at(up_to_tie) : t;
}

// Top-k guesses for k on the grid, each at level(grid size).
OneRunEstimate grid_search(const ScoreSet& s, const OneRunOptions& o,
                           const std::function<double(std::size_t)>& level) {
  const SortedUnion c(s.in(), s.out());  // all scores, no labels: the guesses never see them
  const std::vector<std::size_t> grid = one_run_guess_grid(c.size());
  const double alpha = level(grid.size());
  OneRunEstimate best;
  best.canaries = c.size();
  best.counts_tried = grid.size();
  best.alpha_per_count = alpha;
  for (std::size_t k : grid) {
    const OneRunEstimate e = at_threshold(s, grid_threshold(c, k), o, alpha, grid.size());
    if (e.epsilon > best.epsilon || !best.threshold_in) best = e;
  }
  return best;
}

// The best rule of the choosing half (at alpha), tested on the held-out half at alpha.
// No in score on the choosing half, hence no rule: no guesses, eps 0.
OneRunEstimate choose_then_test(const ScoreSet& choose, const ScoreSet& hold,
                                const OneRunOptions& o, double alpha) {
  const OneRunEstimate chosen = best_threshold(roc_sweep(choose.in(), choose.out()), o, alpha);
  if (chosen.threshold_in)
    return at_threshold(hold, *chosen.threshold_in, o, alpha, chosen.counts_tried);
  OneRunEstimate none;
  none.canaries = hold.in().size() + hold.out().size();
  none.alpha_per_count = alpha;
  return none;
}

}  // namespace

OneRunEstimate one_run_fixed(const ScoreSet& scores, std::size_t k_in, std::size_t k_out,
                             const OneRunOptions& o) {
  check_delta_alpha(o.delta, o.alpha);
  const SortedUnion c(scores.in(), scores.out());
  const std::size_t m = c.size();
  if (k_in + k_out == 0) throw UsageError("one-run needs at least one guess");
  if (k_in + k_out > m)
    throw UsageError(fmt::format("{} + {} guesses exceed the {} canaries", k_in, k_out, m));
  OneRunEstimate e;
  e.canaries = m;
  e.guesses_in = k_in;
  e.guesses_out = k_out;
  e.alpha_per_count = o.alpha;
  // The cut between guessed and not guessed must fall between two different scores.
  const auto tie = [&](std::size_t below) {
    return below > 0 && below < m && c.at(below - 1) == c.at(below);
  };
  if (k_in > 0) {
    if (tie(m - k_in))
      throw DataError(
          fmt::format("the {} highest scores end inside tied scores ({}): guess a different number",
                      k_in, c.at(m - k_in)));
    e.threshold_in = c.at(m - k_in);
    e.correct += operating_point_at(scores.in(), scores.out(), *e.threshold_in).true_positives;
  }
  if (k_out > 0) {
    if (tie(k_out))
      throw DataError(
          fmt::format("the {} lowest scores end inside tied scores ({}): guess a different number",
                      k_out, c.at(k_out - 1)));
    const double t = c.at(k_out - 1);
    e.threshold_out = t;
    e.correct += std::size_t(std::upper_bound(scores.out().begin(), scores.out().end(), t) -
                             scores.out().begin());
  }
  e.epsilon = one_run_outcome_epsilon(o, m, k_in + k_out, e.correct, o.alpha);
  return e;
}

OneRunEstimate one_run_audit(const ScoreSet& scores, const OneRunOptions& o) {
  check_delta_alpha(o.delta, o.alpha);
  if (scores.in().empty() && scores.out().empty()) throw DataError("one-run needs scores");
  StrategyHooks<OneRunEstimate> hooks;
  hooks.at_threshold = [&](const ScoreSet& s, double t, double alpha) {
    return at_threshold(s, t, o, alpha, 1);
  };
  hooks.best = [&](const ScoreSet& s, ThresholdChoice choice,
                   const std::function<double(std::size_t)>& level) {
    if (choice == ThresholdChoice::bonferroni) return grid_search(s, o, level);
    if (choice == ThresholdChoice::max) {
      const RocSweep sweep = roc_sweep(s.in(), s.out());
      return best_threshold(sweep, o, level(sweep.points.size()));
    }
    throw UsageError(
        Pattern{"one-run has no error rates to spend alpha on: uncorrected is for the rate-based "
                "methods; max is its uncorrected search"},
        "{thresholds}");
  };
  hooks.choose_then_test = [&](const ScoreSet& choose, const ScoreSet& hold, double alpha) {
    return choose_then_test(choose, hold, o, alpha);
  };
  hooks.bound = &OneRunEstimate::epsilon;
  // One count tested: alpha is not split between rates.
  return estimate_by_strategy(scores, o.strategy, o.alpha, 1, SplitKind::label_blind, hooks);
}

}  // namespace dpaudit
