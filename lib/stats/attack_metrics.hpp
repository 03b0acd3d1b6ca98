// The attack's own quality, beside the epsilon it implies: the numbers membership-
// inference and auditing papers report, all from one ROC sweep of the sorted scores
// (stats/roc.hpp). The rules are "in when score >= t", t over the distinct scores
// plus t = +inf ("all out"); tied scores are all in or all out together: no rule
// randomizes between two thresholds, except where a metric says so.
//
//   auroc              P(in > out) + P(in = out)/2, the Mann-Whitney AUROC (stats/auroc):
//                      the trapezoid area under the ROC points
//   auroc_convex_hull  the area under the ROC convex hull (Provost & Fawcett 2001),
//                      the AUROC when rules may randomize between two thresholds;
//                      jax_privacy's CanaryScoreAuditor.attack_auroc reports this one.
//                      >= auroc, equal when the ROC points are concave already
//   tpr_at_fpr         for each target f, the largest TPR of a rule with FPR <= f
//                      (stats/auroc's tpr_at_fpr; 0 when only "all out" qualifies).
//                      jax_privacy's tpr_at_given_fpr interpolates on the convex hull
//                      instead (a randomized rule), so it can be larger
//   accuracy           max over rules of (TP + TN) / (n_in + n_out)
//   balanced_accuracy  max over rules of (TPR + TNR) / 2 (the accuracy at prevalence
//                      1/2; >= 1/2, which "all in" and "all out" reach)
//
// Each accuracy comes with a one-sided Clopper-Pearson lower bound at confidence
// 1 - alpha that holds simultaneously for every rule (Bonferroni over the m rules,
// as the threshold estimators count them), so it holds for the rule the maximum picked:
//   accuracy:  1 - CP_upper(errors, n_in + n_out, alpha / m)  (exact for a binomial count;
//              with the class sizes fixed, errors are a sum of two binomials, whose
//              tails beyond the mean are no heavier than the binomial's with the same
//              mean (Hoeffding 1956, "On the distribution of the number of successes
//              in independent trials", Thm. 4), so the bound stays valid, conservatively)
//   balanced:  (1 - CP_upper(FN, n_in, alpha/(2m)) + 1 - CP_upper(FP, n_out, alpha/(2m))) / 2
//              (a union bound over the two rates)
// Both are lower bounds: they say how good the attack at least is. (jax_privacy's
// max_accuracy(significance) is an upper bound, from upper bounds of TPR and TNR.)
#pragma once
#include <cstddef>
#include <vector>

#include "stats/scores.hpp"

namespace dpaudit {

struct TprAtFpr {
  double max_fpr = 0;  // the target
  double tpr = 0;      // the largest TPR of a rule with FPR <= max_fpr
};

struct BestAccuracy {
  double value = 0;  // the maximum over the rules
  double threshold =
      0;  // its rule "in when score >= threshold" (+inf: all out); the highest on ties
  double lower_bound = 0;  // Clopper-Pearson, simultaneous over the rules (see above)
};

struct AttackMetrics {
  std::size_t n_in = 0;
  std::size_t n_out = 0;
  std::size_t rules = 0;  // m: distinct scores + 1 (all out)
  double alpha = 0;
  double auroc = 0;
  double auroc_convex_hull = 0;
  std::vector<TprAtFpr> tpr_at_fpr;  // in the order of the targets given
  BestAccuracy accuracy;
  BestAccuracy balanced_accuracy;
};

// All of the above from one sweep. UsageError for a target outside [0,1] or alpha
// outside (0,1); DataError when a class has no scores.
AttackMetrics attack_metrics(const ScoreSet& scores, const std::vector<double>& fpr_targets,
                             double alpha);

}  // namespace dpaudit
