#include "accounting/run_accountant.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "accounting/analytic_epsilon.hpp"
#include "accounting/analytic_gaussian.hpp"
#include "accounting/log_space.hpp"
#include "accounting/mixture_epsilon.hpp"
#include "core/error.hpp"
#include "core/names.hpp"

namespace dpaudit {

namespace {

// What a bound over subsampled steps assumes, by sampling (the text dp-train's run.json
// prints as accountant_assumes).
std::string sampled_assumes(Sampling sampling) {
  return sampling == Sampling::poisson
             ? "Poisson lots at rate q, add/remove-one adjacency (the worse), every step's "
               "update released"
             : "fixed-size lots drawn without replacement at rate q, replace-one adjacency, "
               "every step's update released";
}

std::string shuffled_assumes(Sampling sampling, long long participations) {
  return (sampling == Sampling::shuffle ? "shuffled lots" : "balls-in-bins lots") +
         std::string(": one participation per epoch, ") + std::to_string(participations) +
         " epochs composed exactly, no amplification by " +
         (sampling == Sampling::shuffle ? "shuffling" : "the random allocation") + " claimed";
}

// The segments' sampling name and assumptions ("mixed" and both where they differ).
void describe_segments(const std::vector<AccountingEvent>& segments, RunEpsilon& r) {
  bool poisson = false, without = false;
  for (const AccountingEvent& e : segments)
    (e.sampling == Sampling::poisson ? poisson : without) = true;
  r.sampling = poisson && without ? std::nullopt : std::optional(segments.front().sampling);
  r.assumes = poisson && without ? sampled_assumes(Sampling::poisson) + "; " +
                                       sampled_assumes(Sampling::without_replacement)
                                 : sampled_assumes(segments.front().sampling);
  if (r.gdp && !r.gdp->exact)
    r.assumes += "; GDP's central limit theorem, an approximation, not a bound";
}

// The accountant asked for, or the tightest; refused where the sampling has not it.
Accountant chosen(Sampling sampling, const AccountantOptions& options) {
  const Accountant a = options.accountant.value_or(tightest_accountant(sampling));
  if (by_epochs(sampling) && a != Accountant::gaussian)
    throw UsageError(sampling_name(sampling) +
                     " participation is accounted by the exact Gaussian composition (" +
                     accountant_name(Accountant::gaussian) + "), not " + accountant_name(a));
  if (!by_epochs(sampling) && a == Accountant::gaussian)
    throw UsageError(
        "the exact Gaussian composition accounts known participations (shuffle), not "
        "subsampled steps");
  return a;
}

// A calibration's target, checked before any work: eps > 0 (inf allowed: no noise needed),
// delta in (0, 1).
void check_target(double eps, double delta) {
  if (!(eps > 0))
    throw UsageError(Pattern{fmt::format("the target epsilon must be > 0, got {}", eps)}, "{eps}");
  if (!(delta > 0 && delta < 1))
    throw UsageError(Pattern{fmt::format("delta must be in (0,1), got {}", delta)}, "{delta}");
}

void check_model(const RunModel& m) {
  if (!(m.noise_multiplier >= 0) || !std::isfinite(m.noise_multiplier))
    throw UsageError(
        fmt::format("the noise multiplier must be >= 0 and finite, got {}", m.noise_multiplier));
  if (!by_epochs(m.sampling))
    check_event({1, m.q, m.steps, m.sampling});
  else if (m.participations < 0)
    throw UsageError(fmt::format("participations must be >= 0, got {}", m.participations));
}

RunEpsilon shuffled_epsilon(const RunModel& m, double delta) {
  RunEpsilon r;
  r.accountant = Accountant::gaussian;
  r.sampling = m.sampling;
  r.assumes = shuffled_assumes(m.sampling, m.participations);
  const auto k = static_cast<double>(m.participations);
  r.epsilon = k == 0                   ? 0.0
              : m.noise_multiplier > 0 ? gaussian_composition_epsilon(m.noise_multiplier, k, delta)
                                       : std::numeric_limits<double>::infinity();
  return r;
}

PldOptions pld_options(const AccountantOptions& options) {
  PldOptions o;
  o.threads = options.threads;
  o.lattice = options.lattice;
  return o;
}

}  // namespace

std::string RunEpsilon::label() const {
  const std::string model = !sampling              ? "mixed"
                            : by_epochs(*sampling) ? "epochs"
                                                   : sampling_name(*sampling);
  return accountant_name(accountant) + "-" + model;
}

Accountant tightest_accountant(Sampling sampling) {
  return by_epochs(sampling) ? Accountant::gaussian : Accountant::pld;
}

RunEpsilon run_epsilon(const std::vector<AccountingEvent>& segments, double delta,
                       const AccountantOptions& options) {
  if (segments.empty()) throw UsageError("no accounting events");
  for (const AccountingEvent& e : segments) check_event(e);
  const Accountant a = chosen(segments.front().sampling, options);
  RunEpsilon r;
  r.accountant = a;
  if (a == Accountant::pld) {
    const AnalyticEpsilon e =
        analytic_epsilon(segments, delta, options.orders, options.threads, options.lattice);
    r.epsilon = e.headline;
    r.accountant = e.headline_accountant;
    r.pld = e.pld;
    r.pld_lattice = e.pld_lattice;
    r.pld_note = e.pld_note;
    r.rdp = e.rdp;
  } else if (a == Accountant::rdp) {
    r.rdp = rdp_epsilon(segments, delta, options.orders, options.threads);
    r.epsilon = r.rdp->epsilon;
  } else {
    r.gdp = gdp_mu(segments);
    r.epsilon = gdp_epsilon(r.gdp->mu, delta);
  }
  describe_segments(segments, r);
  return r;
}

RunEpsilon run_epsilon(const RunModel& model, double delta, const AccountantOptions& options) {
  check_model(model);
  check_delta(delta);
  const Accountant a = chosen(model.sampling, options);
  if (by_epochs(model.sampling)) return shuffled_epsilon(model, delta);
  const AccountingEvent segment{model.noise_multiplier, model.q, model.steps, model.sampling};
  if (model.noise_multiplier > 0) return run_epsilon({segment}, delta, options);
  RunEpsilon r;  // no noise
  r.epsilon = std::numeric_limits<double>::infinity();
  r.accountant = a;
  describe_segments({segment}, r);
  return r;
}

double run_noise_multiplier(const RunModel& model, double eps, double delta,
                            const AccountantOptions& options) {
  check_target(eps, delta);
  check_model(model);
  const Accountant a = chosen(model.sampling, options);
  if (a == Accountant::gaussian && model.participations == 0)
    throw UsageError(
        fmt::format("eps {} is met by any noise multiplier: no record takes part", eps));
  if (std::isinf(eps)) return 0;  // no noise: eps inf
  switch (a) {
    case Accountant::gaussian:
      return gaussian_mechanism_sigma(eps, delta) *
             std::sqrt(static_cast<double>(model.participations));
    case Accountant::pld:
      return pld_sigma_for_epsilon(eps, model.q, model.steps, delta, pld_options(options),
                                   model.sampling);
    case Accountant::rdp:
      return rdp_sigma_for_epsilon(eps, model.q, model.steps, delta, options.orders,
                                   model.sampling);
    case Accountant::gdp:
      break;
  }
  return gdp_sigma_for_epsilon(eps, model.q, model.steps, delta, model.sampling);
}

LastIterate last_iterate_heuristic(const RunModel& m, double delta) {
  check_model(m);
  check_target(1, delta);
  if (m.sampling == Sampling::without_replacement)
    throw UsageError("the last-iterate heuristic is for Poisson or epoch sampling");
  if (m.steps < 1) throw UsageError(fmt::format("steps must be >= 1, got {}", m.steps));
  LastIterate r;
  r.assumes =
      "Steinke et al. 2025's last-iterate heuristic: linear losses, only the final model "
      "released, every step's noisy sum weighed equally (momentum and learning-rate schedules "
      "not modelled); a target for a final-model audit, not a bound";
  const double t = static_cast<double>(m.steps);
  if (by_epochs(m.sampling) && m.participations == 0) return r;
  if (!(m.noise_multiplier > 0)) {
    r.epsilon = std::numeric_limits<double>::infinity();
    return r;
  }
  if (by_epochs(m.sampling))
    r.epsilon = gaussian_composition_epsilon(
        m.noise_multiplier * std::sqrt(t) / static_cast<double>(m.participations), 1, delta);
  else
    r.epsilon =
        mixture_epsilon({last_iterate_event(m.noise_multiplier, m.q, m.steps)}, delta).epsilon;
  return r;
}

FederatedEpsilon federated_epsilon(const FederatedModel& model, double delta,
                                   const AccountantOptions& options) {
  if (model.clients.sampling == Sampling::without_replacement)
    throw UsageError("a federated run's clients are Poisson-sampled or shuffled");
  RunModel one = model.clients;
  one.sampling = Sampling::shuffle;
  one.participations = 1;
  FederatedEpsilon f;
  f.eps_per_round = run_epsilon(one, delta).epsilon;
  f.clients = run_epsilon(model.clients, delta, options);
  f.eps_run = f.clients.epsilon;
  if (model.clients.sampling == Sampling::shuffle) {
    f.assumes =
        "every client and seen canary takes part in at most max_participations rounds, each "
        "known to the adversary: the Gaussian mechanism at noise multiplier / "
        "sqrt(max_participations); no amplification by shuffling";
    return f;
  }
  if (!model.canaries) {
    f.assumes =
        "every client and seen canary Poisson-sampled at rate q in every round "
        "(add/remove-one): subsampled Gaussian over all rounds, the smaller of its PLD upper "
        "bound and RDP";
    return f;
  }
  f.canaries = run_epsilon(*model.canaries, delta);
  f.eps_run = std::max(f.eps_run, f.canaries->epsilon);
  f.assumes =
      "clients Poisson-sampled at rate q in every round (add/remove-one): subsampled Gaussian, "
      "the smaller of its PLD upper bound and RDP over all rounds; seen canaries in "
      "canary_repeats rounds known to the adversary: the Gaussian mechanism at noise "
      "multiplier / sqrt(canary_repeats); eps_run is the larger";
  return f;
}

TradeoffCurve run_tradeoff_curve(const std::vector<AccountingEvent>& segments,
                                 const AccountantOptions& options) {
  if (segments.empty()) throw UsageError("no accounting events");
  const Accountant a = chosen(segments.front().sampling, options);
  if (a == Accountant::gdp)
    throw UsageError(
        "a trade-off curve is certified by pld or rdp (GDP's central limit theorem is an "
        "approximation, not a bound)");
  return a == Accountant::pld ? pld_tradeoff_curve(segments, pld_options(options))
                              : rdp_tradeoff_curve(segments, options.orders, options.threads);
}

}  // namespace dpaudit
