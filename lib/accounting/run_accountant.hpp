// The run accountant: the analytic epsilon of a training run from its participation model
// (how records take part, the noise multiplier, the steps) and delta, and the noise
// multiplier that meets a target epsilon. The one place that decides which accountant a
// run's headline comes from and what it assumes; every tool that reports "the eps of this
// run" asks it.
//
// The accountants (Accountant):
//   pld       the privacy-loss distribution (lib/accounting/pld.hpp), an interval that holds
//             the true eps, with RDP beside it; the headline is the smaller sound upper bound
//             of the two (lib/accounting/analytic_epsilon.hpp);
//   rdp       Renyi DP alone (lib/accounting/rdp.hpp), looser, cheap;
//   gdp       Gaussian DP (lib/accounting/gdp.hpp): exact at q = 1, otherwise a central limit
//             theorem, an approximation, NOT a bound: never a default;
//   gaussian  k participations of the Gaussian mechanism, each known to the adversary,
//             composed exactly (Dong, Roth & Su 2019; lib/accounting/analytic_gaussian.hpp):
//             shuffled or balls-in-bins epochs, fixed repetitions, no amplification
//             claimed (rdp-compose --sampling balls-in-bins gives the amplified bound by
//             Monte Carlo, lib/stats/balls_in_bins_bound.hpp).
// The default is the tightest sound one: gaussian for participation by epochs (exact), pld
// for Poisson and without-replacement sampling.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "accounting/accountant.hpp"
#include "accounting/event.hpp"
#include "accounting/gdp.hpp"
#include "accounting/pld.hpp"
#include "accounting/rdp.hpp"
#include "accounting/tradeoff_curve.hpp"
#include "core/sampling.hpp"

namespace dpaudit {

// The tightest sound accountant of a sampling: gaussian by epochs (by_epochs), pld otherwise.
Accountant tightest_accountant(Sampling sampling);

// How the records take part in a run. Poisson or without replacement: `steps` steps (or
// rounds), each on a batch drawn at rate q. By epochs (shuffle, balls-in-bins): each record
// takes part in at most `participations` steps (the epochs begun by the trainer, a schedule's
// most, or a fixed number of repetitions), each one known to the adversary.
struct RunModel {
  Sampling sampling = Sampling::poisson;
  // z >= 0, the noise standard deviation over the clip norm; 0: no noise, eps inf (sound:
  // not the smallest bound where no record may take part). Ignored by the calibration.
  double noise_multiplier = 0;
  double q = 1;  // poisson, without_replacement: in (0, 1]
  long long steps =
      0;  // poisson, without_replacement: >= 1; by epochs: read by last_iterate_heuristic
  long long participations = 0;  // by epochs: >= 0 (0: nothing released, eps 0)
};

struct AccountantOptions {
  std::optional<Accountant> accountant;               // unset: tightest_accountant
  std::vector<double> orders = default_rdp_orders();  // rdp, and pld's RDP
  int threads = 1;     // rdp, pld (0 = all cores; the result does not depend on it)
  double lattice = 0;  // pld: PldOptions::lattice (0 = chosen from the run)
};

struct RunEpsilon {
  double epsilon = 0;                       // the headline
  Accountant accountant = Accountant::pld;  // the one that gave it (pld's may be rdp's)
  // The model's sampling; nullopt: segments of both Poisson and without replacement.
  std::optional<Sampling> sampling = Sampling::poisson;
  std::string assumes;             // what the bound assumes, one sentence
  std::optional<PldInterval> pld;  // pld: absent where the PLD is out of reach (pld_note)
  double pld_lattice = 0;          // pld: the lattice spacing used
  std::string pld_note;            // pld: why it is absent, or that segments were merged
  std::optional<RdpResult> rdp;    // pld and rdp
  std::optional<GdpMu> gdp;        // gdp

