#include "accounting/pld.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "accounting/calibrate.hpp"
#include "accounting/log_space.hpp"
#include "accounting/pld_gaussian.hpp"
#include "accounting/pld_mixture.hpp"
#include "core/error.hpp"
#include "core/parallel.hpp"

namespace dpaudit {

namespace {

// Chernoff budget for the mass outside the composed window (added to the upper delta,
// taken off the lower one), and for the P-mass cut from each step's tails over the
// whole run (to +inf in the upper bound, dropped in the lower one).
constexpr double kOutsideMass = 1e-16;
constexpr double kTruncatedMass = 1e-17;

struct Segment {
  double sigma, q;   // sigma: the noise over the sensitivity (noise_over_sensitivity)
  bool replace_one;  // sampled without replacement: one pair for both directions
  long long steps;   // summed over the events with these (sigma, q, sampling, micro)
  double loss_sd;    // standard deviation of one step's privacy loss (remove)
  long long micro;   // > 1: a mixture of Gaussians, K ~ Binomial(micro, q) (pld_mixture.hpp)
};

// The pair of one step of a segment in a direction. Poisson sampling: the remove or the
// add pair (pld_gaussian.hpp). Without replacement, replace-one neighbours (Zhu, Dong &
// Wang 2022, Thm 11; the tight pair of Balle, Barthe & Gaboardi 2018's coupling): with
// P1 = N(2, s^2), P0 = N(0, s^2) the Gaussian mechanism at sensitivity 2 (s = sigma, the
// clip norm 1), the pair ((1-q) P0 + q P1, P0) dominates both orders of every pair of
// neighbours. By their advanced joint convexity, H_a((1-q) m0 + q m1 || (1-q) m0 + q m1')
// = q H_a'((m1 || (1-b) m0 + b m1') <= q H_a'(P1 || P0) = H_a((1-q) P0 + q P1 || P0) for
// a = e^eps >= 1, a' = 1 + (a-1)/q, b = a'/a <= 1, since m1 (the batch with the record)
// against m0 (without it) and against m1' (with its replacement) are replace-one
// neighbours of the Gaussian mechanism. It is attained (the other records at -e, the
// record e against -e), and the reverse order (P0, (1-q) P0 + q P1), the add pair, is
// below it by the same inequality: the worse of the two directions is this one, which is
// the remove pair at sigma/2 in units of the sensitivity (noise_over_sensitivity).
GaussianPair step_pair(const Segment& s, Adjacency direction) {
  return {s.sigma, s.q, s.replace_one ? Adjacency::remove : direction};
}

// A mixture segment's pair, its binomial's tails cut at `tail` (pld_mixture.hpp's truncation).
MixturePair mixture_pair(const Segment& s, Adjacency direction, double tail) {
  return binomial_mixture(s.sigma, s.micro, s.q, direction, tail);
}

// About how many lattice points one step of the segment takes, and its discretisations.
double segment_points(const Segment& s, Adjacency direction, double h, double tail) {
  return s.micro > 1 ? step_points(mixture_pair(s, direction, tail), h, tail)
                     : step_points(step_pair(s, direction), h, tail);
}

PldPmf segment_pld(const Segment& s, Adjacency direction, double h, double tail, bool pessimistic) {
  if (s.micro > 1) {
    const MixturePair pair = mixture_pair(s, direction, tail);
    return pessimistic ? pessimistic_pld(pair, h, tail) : optimistic_pld(pair, h, tail);
  }
  const GaussianPair pair = step_pair(s, direction);
  return pessimistic ? pessimistic_pld(pair, h, tail) : optimistic_pld(pair, h, tail);
}

// The standard deviation of one step's loss (remove), which sizes the lattice.
double loss_sd(const Segment& s) {
  const LossMoments m = s.micro > 1
                            ? mixture_loss_moments(mixture_pair(s, Adjacency::remove, 1e-20))
                            : privacy_loss_moments({s.sigma, s.q, Adjacency::remove});
  return std::sqrt(m.variance);
}

// The one-step lattice points of all segments, estimates and directions together (8 bytes
// each).
constexpr double kMaxStepPointsTotal = 16777216;  // 2^24: 128 MiB

// (sigma over the sensitivity, q, replace-one, micro-batches)
using SegmentKey = std::tuple<double, double, bool, long long>;

// The segments of `steps_of` in at most `groups` groups of neighbours (in the order of
// (replace-one, sigma, q), equal counts; a group never mixes the two samplings), each one
// segment with the group's steps: for the pessimistic (upper) estimates at the group's
// smallest sigma and largest q, a less private step whose pair dominates each member's
// (more noise is a post-processing; the subsampled trade-off curve q f + (1 - q) Id falls as
// q grows, Zhu, Dong & Wang 2022); for the optimistic (lower) ones at its largest sigma and
// smallest q, a dominated pair. Both ends stay sound; the interval widens. loss_sd is left 0.
std::vector<Segment> merged_segments(const std::map<SegmentKey, long long>& steps_of,
                                     std::size_t groups, bool up) {
  std::vector<Segment> all;
  for (const auto& [key, steps] : steps_of) {
    const auto [sigma, q, replace_one, micro] = key;
    all.push_back({sigma, q, replace_one, steps, 0, micro});
  }
  if (all.size() <= groups) return all;
  // the map's order is (sigma, q, replace-one): regroup by sampling first
  std::stable_partition(all.begin(), all.end(), [](const Segment& s) { return !s.replace_one; });
  std::vector<Segment> merged;
  const std::size_t n = all.size();
  for (std::size_t g = 0, begin = 0; begin < n; ++g) {
    std::size_t end = std::max(begin + 1, (g + 1) * n / groups);
    for (std::size_t k = begin + 1; k < end; ++k)
      if (all[k].replace_one != all[begin].replace_one)
        end = k;  // a group stops where the sampling changes
    Segment m = all[begin];
    m.steps = 0;
    for (std::size_t k = begin; k < end; ++k) {
      m.sigma = up ? std::min(m.sigma, all[k].sigma) : std::max(m.sigma, all[k].sigma);
      m.q = up ? std::max(m.q, all[k].q) : std::min(m.q, all[k].q);
      m.steps += all[k].steps;  // the sum of all steps fits (checked by the caller)
    }
    merged.push_back(m);
    begin = end;
  }
  return merged;
}

// The largest h with sum_i T_i min(h^2/6, h s_i/2) <= rho sum_i T_i s_i^2 (both sides
// increase in h: bisection on log h, from the h where every term is h^2/6).
double lattice_spacing_for(const std::vector<Segment>& segments, double rho) {
  double steps = 0, variance = 0;
  for (const Segment& s : segments) {
    steps += static_cast<double>(s.steps);
    variance += static_cast<double>(s.steps) * s.loss_sd * s.loss_sd;
  }
  auto error = [&](double h) {
    double e = 0;
    for (const Segment& s : segments)
      e += static_cast<double>(s.steps) * std::min(h * h / 6, h * s.loss_sd / 2);
    return e;
  };
  if (!(variance > 0) || !std::isfinite(variance))
    throw DataError(
        variance == 0
            ? "the privacy loss is 0 with probability 1 over the run: no lattice fits it"
            : "the privacy loss's variance over the run is beyond double's range (a noise "
              "multiplier too small): no lattice fits it");
  double lo = std::sqrt(6 * rho * variance / steps), hi = lo;
  while (error(hi) <= rho * variance) hi *= 2;
  for (int i = 0; i < 60 && hi / lo > 1 + 1e-6; ++i) {
    const double mid = std::sqrt(lo * hi);
    (error(mid) <= rho * variance ? lo : hi) = mid;
  }
  return lo;
}

// Drops the zero masses at both ends.
void trim(PldPmf& p) {
  const auto nonzero = [](double m) { return m != 0; };
  const auto first = std::find_if(p.mass.begin(), p.mass.end(), nonzero);
  const auto last = std::find_if(p.mass.rbegin(), p.mass.rend(), nonzero).base();
  if (first >= last) {
    p.mass.clear();
    return;
  }
  p.first += first - p.mass.begin();
  p.mass.erase(last, p.mass.end());  // in place: no second copy of a window of 2^20 points
  p.mass.erase(p.mass.begin(), first);
}

// The events grouped into segments: (sigma over the sensitivity, q, replace-one) -> steps;
// q = 1 is the Gaussian mechanism at that sigma under either sampling.
struct EventSegments {
  std::map<SegmentKey, long long> steps_of;
  double total_steps = 0;
  bool add_differs = false;  // some Poisson segment with q < 1: the add direction differs
};

EventSegments event_segments(const std::vector<AccountingEvent>& events) {
  EventSegments r;
  for (const AccountingEvent& e : events) {
    check_event(e, true);
    const bool replace_one = e.sampling == Sampling::without_replacement && e.q < 1;
    // K = micro with certainty (q = 1) is the Gaussian mechanism at sensitivity micro.
    const bool mixture = e.micro > 1 && e.q < 1;
    const double sigma = noise_over_sensitivity(e) / (mixture ? 1 : static_cast<double>(e.micro));
    long long& t = r.steps_of[{sigma, e.q, replace_one, mixture ? e.micro : 1}];
    if (e.steps > std::numeric_limits<long long>::max() - t)
      throw UsageError("the steps of all events add up beyond 2^63 - 1");
    t += e.steps;
    r.total_steps += static_cast<double>(e.steps);
    r.add_differs = r.add_differs || (e.q < 1 && !replace_one);
  }
  return r;
}

// The lattice spacing for the (upper) segments' variance, or options.lattice.
double chosen_spacing(const std::vector<Segment>& upper, const PldOptions& options) {
  const double h =
      lattice_spacing_for(upper, options.relative_variance_error);  // checks the variance too
  if (options.lattice > 0) {
    // A spacing far below the chosen one only adds points (and would build one-step PLDs of
    // ~1e9 points before the composition's limit grows it back): refused below 1/1000 of it.
    if (options.lattice < h / 1000)
      throw UsageError(fmt::format(
          "a lattice spacing of {} is below 1/1000 of the {} chosen for this run: give at "
          "least {}",
          options.lattice, h, h / 1000));
    return options.lattice;
  }
  return h;
}

// The one-step PLDs, before they are built: none above max_points, all together at most
// kMaxStepPointsTotal (a few distinct segments at q 1e-6 with the spacing their variance
// asks for span 1e8 points each): h grows to fit, a wider interval, still sound.
double spacing_that_fits(double h, const std::vector<Segment>& upper,
                         const std::vector<Segment>& lower,
                         const std::vector<Adjacency>& adjacencies, double tail,
                         std::size_t max_points) {
  double most = 0, total = 0;
  for (const std::vector<Segment>* list : {&upper, &lower})
    for (const Segment& s : *list)
      for (Adjacency a : adjacencies) {
        const double n = segment_points(s, a, h, tail);
        most = std::max(most, n);
        total += n;
      }
  const double grow = std::max(most / static_cast<double>(max_points), total / kMaxStepPointsTotal);
  if (grow > 1) h *= 1.05 * grow;
  return h;
}

// Estimate c's segments: pessimistic ones (c even) from `upper`, optimistic ones from `lower`
// (c / 2 is the direction).
const std::vector<Segment>& segments_of(std::size_t c, const std::vector<Segment>& upper,
                                        const std::vector<Segment>& lower) {
  return c % 2 == 0 ? upper : lower;
}

// One-step PLDs of every segment, each direction and estimate, on the lattice h.
std::vector<std::vector<PldPmf>> one_step_plds(const std::vector<Segment>& upper,
                                               const std::vector<Segment>& lower,
                                               const std::vector<Adjacency>& adjacencies, double h,
                                               double tail, int threads) {
  const std::size_t estimates = 2 * adjacencies.size();
  std::vector<std::vector<PldPmf>> steps(estimates);
  std::vector<std::pair<std::size_t, std::size_t>> jobs;  // (estimate, segment)
  for (std::size_t c = 0; c < estimates; ++c) {
    steps[c].resize(segments_of(c, upper, lower).size());
    for (std::size_t i = 0; i < segments_of(c, upper, lower).size(); ++i) jobs.emplace_back(c, i);
  }
  parallel_blocks(jobs.size(), threads, [&](std::size_t begin, std::size_t end, std::size_t) {
    for (std::size_t k = begin; k < end; ++k) {
      const auto [c, i] = jobs[k];
      steps[c][i] =
          segment_pld(segments_of(c, upper, lower)[i], adjacencies[c / 2], h, tail, c % 2 == 0);
    }
  });
  return steps;
}

// The compositions, on one window length for all, `needed` points: the FFT plans are then
// shared (a longer window only leaves less mass outside it).
std::vector<ComposedPld> compositions(const std::vector<std::vector<PldFactor>>& factors,
                                      std::vector<CompositionPlan>& plans, std::size_t needed,
                                      const PldOptions& options) {
  for (CompositionPlan& plan : plans) plan.hi = plan.lo + static_cast<long long>(needed) - 1;
  std::vector<ComposedPld> composed(plans.size());
  parallel_blocks(
      plans.size(), options.threads, [&](std::size_t begin, std::size_t end, std::size_t) {
        for (std::size_t c = begin; c < end; ++c)
          composed[c] =
              compose_grouped(factors[c], plans[c],
                              options.roundoff_delta / std::sqrt(static_cast<double>(needed)));
      });
  return composed;
}

}  // namespace

PldAccountant::PldAccountant(const std::vector<AccountingEvent>& events,
                             const PldOptions& options) {
  if (events.empty()) throw UsageError("no accounting events");
  if (!(options.lattice >= 0) || !std::isfinite(options.lattice))
    throw UsageError(
        fmt::format("the lattice spacing must be a finite number >= 0, got {}", options.lattice));
  const EventSegments grouped = event_segments(events);
  // Beyond max_segments distinct segments, merged in groups (merged_segments).
  if (options.max_segments < 1) throw UsageError("max_segments must be >= 1");
  std::vector<Segment> upper = merged_segments(grouped.steps_of, options.max_segments, true),
                       lower = merged_segments(grouped.steps_of, options.max_segments, false);
  if (grouped.steps_of.size() > options.max_segments) {
    merged_from_ = grouped.steps_of.size();
    for (const auto& [key, steps] : grouped.steps_of)
      if (std::get<3>(key) > 1)  // a larger q is not shown to dominate a mixture: not merged
        throw UsageError(
            fmt::format("more than {} distinct segments, some with micro-batches (not merged)",
                        options.max_segments));
  }
  for (std::vector<Segment>* list : {&upper, &lower})
    for (Segment& s : *list) s.loss_sd = loss_sd(s);
  std::vector<Adjacency> adjacencies{Adjacency::remove};
  if (grouped.add_differs) adjacencies.push_back(Adjacency::add);
  const double tail = std::max(kTruncatedMass / grouped.total_steps, 1e-300);
  double h = spacing_that_fits(chosen_spacing(upper, options), upper, lower, adjacencies, tail,
                               options.max_points);
  // The work splits over threads by whole one-step PLDs and whole compositions, each
  // computed the same way on any thread: the result does not depend on the count.
  const std::size_t estimates = 2 * adjacencies.size();  // pessimistic, optimistic per direction
  for (int attempt = 0;; ++attempt) {
    std::vector<std::vector<PldPmf>> steps =
        one_step_plds(upper, lower, adjacencies, h, tail, options.threads);
    std::vector<std::vector<PldFactor>> factors(estimates);
    for (std::size_t c = 0; c < estimates; ++c)
      for (std::size_t i = 0; i < segments_of(c, upper, lower).size(); ++i)
        factors[c].push_back({&steps[c][i], segments_of(c, upper, lower)[i].steps});
    std::vector<CompositionPlan> plans(estimates);
    parallel_blocks(estimates, options.threads,
                    [&](std::size_t begin, std::size_t end, std::size_t) {
                      for (std::size_t c = begin; c < end; ++c)
                        plans[c] = plan_composition(factors[c], kOutsideMass);
                    });
    std::size_t needed = 0;
    for (const CompositionPlan& plan : plans) needed = std::max(needed, plan.points());
    if (needed > options.max_points) {
      if (attempt == 8)
        throw DataError(fmt::format("the PLD needs {} lattice points, more than {}", needed,
                                    options.max_points));
      h *= 1.05 * static_cast<double>(needed) / static_cast<double>(options.max_points);
      continue;
    }
    std::vector<ComposedPld> composed = compositions(factors, plans, needed, options);
    for (std::size_t a = 0; a < adjacencies.size(); ++a) {
      Direction d{std::move(composed[2 * a]), std::move(composed[2 * a + 1]), 0};
      // Upper: the slack goes to +inf. Lower: it is taken off each delta when it is read.
      d.pessimistic.pld.inf_mass += composition_slack(d.pessimistic);
      trim(d.pessimistic.pld);
      d.lower_slack = composition_slack(d.optimistic);
      trim(d.optimistic.pld);
      directions_.push_back(std::move(d));
    }
    h_ = h;
    return;
  }
}

PldInterval PldAccountant::epsilon(double delta) const {
  check_delta(delta);
  PldInterval r{0, 0};
  for (const Direction& d : directions_) {
    r.upper = std::max(r.upper, pld_epsilon(d.pessimistic.pld, delta));
    // delta_lower(eps) = delta_optimistic(eps) - slack <= delta  <=>  delta_optimistic(eps) <=
    // delta + slack
    const double target = delta + d.lower_slack;
    r.lower = std::max(r.lower, target < 1 ? pld_epsilon(d.optimistic.pld, target) : 0.0);
  }
  return r;
}

PldInterval PldAccountant::delta(double eps) const {
  check_epsilon(eps);
  PldInterval r{0, 0};
  for (const Direction& d : directions_) {
    r.upper = std::max(r.upper, std::min(1.0, pld_delta(d.pessimistic.pld, eps)));
    r.lower = std::max(r.lower, pld_delta(d.optimistic.pld, eps) - d.lower_slack);
  }
  return r;
}

std::vector<PldInterval> PldAccountant::delta(const std::vector<double>& eps) const {
  for (double e : eps) check_epsilon(e);
  std::vector<PldInterval> r(eps.size(), PldInterval{0, 0});
  for (const Direction& d : directions_) {
    const std::vector<double> upper = pld_deltas(d.pessimistic.pld, eps),
                              lower = pld_deltas(d.optimistic.pld, eps);
    for (std::size_t k = 0; k < eps.size(); ++k) {
      r[k].upper = std::max(r[k].upper, std::min(1.0, upper[k]));
      r[k].lower = std::max(r[k].lower, lower[k] - d.lower_slack);
    }
  }
  return r;
}

double pld_sigma_for_epsilon(double eps, double q, long long steps, double delta,
                             const PldOptions& options, Sampling sampling) {
  check_event({1, q, steps, sampling});
  check_delta(delta);
  // A record in no step's batch is a probability of 1 - (1 - q)^steps: at most delta, and
  // every noise multiplier meets every eps (at q 1e-6 the bisection would otherwise go down
  // to sigma 1e-4 through ever wider PLDs to say so).
  const double joins = -std::expm1(static_cast<double>(steps) * std::log1p(-q));
  if (joins <= delta)
    throw UsageError(fmt::format(
        "eps {} is met by any noise multiplier: a record joins some step with probability "
        "1 - (1 - q)^steps = {:.3g}, at most delta {}",
        eps, joins, delta));
  PldOptions o = options;
  o.roundoff_delta = std::max(o.roundoff_delta, 1e-4 * delta);
  return smallest_sigma(
      [&](double sigma) {
        return PldAccountant({{sigma, q, steps, sampling}}, o).epsilon(delta).upper;
      },
      eps, 1e-5);
}

PldOptions pld_options_at(double delta, int threads, double lattice) {
  PldOptions options;
  options.threads = threads;
  options.roundoff_delta = 1e-4 * delta;
  options.lattice = lattice;
  return options;
}

}  // namespace dpaudit
