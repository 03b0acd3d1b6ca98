#include "canife/audit.hpp"

#include <algorithm>
#include <cmath>

#include "accounting/analytic_gaussian.hpp"
#include "accounting/empirical_composition.hpp"
#include "accounting/rdp.hpp"
#include "core/format.hpp"
#include "data/datasets.hpp"
#include "io/atomic_output.hpp"
#include "io/npy.hpp"
#include "io/staging_dir.hpp"
#include "stats/epsilon_from_rates.hpp"
#include "stats/gaussian_fit.hpp"
#include "stats/guarantee.hpp"

namespace dpaudit::dp_train {

namespace {

// Mean and sample standard deviation (ddof 1; sd 0 for a single score, n = 2 or 3).
Gaussian mean_sd(const std::vector<double>& v) {
  return fit_gaussian(v, v.size() > 1 ? 1 : 0);
}

// The scores of the mock rounds with (odd) and without (even) the canary.
void split_scores(const Audit& a, std::vector<double>& in, std::vector<double>& out) {
  for (std::size_t k = 0; k < a.scores.size(); ++k) (k % 2 ? in : out).push_back(a.scores[k]);
}

// audits.csv: one row per audit.
void write_audits_csv(const std::string& path, const std::vector<Audit>& audits, std::size_t n,
                      double sigma, double delta) {
  AtomicOutput out(path);
  out.stream()
      << "round,n,canary_label,health,initial_loss,final_loss,canary_grad_norm,with_mean,with_sd,"
         "without_mean,without_sd,eps_r,eps_r_lower,eps_r_upper,eps_r_theory_delta,eps_r_theory_1n,"
         "test_accuracy\n";
  // The theoretical eps of one round without amplification (q = 1, one step), at the
  // run's delta and at Maddock et al. 2023's 1/n.
  const double theory = rdp_epsilon({{sigma, 1.0, 1}}, delta).epsilon;
  const double theory_1n = rdp_epsilon({{sigma, 1.0, 1}}, 1.0 / double(n)).epsilon;
  for (const Audit& a : audits) {
    std::vector<double> in, outs;
    split_scores(a, in, outs);
    const Gaussian w = mean_sd(in), wo = mean_sd(outs);
    out.stream() << a.round << ',' << n << ',' << a.canary.label << ','
                 << format_number(a.canary.health) << ',' << format_number(a.canary.initial_loss)
                 << ',' << format_number(a.canary.final_loss) << ','
                 << format_number(a.canary.gradient_norm) << ',' << format_number(w.mean) << ','
                 << format_number(w.stddev) << ',' << format_number(wo.mean) << ','
                 << format_number(wo.stddev) << ',' << format_number(a.eps.epsilon) << ','
                 << format_number(a.eps.epsilon_lower) << ',' << format_number(a.eps.epsilon_upper)
                 << ',' << format_number(theory) << ',' << format_number(theory_1n) << ','
                 << format_number(a.test_accuracy) << '\n';
  }
  out.commit();
}

}  // namespace

CanaryStart initial_canary(CanaryInit init, const Dataset& pool, std::size_t first,
                           PhiloxStream& rng) {
  CanaryStart s;
  s.x.resize(pool.example_size());
  // uniform pixels and a uniform class (Maddock et al. 2023's code)
  if (init == CanaryInit::random) {
    for (float& v : s.x) v = static_cast<float>(rng.uniform());
    s.label =
        static_cast<std::int64_t>(uniform_below(rng, static_cast<std::size_t>(pool.num_classes)));
  } else {  // a design example
    std::copy_n(pool.example(first), s.x.size(), s.x.begin());
    s.label = pool.labels[first];
  }
  return s;
}

void estimate_epsilon(Audit& a) {
  std::vector<double> in, out;
  split_scores(a, in, out);
  a.eps = canife_epsilon(in, out, 1.0 / double(a.scores.size()));
}

void write_audit_files(const StagingDir& staging, const std::vector<Audit>& audits,
                       const CanifeConfig& c, double sigma, std::size_t example_size) {
  {
    AtomicOutput out(staging.path("scores.csv"));
    out.stream() << "round,trial,label,score\n";
    for (const Audit& a : audits)
      for (std::size_t k = 0; k < a.scores.size(); ++k)
        out.stream() << a.round << ',' << k << ',' << k % 2 << ',' << format_number(a.scores[k])
                     << '\n';
    out.commit();
  }
  write_audits_csv(staging.path("audits.csv"), audits, c.audit_rounds, sigma, c.delta);
  std::vector<double> crafted;
  for (const Audit& a : audits) crafted.insert(crafted.end(), a.canary.x.begin(), a.canary.x.end());
  save_npy(staging.path("canaries.npy"), crafted.data(), {audits.size(), example_size},
           NpyDtype::f4);
}

void add_estimates(Json& run, const std::vector<Audit>& audits, const CanifeConfig& c,
                   double sigma) {
  const auto steps = static_cast<long long>(c.total_rounds());
  const std::size_t n = c.audit_rounds;
  run["analytic"] = {
      {"eps_rdp_run", json_number(rdp_epsilon({{sigma, c.q, steps}}, c.delta).epsilon)},
      {"eps_one_round_rdp", json_number(rdp_epsilon({{sigma, 1.0, 1}}, c.delta).epsilon)},
      {"eps_one_round_gaussian", json_number(gaussian_mechanism_epsilon(sigma, c.delta))},
      {"assumes",
       c.level == CanifeLevel::sample
           ? "Poisson lots at rate q over the training set, add/remove-one adjacency; one_round: a "
             "single "
             "round of the Gaussian mechanism without amplification (Andrew et al. 2024, Sec. 5.4 "
             "quotes it)"
           : "clients Poisson-sampled at rate q, add/remove-one-client adjacency (user level); "
             "one_round: "
             "a single round of the Gaussian mechanism without amplification (Maddock et al. 2023, "
             "Fig. 4's "
             "theoretical "
             "eps_r)"}};
  std::vector<AuditEpsilon> estimates;
  for (const Audit& a : audits)
    estimates.push_back({static_cast<long long>(a.round), a.eps.epsilon});
  EmpiricalCompositionOptions o;
  o.q = c.q;
  o.total_rounds = steps;
  o.round_delta = 1.0 / double(n);
  o.delta = c.delta;
  o.sigma_if_inf = sigma;
  auto composed = [&](const std::vector<AuditEpsilon>& e, AuditCover cover) {
    o.cover = cover;
    const EmpiricalComposition r = compose_empirical(e, o);
    Json j = {
        {"eps_hat", json_number(r.epsilon)}, {"sigma_r", r.sigma}, {"rounds_covered", r.covered}};
    j["running_eps_hat"] = Json::array();
    for (double v : r.running_eps) j["running_eps_hat"].push_back(json_number(v));
    return j;
  };
  run["empirical_backward"] = composed(estimates, AuditCover::backward);
  run["empirical_forward"] = composed(estimates, AuditCover::forward);
  // Maddock et al. 2023's rule sends a separated audit (eps_r = inf) to the run's own sigma. Beside
  // it, the same composition with inf read as the largest finite eps_r the n scores can show (one
  // error on each side, 3.88 at n = 100; 0 when n is too small for any): an estimate of what a
  // perfect audit at least shows, comparable with Maddock et al. 2023's and Andrew et al. 2024's.
  std::vector<AuditEpsilon> capped = estimates;
  const double n_in = double(n / 2), n_out = double(n - n / 2);
  const double cap = epsilon_from_rates(1 / n_out, 1 / n_in, 1.0 / double(n));
  for (AuditEpsilon& e : capped)
    if (std::isinf(e.epsilon)) e.epsilon = cap;
  run["eps_hat_inf_capped"] = composed(capped, AuditCover::backward)["eps_hat"];
  run["eps_hat"] = run["empirical_backward"]["eps_hat"];
  // Each eps_r is a point estimate read as one Gaussian step (Maddock et al. 2023 Alg. 2).
  run["eps_hat_guarantee"] = {{"guarantee", guarantee_name(GuaranteeKind::point_estimate)},
                              {"assumes", assumption_name(Assumption::gaussian_tradeoff_curve)}};
  Json per_audit = Json::array();
  for (const Audit& a : audits)
    per_audit.push_back(
        {{"round", a.round}, {"eps_r", json_number(a.eps.epsilon)}, {"health", a.canary.health}});
  run["audits"] = per_audit;
}

}  // namespace dpaudit::dp_train
