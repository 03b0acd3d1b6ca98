// eps-from-scores' body, callable in-process (the option-combination tests, the fuzz
// harnesses): the options as parsed, the streams for "-", and the exit status.
#pragma once
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sequential.hpp"
#include "stats/estimate_request.hpp"

namespace dpaudit::eps_from_scores {

struct Options {
  // Scores CSVs; "-": the input stream. Several: the shards of one run, merged with their
  // checks (io/scores_reader.hpp).
  std::vector<std::string> scores{"-"};
  std::string in_npy;  // --in (NPY pairs when given), --out
  std::string out_npy;
  // Decisions CSVs ("-": the input stream), several as the scores.
  std::optional<std::vector<std::string>> decisions;
  std::optional<std::string> against_curve;  // the curve CSV of --against-curve
  bool fail_on_refute = false;
  std::optional<std::string> roc_band;   // --roc-band: the empirical curve's CSV
  std::optional<std::string> eps_delta;  // --eps-delta: eps_lo on the delta grid
  std::optional<double> fail_above;
  std::optional<std::string> tpr_at;   // --tpr-at as given, comma-separated
  std::optional<std::string> guesses;  // --guesses as given, K or K+:K-
  bool json = false;
  bool report = false;
  bool quiet = false;
  std::string output = "-";
  // The estimator's parameters (no data): the method, alpha, delta, the strategy, the null,
  // per round (input rounds), decisions (input decisions), bootstrap, ...
  EstimateRequest request;
  // --sequential: the anytime-valid audit of a stream of trials instead (sequential.hpp).
  std::optional<SequentialRun> sequential;
};

// Reads the data, estimates, prints to `out` (or --output), notes and errors on `err`;
// returns the exit status (0, 1 bad data, 2 usage, 3 over the budget or refuted).
int run(const Options& options, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace dpaudit::eps_from_scores
