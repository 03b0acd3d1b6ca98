#include "games/canife_accounting.hpp"

#include <cmath>
#include <limits>

#include "accounting/analytic_gaussian.hpp"
#include "stats/canife_epsilon.hpp"
#include "stats/epsilon_from_rates.hpp"

namespace dpaudit {

namespace {

// A single round of the Gaussian mechanism at noise multiplier sigma, without amplification.
RunModel one_round_model(double sigma) {
  RunModel m;
  m.sampling = Sampling::poisson;
  m.noise_multiplier = sigma;
  m.q = 1;
  m.steps = 1;
  return m;
}

}  // namespace

RunModel canife_run_model(const CanifeGameConfig& c, double sigma) {
  RunModel m;
  m.sampling = Sampling::poisson;
  m.noise_multiplier = sigma;
  m.q = c.q;
  m.steps = static_cast<long long>(c.total_rounds());
  return m;
}

double canife_noise_multiplier(const CanifeGameConfig& c, double eps,
                               const AccountantOptions& options) {
  return run_noise_multiplier(canife_run_model(c, 0), eps, c.delta, options);
}

CanifeAnalytic canife_analytic(const CanifeGameConfig& c, double sigma,
                               const AccountantOptions& options) {
  CanifeAnalytic a;
  a.run = run_epsilon(canife_run_model(c, sigma), c.delta, options);
  a.one_round = run_epsilon(one_round_model(sigma), c.delta, options);
  a.one_round_1n =
      run_epsilon(one_round_model(sigma), 1.0 / static_cast<double>(c.audit_rounds), options);
  a.one_round_gaussian = gaussian_mechanism_epsilon(sigma, c.delta);
  return a;
}

double rdp_or_inf(const RunEpsilon& e) {
  return e.rdp ? e.rdp->epsilon : std::numeric_limits<double>::infinity();
}

CanifeEmpirical canife_empirical(const std::vector<AuditEpsilon>& audits, const CanifeGameConfig& c,
                                 double sigma) {
  const std::size_t n = c.audit_rounds;
  EmpiricalCompositionOptions o;
  o.q = c.q;
  o.total_rounds = static_cast<long long>(c.total_rounds());
  o.round_delta = 1.0 / static_cast<double>(n);
  o.delta = c.delta;
  o.sigma_if_inf = sigma;
  CanifeEmpirical r;
  o.cover = AuditCover::backward;
  r.backward = compose_empirical(audits, o);
  o.cover = AuditCover::forward;
  r.forward = compose_empirical(audits, o);
  // Maddock et al. 2023's rule sends a separated audit (eps_r = inf) to the run's own sigma.
  // Beside it, the same composition with inf read as the largest finite eps_r the n scores
  // can show: an estimate of what a perfect audit at least shows, comparable with Maddock et
  // al. 2023's and Andrew et al. 2024's.
  std::vector<AuditEpsilon> capped = audits;
  const std::size_t in = n / 2, out = n - in;  // the mock rounds with and without the canary
  const double cap = epsilon_from_rates(1 / static_cast<double>(out), 1 / static_cast<double>(in),
                                        1.0 / static_cast<double>(n));
  for (AuditEpsilon& e : capped)
    if (std::isinf(e.epsilon)) e.epsilon = cap;
  o.cover = AuditCover::backward;
  r.eps_hat_inf_capped = compose_empirical(capped, o).epsilon;
  return r;
}

EmpiricalComposition canife_empirical_2022(const std::vector<Audit>& audits,
                                           const CanifeGameConfig& c, std::vector<double>& eps_r) {
  std::vector<AuditEpsilon> estimates;
  eps_r.clear();
  for (const Audit& a : audits) {
    std::vector<double> in, out;
    split_scores(a, in, out);
    eps_r.push_back(canife_epsilon_max_accuracy(in, out, c.delta).epsilon);
    estimates.push_back({static_cast<long long>(a.round), eps_r.back()});
  }
  EmpiricalCompositionOptions o;
  o.q = c.q;
  o.total_rounds = static_cast<long long>(c.total_rounds());
  o.round_delta = 1.0 / static_cast<double>(c.audit_rounds);
  o.delta = c.delta;
  o.cover = AuditCover::backward;
  o.rule = EmpiricalRule::segment;
  return compose_empirical(estimates, o);
}

}  // namespace dpaudit
