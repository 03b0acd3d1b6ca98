#include "stats/balls_in_bins_bound.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "stats/binomial_bounds.hpp"

namespace dpaudit {

namespace {

void check_options(const BallsInBinsOptions& o) {
  if (o.samples < 1000) throw UsageError(fmt::format("{} samples: at least 1000", o.samples));
  if (!(o.confidence > 0 && o.confidence < 1))
    throw UsageError(fmt::format("confidence {} is not in (0, 1)", o.confidence));
}

}  // namespace

namespace {

// One stratum's counts as T_k, the samples above l_{k-1}, read off one k at a time (k = 1, 2,
// ...), with the Clopper-Pearson bound of the last count asked for kept (it changes only when
// T does).
class StratumTail {
 public:
  StratumTail(const EpochStratum& stratum, std::vector<std::uint64_t> counts, std::uint64_t n,
              double level)
      : stratum_(stratum),
        counts_(std::move(counts)),
        n_(n),
        above_(n - counts_[0]),
        level_(level) {}

  // At lattice point k >= 1 (in order), loss l_{k-1}: the stratum's share of P(L > l_{k-1}),
  // estimated; then its upper bound (call both, estimate first).
  double estimate(std::size_t k, double loss) {
    if (k > 1) above_ -= counts_[k - 1];
    if (loss >= stratum_.max_loss) return 0;
    return stratum_.probability * static_cast<double>(above_) / static_cast<double>(n_);
  }
  double upper(double loss) {
    if (loss >= stratum_.max_loss) return 0;
    if (above_ != cp_count_) {
      cp_ = clopper_pearson_upper(static_cast<std::size_t>(above_), static_cast<std::size_t>(n_),
                                  level_);
      cp_count_ = above_;
    }
    return stratum_.probability * cp_;
  }

 private:
  EpochStratum stratum_;
  std::vector<std::uint64_t> counts_;
  std::uint64_t n_, above_, cp_count_ = ~std::uint64_t{0};
  double level_, cp_ = 1;
};

}  // namespace

BallsInBinsBound::Direction BallsInBinsBound::direction(const BallsInBinsRun& run, Adjacency a,
                                                        const BallsInBinsOptions& o, double alpha) {
  const EpochLossLattice lattice = epoch_loss_lattice(run, a, o.seed, o.pilot, o.max_points);
  const std::vector<EpochStratum> strata = epoch_strata(run, a);
  // Half the samples to the bulk (stratum 0), whose every loss sits below its own count's
  // bound; the rest shared by the tail strata.
  const std::size_t m = strata.size();
  const auto samples = [&](std::size_t j) -> std::uint64_t {
    if (m == 1) return o.samples;
    return j == 0 ? o.samples / 2 : o.samples / 2 / (m - 1);
  };
  // Bonferroni over every (lattice point, stratum) pair of the direction.
  const double level = alpha / static_cast<double>(lattice.points * strata.size());
  std::vector<StratumTail> tails;
  for (std::size_t j = 0; j < strata.size(); ++j)
    tails.emplace_back(
        strata[j],
        count_epoch_losses(run, a, strata[j], j, lattice, o.seed, 0, samples(j), o.threads),
        samples(j), level);
  const EpochLossTail analytic(run, a);
  std::vector<double> band(lattice.points + 1), frequency(lattice.points + 1);
  band[0] = frequency[0] = 1;
  for (std::size_t k = 1; k <= lattice.points; ++k) {
    const double loss = lattice.loss(k - 1);
    double estimate = 0;
    for (StratumTail& t : tails) estimate += t.estimate(k, loss);
    const double tail = analytic(loss);
    double upper = 0;
    // Each stratum's bound is at least its estimate: where the analytic tail is below the
    // estimate, it is the smaller, and no bound needs computing.
    if (tail > estimate)
      for (StratumTail& t : tails) upper += t.upper(loss);
    frequency[k] = std::min({estimate, tail, frequency[k - 1]});
    band[k] = std::min({tail, tail > estimate ? upper : tail, band[k - 1]});
  }
  return {ComposedEpochs(lattice, band, run.epochs),
          ComposedEpochs(lattice, frequency, run.epochs)};
}

BallsInBinsBound::BallsInBinsBound(const BallsInBinsRun& run, const BallsInBinsOptions& o)
    : remove_((check_balls_in_bins(run), check_options(o),
               direction(run, Adjacency::remove, o, (1 - o.confidence) / 2))),
      add_(direction(run, Adjacency::add, o, (1 - o.confidence) / 2)) {}

double BallsInBinsBound::upper(double delta) const {
  return std::max(remove_.upper.epsilon(delta), add_.upper.epsilon(delta));
}

double BallsInBinsBound::estimate(double delta) const {
  return std::max(remove_.estimate.epsilon(delta), add_.estimate.epsilon(delta));
}

}  // namespace dpaudit
