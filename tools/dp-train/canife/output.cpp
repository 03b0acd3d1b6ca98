#include "canife/output.hpp"

#include "core/format.hpp"
#include "io/atomic_output.hpp"
#include "io/npy.hpp"
#include "io/staging_dir.hpp"
#include "metrics_csv.hpp"
#include "stats/gaussian_fit.hpp"
#include "stats/guarantee.hpp"

namespace dpaudit::dp_train {

namespace {

// Mean and sample standard deviation (ddof 1; sd 0 for a single score, n = 2 or 3).
Gaussian mean_sd(const std::vector<double>& v) {
  return fit_gaussian(v, v.size() > 1 ? 1 : 0);
}

void write_scores_csv(const std::string& path, const std::vector<Audit>& audits) {
  AtomicOutput out(path);
  out.stream() << "round,trial,label,score\n";
  for (const Audit& a : audits)
    for (std::size_t k = 0; k < a.scores.size(); ++k)
      out.stream() << a.round << ',' << k << ',' << k % 2 << ',' << format_number(a.scores[k])
                   << '\n';
  out.commit();
}

// audits.csv: one row per audit; the theoretical eps of one round without amplification
// (q = 1, one step), at the run's delta and at Maddock et al. 2023's 1/n.
void write_audits_csv(const std::string& path, const std::vector<Audit>& audits, std::size_t n,
                      const CanifeAnalytic& analytic) {
  AtomicOutput out(path);
  out.stream()
      << "round,n,canary_label,health,initial_loss,final_loss,canary_grad_norm,with_mean,with_sd,"
         "without_mean,without_sd,eps_r,eps_r_lower,eps_r_upper,eps_r_theory_delta,eps_r_theory_1n,"
         "test_accuracy\n";
  const double theory = analytic.one_round.epsilon;
  const double theory_1n = analytic.one_round_1n.epsilon;
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

// metrics.csv in fedavg's columns.
void write_metrics(const std::string& path, const std::vector<CanifeRoundMetrics>& rounds,
                   double clip) {
  std::vector<RoundMetrics> rows;
  for (const CanifeRoundMetrics& r : rounds)
    rows.push_back({r.round, r.train_loss, r.update_norm, clip, r.test_accuracy});
  write_metrics_csv(path, rows);
}

// The analytic bounds: the accountant's headline and, beside it, RDP and one round.
void add_analytic(Json& run, const CanifeConfig& c, const CanifeAnalytic& a) {
  run["analytic_eps"] = json_number(a.run.epsilon);
  run["accountant"] = a.run.label();
  run["accountant_assumes"] = a.run.assumes;
  if (a.run.pld)
    run["eps_pld"] = {{"upper", json_number(a.run.pld->upper)},
                      {"lower", json_number(a.run.pld->lower)}};
  run["eps_rdp"] = json_number(rdp_or_inf(a.run));
  run["analytic"] = {
      {"eps_rdp_run", json_number(rdp_or_inf(a.run))},
      {"eps_one_round", json_number(a.one_round.epsilon)},
      {"eps_one_round_rdp", json_number(rdp_or_inf(a.one_round))},
      {"eps_one_round_gaussian", json_number(a.one_round_gaussian)},
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
}

Json composed_json(const EmpiricalComposition& r) {
  Json j = {
      {"eps_hat", json_number(r.epsilon)}, {"sigma_r", r.sigma}, {"rounds_covered", r.covered}};
  j["running_eps_hat"] = Json::array();
  for (double v : r.running_eps) j["running_eps_hat"].push_back(json_number(v));
  return j;
}

}  // namespace

void write_audit_files(const StagingDir& staging, const CanifeRun& run, const CanifeConfig& c,
                       const CanifeAnalytic& analytic, std::size_t example_size) {
  write_scores_csv(staging.path("scores.csv"), run.audits);
  write_audits_csv(staging.path("audits.csv"), run.audits, c.audit_rounds, analytic);
  std::vector<double> crafted;
  for (const Audit& a : run.audits)
    crafted.insert(crafted.end(), a.canary.x.begin(), a.canary.x.end());
  save_npy(staging.path("canaries.npy"), crafted.data(), {run.audits.size(), example_size},
           NpyDtype::f4);
  write_metrics(staging.path("metrics.csv"), run.metrics, c.clip);
}

void add_estimates(Json& run, const std::vector<Audit>& audits, const CanifeConfig& c, double sigma,
                   const CanifeAnalytic& analytic) {
  add_analytic(run, c, analytic);
  std::vector<AuditEpsilon> estimates;
  for (const Audit& a : audits)
    estimates.push_back({static_cast<long long>(a.round), a.eps.epsilon});
  const CanifeEmpirical e = canife_empirical(estimates, c, sigma);
  std::vector<double> eps_r_2022;
  run["empirical_backward"] = composed_json(e.backward);
  run["empirical_forward"] = composed_json(e.forward);
  run["empirical_code_2022"] = composed_json(canife_empirical_2022(audits, c, eps_r_2022));
  run["empirical_code_2022"]["eps_r"] = Json::array();
  for (double v : eps_r_2022) run["empirical_code_2022"]["eps_r"].push_back(json_number(v));
  run["eps_hat_inf_capped"] = json_number(e.eps_hat_inf_capped);
  switch (c.eps_hat) {
    case EpsHatRule::code_2023:
      run["eps_hat"] = run["empirical_backward"]["eps_hat"];
      break;
    case EpsHatRule::forward:
      run["eps_hat"] = run["empirical_forward"]["eps_hat"];
      break;
    case EpsHatRule::capped:
      run["eps_hat"] = run["eps_hat_inf_capped"];
      break;
    case EpsHatRule::code_2022:
      run["eps_hat"] = run["empirical_code_2022"]["eps_hat"];
      break;
  }
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
