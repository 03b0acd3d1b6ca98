#include "stats/attack_metrics.hpp"

#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "core/error.hpp"
#include "stats/auroc.hpp"
#include "stats/binomial_bounds.hpp"
#include "stats/roc.hpp"

namespace dpaudit {
namespace {

// A ROC point in counts: (false positives, true positives).
struct Counts {
  std::int64_t fp, tp;
};

// > 0 when b lies strictly above the chord from a to c (a, b, c by increasing fp).
// Counts are exact integers and the scaling to rates is positive per axis, so the
// orientation in counts is the orientation in rates.
std::int64_t above_chord(const Counts& a, const Counts& b, const Counts& c) {
  return (b.tp - a.tp) * (c.fp - a.fp) - (c.tp - a.tp) * (b.fp - a.fp);
}

}  // namespace

AttackMetrics attack_metrics(const ScoreSet& scores, const std::vector<double>& fpr_targets,
                             double alpha) {
  if (!(alpha > 0 && alpha < 1)) throw UsageError(fmt::format("alpha {} is not in (0,1)", alpha));
  for (double f : fpr_targets)
    if (!(f >= 0 && f <= 1))
      throw UsageError(fmt::format("a false-positive rate target must be in [0,1], got {}", f));
  if (scores.in().empty() || scores.out().empty())
    throw DataError("attack metrics need in and out scores");

  const RocSweep sweep = roc_sweep(scores.in(), scores.out());
  AttackMetrics m;
  m.n_in = sweep.n_in;
  m.n_out = sweep.n_out;
  m.rules = sweep.points.size() + 1;
  m.alpha = alpha;
  m.auroc = auroc(sweep);
  for (double f : fpr_targets) m.tpr_at_fpr.push_back({f, tpr_at_fpr(sweep, f)});

  // One pass down the thresholds, from "all out" (0, 0): the upper convex hull of the
  // ROC points (Andrew's monotone chain; points on a chord are dropped), and the best
  // rule for each accuracy, compared in exact integers (the first, i.e. highest, on ties).
  const std::uint64_t n_in = sweep.n_in, n_out = sweep.n_out;
  std::vector<Counts> hull{{0, 0}};
  std::uint64_t best_correct = n_out;          // all out: every out score right
  std::uint64_t best_balanced = n_out * n_in;  // (TP n_out + TN n_in), all out: n_out n_in
  std::size_t best_tp = 0, best_fp = 0, best_balanced_tp = 0, best_balanced_fp = 0;
  m.accuracy.threshold = m.balanced_accuracy.threshold = INFINITY;
  for (const OperatingPoint& p : sweep.points) {
    const Counts c{static_cast<std::int64_t>(p.false_positives),
                   static_cast<std::int64_t>(p.true_positives)};
    while (hull.size() >= 2 && above_chord(hull[hull.size() - 2], hull.back(), c) <= 0)
      hull.pop_back();
    hull.push_back(c);
    const std::uint64_t tp = p.true_positives, tn = n_out - p.false_positives;
    if (tp + tn > best_correct) {
      best_correct = tp + tn;
      best_tp = p.true_positives;
      best_fp = p.false_positives;
      m.accuracy.threshold = p.threshold;
    }
    if (tp * n_out + tn * n_in > best_balanced) {
      best_balanced = tp * n_out + tn * n_in;
      best_balanced_tp = p.true_positives;
      best_balanced_fp = p.false_positives;
      m.balanced_accuracy.threshold = p.threshold;
    }
  }
  // The hull ends at "all in" (n_out, n_in), the last point of the sweep. Its area in
  // counts, twice: sum of (fp2 - fp1)(tp1 + tp2), each term an integer below 2^53.
  std::uint64_t twice_area = 0;
  for (std::size_t i = 1; i < hull.size(); ++i)
    twice_area +=
        static_cast<std::uint64_t>((hull[i].fp - hull[i - 1].fp) * (hull[i].tp + hull[i - 1].tp));
  m.auroc_convex_hull = static_cast<double>(twice_area) / 2 /
                        (static_cast<double>(n_in) * static_cast<double>(n_out));

  const double n = static_cast<double>(n_in + n_out), rules = static_cast<double>(m.rules);
  m.accuracy.value = static_cast<double>(best_correct) / n;
  m.accuracy.lower_bound =
      1 - clopper_pearson_upper((n_in - best_tp) + best_fp, n_in + n_out, alpha / rules);
  m.balanced_accuracy.value = static_cast<double>(best_balanced) /
                              (2 * static_cast<double>(n_in) * static_cast<double>(n_out));
  m.balanced_accuracy.lower_bound =
      (2 - clopper_pearson_upper(n_in - best_balanced_tp, n_in, alpha / (2 * rules)) -
       clopper_pearson_upper(best_balanced_fp, n_out, alpha / (2 * rules))) /
      2;
  return m;
}

}  // namespace dpaudit
