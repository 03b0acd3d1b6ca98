#include "stats/sweep_maximum.hpp"

#include <queue>
#include <vector>

#include "core/error.hpp"

namespace dpaudit {
namespace {

// Rules lo..hi with the rates at their ends: the best combination is fpr(lo), fnr(hi).
struct Block {
  std::size_t lo, hi;
  double log_fpr_lo, log_fnr_hi;
  double bound;
};

// Highest bound first; among equal bounds the block of higher thresholds (lower
// index), so the search order, and the rule reported, are deterministic.
struct LowerPriority {
  bool operator()(const Block& a, const Block& b) const {
    return a.bound != b.bound ? a.bound < b.bound : a.lo > b.lo;
  }
};

}  // namespace

SweepMaximum maximize_epsilon(std::size_t n, const LogRateAt& log_fpr, const LogRateAt& log_fnr,
                              double delta, Sides sides) {
  return maximize_over_sweep(n, log_fpr, log_fnr, [&](double log_fpr_at, double log_fnr_at) {
    return epsilon_from_log_rates(log_fpr_at, log_fnr_at, delta, sides);
  });
}

SweepMaximum maximize_over_sweep(std::size_t n, const LogRateAt& log_fpr, const LogRateAt& log_fnr,
                                 const SweepCriterion& criterion) {
  if (n == 0) throw UsageError("maximize_over_sweep: no decision rules");
  SweepMaximum best;
  struct Rates {
    double log_fpr, log_fnr;
  };
  const auto evaluate = [&](std::size_t i) {
    const Rates r{log_fpr(i), log_fnr(i)};
    const double eps = criterion(r.log_fpr, r.log_fnr);
    if (best.evaluations++ == 0 || eps > best.epsilon) {
      best.index = i;
      best.epsilon = eps;
      best.log_fpr = r.log_fpr;
      best.log_fnr = r.log_fnr;
    }
    return r;
  };
  std::priority_queue<Block, std::vector<Block>, LowerPriority> open;
  const auto push = [&](std::size_t lo, std::size_t hi, double fpr_lo, double fnr_hi) {
    if (hi - lo < 2) return;  // both ends evaluated: nothing inside is left
    open.push({lo, hi, fpr_lo, fnr_hi, criterion(fpr_lo, fnr_hi)});
  };
  const Rates first = evaluate(0);
  const Rates last = n > 1 ? evaluate(n - 1) : first;
  push(0, n - 1, first.log_fpr, last.log_fnr);
  while (!open.empty() && open.top().bound > best.epsilon) {
    const Block b = open.top();
    open.pop();
    const std::size_t mid = b.lo + (b.hi - b.lo) / 2;  // lo < mid < hi
    const Rates at_mid = evaluate(mid);
    push(b.lo, mid, b.log_fpr_lo, at_mid.log_fnr);
    if (mid + 1 < b.hi) {
      const Rates after_mid = evaluate(mid + 1);
      push(mid + 1, b.hi, after_mid.log_fpr, b.log_fnr_hi);
    }
  }
  return best;
}

}  // namespace dpaudit
