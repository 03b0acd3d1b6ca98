#include "stats/score_summary.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "stats/anderson_darling.hpp"
#include "stats/auroc.hpp"
#include "stats/gaussian_fit.hpp"

namespace dpaudit {
namespace {

SideSummary summarize_side(const std::vector<double>& sorted) {
  SideSummary s;
  s.count = sorted.size();
  s.fit = fit_gaussian(sorted);
  if (sorted.size() >= 2 && sorted.front() != sorted.back())
    s.anderson_darling = anderson_darling_normal(sorted);
  return s;
}

}  // namespace

ScoreSummary summarize_scores(const ScoreSet& scores, const std::optional<CosineNull>& null,
                              const std::vector<double>& fpr_targets, double alpha) {
  if (scores.in().empty()) throw UsageError("summarize_scores: no in scores");
  ScoreSummary summary;
  summary.in = summarize_side(scores.in());
  if (null) {
    const auto null_log_cdf = [&](double t) { return log_cdf(*null, t); };
    const auto null_log_sf = [&](double t) { return log_sf(*null, t); };
    // The null's log density as its value at the mode 0 plus the t-dependent part of
    // Andrew et al. 2024, Thm 3.1, ((d-3)/2) log(1 - t^2), or of N(0, 1/d), -d t^2 / 2: one log1p
    // instead of the normalising log-gammas per call.
    const double log_pdf_at_mode = cosine_null_log_pdf(null->dim, 0, null->kind);
    const double d = static_cast<double>(null->dim);
    const auto null_log_pdf = [&](double t) {
      return log_pdf_at_mode +
             (null->kind == NullKind::exact ? (d - 3) / 2 * std::log1p(-t * t) : -d * t * t / 2);
    };
    summary.auroc = auroc_against(scores.in(), null_log_cdf, null_log_pdf);
    for (double f : fpr_targets) {
      if (!(f >= 0 && f <= 1))
        throw UsageError(fmt::format("a false-positive rate target must be in [0,1], got {}", f));
      summary.tpr_at_fpr.push_back({f, tpr_at_fpr_against(scores.in(), null_log_sf, f, -1, 1)});
    }
    return summary;
  }
  if (scores.out().empty()) throw UsageError("summarize_scores: no out scores");
  summary.out = summarize_side(scores.out());
  summary.attack = attack_metrics(scores, fpr_targets, alpha);
  summary.auroc = summary.attack->auroc;
  summary.tpr_at_fpr = summary.attack->tpr_at_fpr;
  return summary;
}

}  // namespace dpaudit
