#include "stats/epsilon_from_rates.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/infinity.hpp"

namespace dpaudit {
namespace {

// log((1 - delta - exp(log_a)) / exp(log_b)); -inf when the numerator is <= 0.
double log_ratio_term(double log_a, double log_b, double delta) {
  const double used = delta + std::exp(log_a);
  if (used >= 1) return -kInf;
  const double log_numerator = std::log1p(-used);
  if (log_b == -kInf) return kInf;
  return log_numerator - log_b;
}

void check_log_rate(double log_rate, const char* name) {
  if (std::isnan(log_rate) || log_rate > 0)
    throw UsageError(fmt::format("{} {} is not a rate in [0,1]", name, std::exp(log_rate)));
}

}  // namespace

double epsilon_from_log_rates(double log_fpr, double log_fnr, double delta, Sides sides) {
  if (!(delta >= 0 && delta < 1)) throw UsageError(fmt::format("delta {} is not in [0,1)", delta));
  check_log_rate(log_fpr, "FPR");
  check_log_rate(log_fnr, "FNR");
  double eps = log_ratio_term(log_fnr, log_fpr, delta);  // log((1 - delta - FNR) / FPR)
  if (sides == Sides::both) eps = std::max(eps, log_ratio_term(log_fpr, log_fnr, delta));
  return eps > 0 ? eps : 0.0;  // also turns -0 into 0
}

double epsilon_from_rates(double fpr, double fnr, double delta, Sides sides) {
  if (!(fpr >= 0 && fpr <= 1)) throw UsageError(fmt::format("FPR {} is not in [0,1]", fpr));
  if (!(fnr >= 0 && fnr <= 1)) throw UsageError(fmt::format("FNR {} is not in [0,1]", fnr));
  return epsilon_from_log_rates(std::log(fpr), std::log(fnr), delta, sides);
}

}  // namespace dpaudit
