#include "accounting/shuffle_lower_bound.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <fmt/format.h>
#include <boost/math/special_functions/erf.hpp>

#include "accounting/log_space.hpp"
#include "accounting/pld_pmf.hpp"
#include "core/error.hpp"
#include "core/infinity.hpp"

namespace dpaudit {

namespace {

// The slices cover M from where P(M <= lo) <= kTail to where P(M > hi) <= kTail; the two
// tails beyond are outcomes of their own (nothing is dropped).
constexpr double kTail = 1e-18;
constexpr double kEpochsOutsideMass = 1e-16;  // the composition window's Chernoff budget
// The relative error of a computed log-CDF value: log_normal_cdf taken as accurate to 16 units
// in the last place, times 4 for the product by B - 1, the sum and the expm1/log around them.
constexpr double kUnitRoundoff = 1.1102230246251565e-16;
constexpr double kLogError = 64 * kUnitRoundoff;
constexpr double kMaxDropped = 1e-12;  // P-mass lost to underflow (dominated_pld)
constexpr std::size_t kMaxSlices = std::size_t{1} << 22;
constexpr std::size_t kCoarseSlices = 2000;           // to estimate the loss's spread (the lattice)
constexpr double kMaxLatticeIndex = 1099511627776.0;  // 2^40 lattice steps

// One outcome of the one-epoch pair: its log P- and log Q-mass, and a bound on the error of
// the computed loss log_p - log_q (every loss is lowered by it before it is rounded down).
struct Outcome {
  double log_p, log_q, error;
  double loss() const { return log_p - log_q; }
};

// log F and a bound on its absolute error, at a point.
struct LogCdf {
  double value, error;
};

// log(F(b) - F(a)) from log F(a) <= log F(b), and a bound on its error: from the CDF below the
// median (log F(b) + log(1 - e^-d), d = log F(b) - log F(a), whose error is at most
// err(F(b)) + err(d) / d), from the survival function log S = log(-expm1(log F)) above it
// (its error err(log F) F / S, then the same), so that small masses keep their digits.
LogCdf log_difference(const LogCdf& a, const LogCdf& b) {
  if (b.value < -std::log(2.0)) {
    const double d = b.value - a.value;
    return {log_sub(b.value, a.value), b.error + (a.error + b.error) / d};
  }
  auto survival = [](const LogCdf& f) {
    const double log_s = std::log(-std::expm1(f.value));
    return LogCdf{log_s, f.error * std::exp(f.value - log_s)};
  };
  const LogCdf sa = survival(a), sb = survival(b);
  const double d = sa.value - sb.value;
  return {log_sub(sa.value, sb.value), sa.error + (sa.error + sb.error) / d};
}

// Phi^-1(p) for p in (0, 1).
double normal_quantile(double p) {
  return -std::sqrt(2.0) * boost::math::erfc_inv(2 * p);
}

// The outcomes of one epoch: M <= lo, slices of width about g up to hi, M > hi.
std::vector<Outcome> epoch_outcomes(const ShuffledRun& run, double slices) {
  const double s = run.noise_multiplier;
  const double b = static_cast<double>(run.batches);
  const double lo = s * normal_quantile(std::exp(std::log(kTail) / b));
  const double hi = 2 + s * -normal_quantile(kTail / b);
  const std::size_t n = std::max<std::size_t>(1, static_cast<std::size_t>(slices));
  std::vector<Outcome> out;
  out.reserve(n + 2);
  auto at = [&](std::size_t i) {
    const double c = i == n ? hi : lo + (hi - lo) * static_cast<double>(i) / static_cast<double>(n);
    const double others = (b - 1) * log_normal_cdf(c / s);
    const double p = log_normal_cdf((c - 2) / s) + others, q = log_normal_cdf((c - 1) / s) + others;
    return std::pair{LogCdf{p, kLogError * std::abs(p)}, LogCdf{q, kLogError * std::abs(q)}};
  };
  auto outcome = [](const LogCdf& p, const LogCdf& q) {
    return Outcome{p.value, q.value, p.error + q.error};
  };
  auto [p0, q0] = at(0);
  out.push_back(outcome(p0, q0));
  for (std::size_t i = 1; i <= n; ++i) {
    const auto [p1, q1] = at(i);
    out.push_back(outcome(log_difference(p0, p1), log_difference(q0, q1)));
    p0 = p1;
    q0 = q1;
  }
  const LogCdf one{0, 0};  // the tail above hi: F(inf) - F(hi)
  out.push_back(outcome(log_difference(p0, one), log_difference(q0, one)));
  return out;
}

[[noreturn]] void underflow(double noise) {
  throw DataError(fmt::format(
      "noise {} is too small for the shuffled lower bound: the pair's masses underflow double "
      "(noise below about 0.04)",
      noise));
}

// The standard deviation of one epoch's loss under P, from coarse slices (it only sizes h).
double loss_spread(const ShuffledRun& run) {
  const std::vector<Outcome> coarse = epoch_outcomes(run, kCoarseSlices);
  double m0 = 0, m1 = 0, m2 = 0;
  for (const Outcome& o : coarse) {
    if (!std::isfinite(o.log_p) || !std::isfinite(o.log_q)) continue;
    const double p = std::exp(o.log_p);
    m0 += p;
    m1 += p * o.loss();
  }
  if (!(m0 >= 1 - 1e-9)) underflow(run.noise_multiplier);
  const double mean = m1 / m0;
  for (const Outcome& o : coarse)
    if (std::isfinite(o.log_p) && std::isfinite(o.log_q))
      m2 += std::exp(o.log_p) * (o.loss() - mean) * (o.loss() - mean);
  return std::sqrt(m2 / m0);
}

// floor((loss - error) / h): below the exact loss whatever the computed one's error.
long long rounded_down_index(double loss, double error, double h) {
  const double k = std::floor((loss - error) / h);
  if (!(std::abs(k) < kMaxLatticeIndex))
    throw DataError(fmt::format("privacy loss {} is beyond 2^40 lattice steps of {}", loss, h));
  return static_cast<long long>(k);
}

// The dominated PLD of the outcomes on the lattice h: in the order of their loss, merged into
// cells whose merged loss (less the margin) reaches the next lattice point above the cell's
// first outcome, each cell's loss rounded down (the last cell's too) after taking off its error
// bound: the largest of its members' (the merged loss is 1-Lipschitz in theirs) and the
// rounding of the sums. An outcome whose P- or Q-mass computes as 0 (underflow at extreme
// noise; neither is 0 exactly) is dropped: a dropped P-mass only lowers delta; more than
// kMaxDropped of it is a DataError (a bound of about 0 that says nothing).
PldPmf dominated_pld(const std::vector<Outcome>& outcomes, double h, double noise) {
  PldPmf pld;
  pld.h = h;
  std::vector<Outcome> finite;
  double dropped = 0;
  for (const Outcome& o : outcomes) {
    if (o.log_p > -kInf && o.log_q > -kInf && std::isfinite(o.error))
      finite.push_back(o);
    else if (o.log_p > -kInf)
      dropped += std::exp(o.log_p);
  }
  if (!(dropped <= kMaxDropped)) underflow(noise);
  std::sort(finite.begin(), finite.end(),
            [](const Outcome& a, const Outcome& b) { return a.loss() < b.loss(); });
  std::vector<std::pair<long long, double>> atoms;
  Outcome cell{-kInf, -kInf, 0};
  double members = 0;
  long long target = 0;
  // the error of the cell's computed loss: its members' worst, and 4 roundings a member in the
  // sums, whose logs are at most |log p| + |log q| + 1
  auto cell_error = [&] {
    return cell.error +
           4 * members * kUnitRoundoff * (std::abs(cell.log_p) + std::abs(cell.log_q) + 1);
  };
  for (const Outcome& o : finite) {
    if (cell.log_p == -kInf) target = rounded_down_index(o.loss(), o.error, h) + 1;
    cell = {log_add(cell.log_p, o.log_p), log_add(cell.log_q, o.log_q),
            std::max(cell.error, o.error)};
    ++members;
    const long long k = rounded_down_index(cell.loss(), cell_error(), h);
    if (k >= target) {
      atoms.emplace_back(k, std::exp(cell.log_p));
      cell = {-kInf, -kInf, 0};
      members = 0;
    }
  }
  if (cell.log_p > -kInf)
    atoms.emplace_back(rounded_down_index(cell.loss(), cell_error(), h), std::exp(cell.log_p));
  if (atoms.empty()) return pld;
  const auto [lowest, highest] = std::minmax_element(atoms.begin(), atoms.end());
  pld.first = lowest->first;
  pld.mass.assign(static_cast<std::size_t>(highest->first - lowest->first + 1), 0.0);
  for (const auto& [k, m] : atoms) pld.mass[static_cast<std::size_t>(k - pld.first)] += m;
  return pld;
}

void check_run(const ShuffledRun& run, const ShuffleLowerBoundOptions& options) {
  if (!(run.noise_multiplier > 0) || !std::isfinite(run.noise_multiplier))
    throw UsageError(fmt::format("the noise multiplier must be positive and finite, got {}",
                                 run.noise_multiplier));
  if (run.batches < 1)
    throw UsageError(fmt::format("the batches of an epoch must be >= 1, got {}", run.batches));
  if (run.epochs < 1) throw UsageError(fmt::format("the epochs must be >= 1, got {}", run.epochs));
  if (!(options.lattice >= 0) || !std::isfinite(options.lattice))
    throw UsageError(
        fmt::format("the lattice spacing must be a finite number >= 0, got {}", options.lattice));
}

}  // namespace

ShuffleLowerBound::ShuffleLowerBound(const ShuffledRun& run,
                                     const ShuffleLowerBoundOptions& options) {
  check_run(run, options);
  const double s = run.noise_multiplier;
  // The lattice as the PLD accountant's (pld.hpp): E h^2 / 6 <= rho E sd^2.
  double h = options.lattice > 0
                 ? options.lattice
                 : loss_spread(run) * std::sqrt(6 * options.relative_variance_error);
  if (!(h > 0) || !std::isfinite(h))
    throw DataError(
        fmt::format("the privacy loss of noise {} over {} batches has no spread a "
                    "lattice can resolve",
                    s, run.batches));
  for (int attempt = 0;; ++attempt) {
    // Slices across which the loss (slope at most ~2 / s^2) moves by about h / 4 at most.
    const double lo = s * normal_quantile(std::exp(std::log(kTail) / double(run.batches)));
    const double hi = 2 + s * -normal_quantile(kTail / double(run.batches));
    const double slices =
        std::min(static_cast<double>(kMaxSlices), std::ceil((hi - lo) / (h * s * s / 8)));
    const PldPmf step = dominated_pld(epoch_outcomes(run, slices), h, s);
    const CompositionPlan plan = plan_composition({{&step, run.epochs}}, kEpochsOutsideMass);
    if (plan.points() > options.max_points) {
      if (attempt == 8)
        throw DataError(fmt::format("the lower bound needs {} lattice points, more than {}",
                                    plan.points(), options.max_points));
      h *= 1.05 * static_cast<double>(plan.points()) / static_cast<double>(options.max_points);
      continue;
    }
    composed_ =
        compose_plds({{&step, run.epochs}}, plan,
                     options.roundoff_delta / std::sqrt(static_cast<double>(plan.points())));
    slack_ = composition_slack(composed_);
    h_ = h;
    return;
  }
}

double ShuffleLowerBound::epsilon(double delta) const {
  check_delta(delta);
  // delta_pld(eps) - slack <= delta  <=>  delta_pld(eps) <= delta + slack
  const double target = delta + slack_;
  return target < 1 ? pld_epsilon(composed_.pld, target) : 0.0;
}

double ShuffleLowerBound::delta(double eps) const {
  check_epsilon(eps);
  return std::max(0.0, pld_delta(composed_.pld, eps) - slack_);
}

}  // namespace dpaudit
