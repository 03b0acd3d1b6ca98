#include "accounting/balls_in_bins.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <Eigen/Core>
#include <boost/math/special_functions/erf.hpp>

#include "accounting/log_space.hpp"
#include "accounting/pld_pmf.hpp"
#include "core/error.hpp"
#include "core/infinity.hpp"
#include "core/parallel.hpp"
#include "random/philox_stream.hpp"
#include "random/streams.hpp"
#include "random/ziggurat.hpp"

namespace dpaudit {

namespace {

constexpr long long kMaxBatches = 1LL << 20;  // a sample's normals: 8 MiB at the most
constexpr int kStrata = 10;                   // the remove direction's: P(M >= c_j) = 10^-j
constexpr double kTailCut = 1e-16;            // the lattice ends where the analytic tail is below
constexpr double kSumShift = 0.005;           // rounding up moves the sum by at most this many sd
constexpr double kBelowPilot = 2;         // sd below the pilot's least loss: the lattice's start
constexpr double kOutsideMass = 1e-16;    // the composition window's Chernoff budget
constexpr double kRoundoffDelta = 1e-12;  // as PldOptions::roundoff_delta
constexpr std::uint64_t kChunkNormals = 65536;  // normals a batch (chunk) of samples
constexpr double kMaxIndex = 1099511627776.0;   // 2^40 lattice steps from 0

std::uint64_t stream_base(Adjacency a) {
  return streams::kBallsInBins + (a == Adjacency::remove ? 0 : 64);
}

// Phi^-1(p) and the z with Phi^c(z) = p, for p in (0, 1), accurate in both tails.
double normal_quantile(double p) {
  return -std::sqrt(2.0) * boost::math::erfc_inv(2 * p);
}
double normal_upper_quantile(double p) {
  return std::sqrt(2.0) * boost::math::erfc_inv(2 * p);
}

// One epoch's loss from its B sums (remove: L(x) with x ~ P; add: -L(x) with x ~ Q), the
// exponentials by Eigen's vectorised exp (the same on every machine: no run-time dispatch).
double epoch_loss(const double* x, std::size_t b, double inv_var, Adjacency a) {
  const Eigen::Map<const Eigen::ArrayXd> sums(x, static_cast<Eigen::Index>(b));
  const double top = sums.maxCoeff();
  const double sum = ((sums - top) * inv_var).exp().sum();
  const double l = top * inv_var + std::log(sum) - std::log(static_cast<double>(b)) - inv_var / 2;
  return a == Adjacency::remove ? l : -l;
}

// The centred sums of one sample of a stratum, in units of s: the largest (drawn by inverting
// P(M < c) = Phi(c)^B on the stratum) at a uniform position, the others standard normals
// below it. z holds B standard normals on entry; `uniforms` is the sample's uniform stream.
void condition_on_stratum(double* z, std::size_t b, double lo, double hi, PhiloxStream& uniforms) {
  // P(M >= c) for c in units of s, from the upper tail so that small ones keep their digits.
  const auto survival = [b](double c) {
    if (c == -kInf) return 1.0;
    if (c == kInf) return 0.0;
    return -std::expm1(static_cast<double>(b) * std::log1p(-std::exp(log_normal_sf(c))));
  };
  const double top = survival(lo), bottom = survival(hi);
  // P(M >= max) on the stratum, kept below 1 (it can round to 1 in the bulk stratum, where the
  // inverse below would be -inf)
  const double v = std::min(bottom + (top - bottom) * uniforms.uniform(), std::nextafter(1.0, 0.0));
  const double w = -std::expm1(std::log1p(-v) / static_cast<double>(b));  // Phi^c(max)
  const double max = std::clamp(normal_upper_quantile(w), lo, hi);
  const double below = std::exp(log_normal_cdf(max));
  for (std::size_t t = 0; t < b; ++t)
    if (z[t] >= max) z[t] = normal_quantile(uniforms.uniform() * below);
  z[uniform_below(uniforms, b)] = max;
}

// Losses of samples [first, first + count) of a stratum into out.
void sample_losses(const BallsInBinsRun& run, Adjacency a, const EpochStratum* stratum,
                   std::uint64_t stream_id, std::uint64_t first, std::size_t count,
                   std::uint64_t seed, std::vector<double>& normals, double* out) {
  const auto b = static_cast<std::size_t>(run.batches);
  const double s = run.noise_multiplier, inv_var = 1 / (s * s);
  normals.resize(count * b);
  philox_normals(seed, stream_id, first * b, count * b, normals.data());
  for (std::size_t i = 0; i < count; ++i) {
    double* x = normals.data() + i * b;
    if (stratum && (stratum->lo > -kInf || stratum->hi < kInf)) {
      PhiloxStream uniforms(seed, stream_id + 32, 2 * (first + i) * (b + 2));
      condition_on_stratum(x, b, stratum->lo / s, stratum->hi / s, uniforms);
    }
    for (std::size_t t = 0; t < b; ++t) x[t] *= s;
    if (a == Adjacency::remove) x[0] += 1;  // the record's batch, by symmetry the first
    out[i] = epoch_loss(x, b, inv_var, a);
  }
}

// The least l (to 1e-6 of its size) with tail(l) <= target, by bisection.
double tail_point(const EpochLossTail& tail, double target) {
  double lo = 0, hi = 1;
  while (tail(hi) > target) hi *= 2;
  while (hi - lo > 1e-6 * hi) {
    const double mid = (lo + hi) / 2;
    (tail(mid) > target ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace

void check_balls_in_bins(const BallsInBinsRun& run) {
  if (!(run.noise_multiplier > 0) || !std::isfinite(run.noise_multiplier))
    throw UsageError(
        fmt::format("noise multiplier {} must be positive and finite", run.noise_multiplier));
  if (run.batches < 1 || run.batches > kMaxBatches)
    throw UsageError(
        fmt::format("{} batches an epoch: 1 to {} (a Monte Carlo sample draws one normal a batch)",
                    run.batches, kMaxBatches));
  if (run.epochs < 1) throw UsageError(fmt::format("{} epochs: at least 1", run.epochs));
}

namespace {

constexpr int kMaxLambda = 64;

// The log coefficients of the product of two series given by their log coefficients, to the
// same degree (every coefficient positive: no cancellation).
std::vector<double> log_product(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> c(a.size(), -kInf);
  for (std::size_t n = 0; n < a.size(); ++n)
    for (std::size_t i = 0; i <= n; ++i) c[n] = log_add(c[n], a[i] + b[n - i]);
  return c;
}

}  // namespace

std::vector<double> epoch_log_moments(const BallsInBinsRun& run) {
  check_balls_in_bins(run);
  const double inv_var = 1 / (run.noise_multiplier * run.noise_multiplier);
  const std::size_t top = kMaxLambda + 2;
  std::vector<double> series(top), power(top, -kInf);  // log E[w^k] / k!; the power: 1
  power[0] = 0;
  for (std::size_t k = 0; k < top; ++k) {
    const double kd = static_cast<double>(k);
    series[k] = kd * (kd - 1) / 2 * inv_var - std::lgamma(kd + 1);
  }
  for (long long e = run.batches; e > 0; e >>= 1) {  // series^B by squaring
    if (e & 1) power = log_product(power, series);
    if (e > 1) series = log_product(series, series);
  }
  const double log_b = std::log(static_cast<double>(run.batches));
  std::vector<double> out;
  for (int lambda = 1; lambda <= kMaxLambda; ++lambda) {
    const double a = lambda + 1;
    out.push_back(power[static_cast<std::size_t>(a)] + std::lgamma(a + 1) - a * log_b);
  }
  return out;
}

EpochLossTail::EpochLossTail(const BallsInBinsRun& run, Adjacency adjacency)
    : run_(run), adjacency_(adjacency) {
  check_balls_in_bins(run);
  if (adjacency == Adjacency::remove) log_moment_ = epoch_log_moments(run);
}

double EpochLossTail::operator()(double l) const {
  const double s = run_.noise_multiplier, b = static_cast<double>(run_.batches);
  if (adjacency_ == Adjacency::add)
    return std::min(1.0, std::exp(log_normal_cdf(std::sqrt(b) * (0.5 - s * s * l) / s)));
  double log_tail = log_add(log_normal_sf((s * s * l - 0.5) / s),
                            std::log(b - 1) + log_normal_sf((s * s * l + 0.5) / s));
  for (std::size_t i = 0; i < log_moment_.size(); ++i)
    log_tail = std::min(log_tail, log_moment_[i] - static_cast<double>(i + 1) * l);
  return std::min(1.0, std::exp(log_tail));
}

std::vector<EpochStratum> epoch_strata(const BallsInBinsRun& run, Adjacency a) {
  check_balls_in_bins(run);
  const double s = run.noise_multiplier, b = static_cast<double>(run.batches);
  if (a == Adjacency::add) return {{-kInf, kInf, 1.0, kInf}};
  // c_j with P(M >= c_j) = 10^-j: Phi^c(c_j / s) = 1 - (1 - 10^-j)^(1/B).
  std::vector<double> edge{-kInf};
  for (int j = 1; j < kStrata; ++j) {
    const double p = std::pow(10.0, -j);
    edge.push_back(s * normal_upper_quantile(-std::expm1(std::log1p(-p) / b)));
  }
  edge.push_back(kInf);
  std::vector<EpochStratum> strata;
  for (int j = 0; j < kStrata; ++j) {
    const double above = j == 0 ? 1.0 : std::pow(10.0, -j);
    const double next = j + 1 == kStrata ? 0.0 : std::pow(10.0, -(j + 1));
    const double hi = edge[static_cast<std::size_t>(j) + 1];
    strata.push_back({edge[static_cast<std::size_t>(j)], hi, above - next, (hi + 0.5) / (s * s)});
  }
  return strata;
}

std::vector<std::uint64_t> count_epoch_losses(const BallsInBinsRun& run, Adjacency a,
                                              const EpochStratum& stratum, std::size_t index,
                                              const EpochLossLattice& lattice, std::uint64_t seed,
                                              std::uint64_t first, std::uint64_t count,
                                              int threads) {
  check_balls_in_bins(run);
  // Sample i's numbers depend on i alone, so the chunking changes nothing but the memory.
  const std::uint64_t chunk =
      std::max<std::uint64_t>(1, kChunkNormals / static_cast<std::uint64_t>(run.batches));
  const std::uint64_t chunks = (count + chunk - 1) / chunk;
  const std::size_t workers = std::max<std::size_t>(
      1, std::min<std::size_t>(resolve_threads(threads), static_cast<std::size_t>(chunks)));
  std::vector<std::vector<std::uint64_t>> partial(
      workers, std::vector<std::uint64_t>(lattice.points + 1, 0));
  const double origin = static_cast<double>(lattice.first) * lattice.h;
  const double top = static_cast<double>(lattice.points);
  parallel_blocks(static_cast<std::size_t>(chunks), static_cast<int>(workers),
                  [&](std::size_t begin, std::size_t end, std::size_t w) {
                    std::vector<double> normals, losses(chunk);
                    for (std::size_t c = begin; c < end; ++c) {
                      const auto n = static_cast<std::size_t>(
                          std::min<std::uint64_t>(chunk, count - c * chunk));
                      sample_losses(run, a, &stratum, stream_base(a) + index, first + c * chunk, n,
                                    seed, normals, losses.data());
                      for (std::size_t i = 0; i < n; ++i) {
                        // the least k with l_k >= loss, clamped to [0, points]
                        const double k = std::ceil((losses[i] - origin) / lattice.h);
                        ++partial[w][static_cast<std::size_t>(std::clamp(k, 0.0, top))];
                      }
                    }
                  });
  std::vector<std::uint64_t> counts(lattice.points + 1, 0);
  for (const auto& p : partial)
    for (std::size_t k = 0; k < counts.size(); ++k) counts[k] += p[k];
  return counts;
}

EpochLossLattice epoch_loss_lattice(const BallsInBinsRun& run, Adjacency a, std::uint64_t seed,
                                    std::size_t pilot, std::size_t max_points) {
  check_balls_in_bins(run);
  if (pilot < 2) throw UsageError(fmt::format("a pilot of {} samples: at least 2", pilot));
  std::vector<double> normals, losses(pilot);
  sample_losses(run, a, nullptr, stream_base(a) + 63, 0, pilot, seed, normals, losses.data());
  double mean = 0, least = losses[0];
  for (double l : losses) {
    mean += l;
    least = std::min(least, l);
  }
  mean /= static_cast<double>(pilot);
  double ss = 0;
  for (double l : losses) ss += (l - mean) * (l - mean);
  const double sd = std::sqrt(ss / static_cast<double>(pilot - 1));
  const double lo = least - kBelowPilot * sd, hi = tail_point(EpochLossTail(run, a), kTailCut);
  double h = kSumShift * sd / std::sqrt(static_cast<double>(run.epochs));
  if (!(h > 0) || !std::isfinite(h) || !(hi > lo))
    throw DataError(fmt::format(
        "the epoch loss of noise {} over {} batches has no spread a lattice can resolve",
        run.noise_multiplier, run.batches));
  h = std::max(h, (hi - lo) / static_cast<double>(max_points - 1));
  h = std::max(h, std::max(std::fabs(lo), std::fabs(hi)) / kMaxIndex);
  EpochLossLattice lattice;
  lattice.h = h;
  lattice.first = static_cast<long long>(std::floor(lo / h));
  lattice.points =
      static_cast<std::size_t>(std::ceil(hi / h) - static_cast<double>(lattice.first)) + 1;
  return lattice;
}

ComposedEpochs::ComposedEpochs(const EpochLossLattice& lattice, const std::vector<double>& survival,
                               long long epochs) {
  if (survival.size() != lattice.points + 1 || survival[0] != 1)
    throw UsageError(
        "the survival bounds must start at 1 and hold one value a lattice point and "
        "one for +inf");
  PldPmf step;
  step.h = lattice.h;
  step.first = lattice.first;
  step.mass.resize(lattice.points);
  for (std::size_t k = 0; k < lattice.points; ++k) {
    const double mass = survival[k] - survival[k + 1];
    if (!(mass >= 0) || !(survival[k + 1] >= 0))
      throw UsageError(fmt::format("survival bound {} at lattice point {} is not in [0, {}]",
                                   survival[k + 1], k + 1, survival[k]));
    step.mass[k] = mass;
  }
  step.inf_mass = survival[lattice.points];
  const CompositionPlan plan = plan_composition({{&step, epochs}}, kOutsideMass);
  composed_ = compose_plds({{&step, epochs}}, plan,
                           kRoundoffDelta / std::sqrt(static_cast<double>(plan.points())));
  composed_.pld.inf_mass = std::min(1.0, composed_.pld.inf_mass + composition_slack(composed_));
}

double ComposedEpochs::delta(double eps) const {
  check_epsilon(eps);
  return std::min(1.0, pld_delta(composed_.pld, eps));
}

double ComposedEpochs::epsilon(double delta) const {
  check_delta(delta);
  return pld_epsilon(composed_.pld, delta);
}

}  // namespace dpaudit
