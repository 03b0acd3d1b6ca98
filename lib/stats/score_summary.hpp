// What --json and --report show beside the epsilon: counts, AUROC, TPR at chosen
// FPRs, a Gaussian fit of each side and its Anderson-Darling statistic (Andrew et al. 2024, App.
// B), and, against sampled out scores, the attack metrics of stats/attack_metrics.hpp.
#pragma once
#include <cstddef>
#include <optional>
#include <vector>

#include "accounting/cosine_null.hpp"
#include "accounting/two_gaussian.hpp"
#include "stats/attack_metrics.hpp"
#include "stats/scores.hpp"

namespace dpaudit {

// The FPRs at which TPR is reported unless the caller names others (eps-from-scores --tpr-at).
inline const std::vector<double> kSummaryFprs{0.001, 0.01, 0.1};

struct SideSummary {
  std::size_t count = 0;
  Gaussian fit{0, 0};                      // mean and std, ddof 0
  std::optional<double> anderson_darling;  // none with fewer than 2 distinct scores
};

struct ScoreSummary {
  SideSummary in;
  std::optional<SideSummary> out;  // none with an analytic null
  double auroc = 0;
  std::vector<TprAtFpr> tpr_at_fpr;  // at the targets given, in their order
  // Without a null: the convex-hull AUROC and the best accuracies with their lower
  // bounds at confidence 1 - alpha (its auroc and tpr_at_fpr are the ones above).
  std::optional<AttackMetrics> attack;
};

// With a null, AUROC and TPR are against the null's exact distribution, the out
// scores are ignored and there are no attack metrics (they need sampled outs).
// UsageError when in scores (or, without a null, out scores) are missing, for a
// target outside [0,1], and (without a null) for alpha outside (0,1).
ScoreSummary summarize_scores(const ScoreSet& scores, const std::optional<CosineNull>& null,
                              const std::vector<double>& fpr_targets, double alpha);

}  // namespace dpaudit
