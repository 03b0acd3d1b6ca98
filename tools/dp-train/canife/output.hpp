// What `dp-train canife` writes into --out: scores.csv (round,trial,label,score),
// audits.csv (a row per audit), canaries.npy, metrics.csv (fedavg's columns) and run.json's
// accounting: the analytic epsilon by the accountant with RDP beside it, one round's
// theoretical eps, Alg. 2's eps_hat under both coverings and the per-audit eps_r.
#pragma once
#include <cstddef>
#include <vector>

#include "canife/config.hpp"
#include "games/canife_accounting.hpp"
#include "games/torch/canife_game.hpp"
#include "io/json.hpp"

namespace dpaudit {
class StagingDir;
}  // namespace dpaudit

namespace dpaudit::dp_train {

// scores.csv, audits.csv, canaries.npy and metrics.csv into the staging folder; audits.csv's
// theoretical eps_r are `analytic`'s one round at delta and at 1/n.
void write_audit_files(const StagingDir& staging, const CanifeRun& run, const CanifeConfig& c,
                       const CanifeAnalytic& analytic, std::size_t example_size);

// run.json's accounting, added to `run`: the accountant's headline ("analytic_eps",
// "accountant", "accountant_assumes", "eps_pld", "eps_rdp"), the analytic bounds
// ("analytic"), Alg. 2's eps_hat under both coverings ("empirical_backward",
// "empirical_forward", "eps_hat"), "eps_hat_inf_capped" and the per-audit eps_r ("audits").
void add_estimates(Json& run, const std::vector<Audit>& audits, const CanifeConfig& c, double sigma,
                   const CanifeAnalytic& analytic);

}  // namespace dpaudit::dp_train
