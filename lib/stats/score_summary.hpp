// What --json and --report show beside the epsilon: counts, AUROC, TPR at small
// FPRs, a Gaussian fit of each side and its Anderson-Darling statistic (003 App. B).
#pragma once
#include <array>
#include <cstddef>
#include <optional>

#include "accounting/cosine_null.hpp"
#include "accounting/two_gaussian.hpp"
#include "stats/scores.hpp"

namespace dpaudit {

// The FPRs at which TPR is reported.
inline constexpr std::array<double, 3> kSummaryFprs{0.001, 0.01, 0.1};

struct SideSummary {
  std::size_t count = 0;
  Gaussian fit{0, 0};                       // mean and std, ddof 0
  std::optional<double> anderson_darling;   // none with fewer than 2 distinct scores
};

struct ScoreSummary {
  SideSummary in;
  std::optional<SideSummary> out;  // none with an analytic null
  double auroc = 0;
  std::array<double, kSummaryFprs.size()> tpr_at_fpr{};
};

// With a null, AUROC and TPR are against the null's exact distribution and the out
// scores are ignored. UsageError when in scores (or, without a null, out scores) are missing.
ScoreSummary summarize_scores(const ScoreSet& scores, const std::optional<CosineNull>& null);

}  // namespace dpaudit
