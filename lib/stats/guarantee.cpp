#include "stats/guarantee.hpp"

namespace dpaudit {

std::string guarantee_name(GuaranteeKind kind) {
  switch (kind) {
    case GuaranteeKind::lower_bound:
      return "lower bound";
    case GuaranteeKind::approximate_bound:
      return "approximate bound";
    case GuaranteeKind::point_estimate:
      return "point estimate";
    case GuaranteeKind::not_a_bound:
      return "not a bound";
  }
  return "";
}

std::string assumption_name(Assumption assumes) {
  switch (assumes) {
    case Assumption::none:
      return "none";
    case Assumption::gaussian_tradeoff_curve:
      return "gaussian trade-off curve";
    case Assumption::gaussian_scores:
      return "gaussian scores";
  }
  return "";
}

GuaranteeKind bound_kind(ThresholdChoice choice, GuaranteeKind sound) {
  return choice == ThresholdChoice::max || choice == ThresholdChoice::uncorrected
             ? GuaranteeKind::not_a_bound
             : sound;
}

std::optional<std::string> guarantee_note(const Guarantee& g, const std::string& what) {
  const std::string curve =
      "the mechanism's trade-off curve is Gaussian (DP-SGD's is close to it, not exactly; "
      "randomized response's and "
      "Laplace's are far from it)";
  if (g.assumes == Assumption::gaussian_scores)
    return what +
           " assumes Gaussian scores on each side and is an estimate, not a lower bound "
           "(clopper-pearson "
           "gives one for every mechanism)";
  if (g.kind == GuaranteeKind::not_a_bound)
    return what +
           " takes the best rule without paying for the choice: its confidence is over-stated, not "
           "a valid "
           "bound ({thresholds} bonferroni, split or multi-split give one)" +
           (g.assumes == Assumption::gaussian_tradeoff_curve ? "; it also assumes " + curve
                                                             : std::string());
  if (g.assumes == Assumption::gaussian_tradeoff_curve)
    return what + " assumes " + curve + ": it is a lower bound only under that assumption";
  return std::nullopt;
}

}  // namespace dpaudit
