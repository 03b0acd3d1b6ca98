#include "accounting/event.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dpaudit {

void check_event(const AccountingEvent& e, bool mixture_ok) {
  if (!(e.sigma > 0) || !std::isfinite(e.sigma))
    throw UsageError(fmt::format("sigma must be positive and finite, got {}", e.sigma));
  if (!(e.q > 0 && e.q <= 1)) throw UsageError(fmt::format("q must be in (0,1], got {}", e.q));
  if (e.steps < 1) throw UsageError(fmt::format("steps must be >= 1, got {}", e.steps));
  if (by_epochs(e.sampling))
    throw UsageError(
        "a segment is Poisson or without replacement: epochs (shuffled, balls-in-bins) are "
        "accounted by their participations");
  if (e.micro < 1) throw UsageError(fmt::format("micro-batches must be >= 1, got {}", e.micro));
  if (e.micro > 1 && !mixture_ok)
    throw UsageError(
        "micro-batches (a mixture of Gaussians) are accounted by the PLD accountant only");
  if (e.micro > 1 && e.sampling != Sampling::poisson)
    throw UsageError("micro-batches are accounted for Poisson sampling only");
}

double noise_over_sensitivity(const AccountingEvent& e) {
  return e.sampling == Sampling::without_replacement ? e.sigma / 2 : e.sigma;
}

}  // namespace dpaudit