  // The accountant and the model, e.g. "pld-poisson", "rdp-mixed", "gaussian-epochs".
  std::string label() const;
};

// The eps of the run at delta in (0, 1). Throws UsageError for a model out of its ranges,
// or an accountant the sampling has not (by epochs: gaussian only; gaussian: by epochs only).
RunEpsilon run_epsilon(const RunModel& model, double delta, const AccountantOptions& options = {});

// The same for heterogeneous segments (Poisson or without replacement, each its own noise,
// rate and steps): pld by default; rdp, gdp as asked.
RunEpsilon run_epsilon(const std::vector<AccountingEvent>& segments, double delta,
                       const AccountantOptions& options = {});

// The smallest noise multiplier whose run meets (eps, delta) by the accountant (pld:
// its PLD upper bound, pld_sigma_for_epsilon; rdp, gdp: theirs; gaussian: exact); 0 for
// eps inf. UsageError, before any work, for eps not > 0 (NaN included) or delta outside
// (0, 1); as run_epsilon's for the model; where no record takes part (shuffle, no
// participation: any noise meets eps); and where no noise multiplier in [1e-4, 1e6] fits.
double run_noise_multiplier(const RunModel& model, double eps, double delta,
                            const AccountantOptions& options = {});

// A federated run as its accountant sees it (Andrew et al. 2024, Sec. 5.2), built from the
// run's participation by federated_model (lib/mechanisms/participation.hpp). Every member (a
// client or a seen canary) is covered by one of the two models.
struct FederatedModel {
  // Poisson: every client, and every seen canary sampled like them, at rate q in every
  // round. Shuffle: at most max_participations rounds each, seen canaries included however
  // they take part.
  RunModel clients;
  // Poisson runs only: the seen canaries on fixed repetitions (shuffle, canary_repeats
  // rounds); absent where there are none, or where they are sampled like the clients.
  std::optional<RunModel> canaries;
  long long max_participations = 0;  // the most rounds any client or seen canary took part in
};

struct FederatedEpsilon {
  double eps_run = 0;  // every client and seen canary's: the larger of the two models'
  // One participation: the Gaussian mechanism at the noise multiplier (Andrew et al. 2024,
  // footnote 5).
  double eps_per_round = 0;
  RunEpsilon clients;
  std::optional<RunEpsilon> canaries;
  std::string assumes;  // what eps_run assumes, one sentence
};

// The eps of a federated run at delta in (0, 1): each participation known to the adversary,
// no amplification by shuffling claimed; a Poisson run's clients by the subsampled Gaussian
// (the smaller of its PLD upper bound and RDP). UsageError as run_epsilon's.
FederatedEpsilon federated_epsilon(const FederatedModel& model, double delta,
                                   const AccountantOptions& options = {});

// The f-DP trade-off curve the accountant certifies for the segments (pld by default, or
// rdp; gdp and gaussian certify none here: UsageError).
TradeoffCurve run_tradeoff_curve(const std::vector<AccountingEvent>& segments,
                                 const AccountantOptions& options = {});

// The last-iterate heuristic of Steinke et al. 2025 for a run whose final model alone is
// released: linear losses, every step's noisy sum weighed equally (a server's momentum or
// learning-rate schedule is not modelled). Poisson: N(0, T z^2) against N(K, T z^2), K ~
// Binomial(T, q), by the mixture PLD (mixture_epsilon.hpp: its upper end); by epochs: k
// participations among the T steps, N(k, T z^2), the Gaussian mechanism at z sqrt(T) / k.
// T is `steps` for every sampling here. A target for a final-model audit, not a bound
// (Annamalai 2024 builds a loss where the final model leaks as much as every iterate).
// UsageError for without replacement; inf for z = 0; 0 where nothing takes part.
struct LastIterate {
  double epsilon = 0;
  std::string assumes;
};
LastIterate last_iterate_heuristic(const RunModel& model, double delta);

}  // namespace dpaudit
