// rdp-compose's body, callable in-process: validated options in, the input stream for
// `-`, the output stream and a sink for notes; the accountant dispatch is the library's
// run accountant (lib/accounting/run_accountant.hpp).
#pragma once
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>

#include "accounting/empirical_composition.hpp"
#include "accounting/run_accountant.hpp"
#include "io/json.hpp"
#include "release.hpp"
#include "stats/balls_in_bins_bound.hpp"

namespace dpaudit::rdp_compose {

enum class Mode {
  epsilon,        // the eps of the run (one segment, or --events)
  calibrate,      // --eps: the smallest noise multiplier meeting it
  tradeoff,       // --tradeoff: the f-DP curve the accountant certifies
  empirical,      // --empirical: Maddock et al. 2023's (CANIFE) eps_hat from per-round eps_r
  shuffle,        // --sampling shuffle: the shuffled lower bound beside the Poisson bound
  balls_in_bins,  // --sampling balls-in-bins: its Monte Carlo bound beside the Poisson bound
};

struct Options {
  Mode mode = Mode::epsilon;
  AccountantOptions accounting;  // its accountant always set
  Sampling sampling = Sampling::poisson;
  double sigma = 0, q = 0, delta = 0, eps = 0;
  long long steps = 0;
  long long epochs = 0, batches = 0;       // Mode::shuffle, Mode::balls_in_bins
  BallsInBinsOptions balls_in_bins;        // Mode::balls_in_bins: samples, seed, confidence
  std::optional<std::string> events_path;  // segments from CSV ("-" or "": the input stream)
  std::string tradeoff_path;               // Mode::tradeoff ("-" or "": the output stream)
  std::string eps_delta_path;              // Mode::tradeoff: eps at each delta of the grid
  std::string empirical_path;              // Mode::empirical ("-" or "": the input stream)
  EmpiricalCompositionOptions empirical;   // Mode::empirical, complete
  std::optional<double> fail_above;        // exit 3 when eps is above it
  bool json = false;
  ReleaseOptions release;  // --release, --accumulate (release.hpp)
};

using Note = std::function<void(const std::string&)>;

// The accountant's own fields of a --json report (the PLD interval and RDP, GDP's mu, RDP's
// order) into `report`, and its notes.
void describe(const Options& options, const RunEpsilon& r, Json& report, const Note& note);

// Writes the result to `out` (nothing where it throws); --tradeoff FILE writes FILE whole.
// Throws dpaudit's errors (DataError for bad input, UsageError), and cli::Refusal above
// fail_above.
void compose(const Options& options, std::istream& in, std::ostream& out, const Note& note);

}  // namespace dpaudit::rdp_compose
