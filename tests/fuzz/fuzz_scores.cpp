// libFuzzer harness: eps-from-scores' body (tools/eps-from-scores/tool.cpp's run(),
// in-process) on the fuzzer's bytes as a scores CSV, through the estimators a scores file
// reaches most often: the default Clopper-Pearson bound, the threshold estimate per round,
// CANIFE's per round, the one-run audit, gauss-fit against the cosine null, and the sequential
// audit (its trial stream, io/trial_stream.hpp; a coarse grid, so runs stay fast). Output and
// error lines go nowhere; any outcome but a return is a finding.
#include <sstream>
#include <vector>

#include "fuzz_input.hpp"
#include "tool.hpp"

namespace {

using dpaudit::EstimateInput;
using dpaudit::eps_from_scores::Options;

std::vector<Options> option_sets(const std::string& path) {
  Options plain;
  plain.scores = {path};
  plain.json = true;
  Options per_round = plain;
  per_round.json = false;
  per_round.request.method = "threshold";
  per_round.request.input = EstimateInput::rounds;
  Options canife = per_round;
  canife.request.method = "canife";
  Options one_run = plain;
  one_run.request.method = "one-run";
  one_run.request.delta = 1e-5;
  Options null = plain;
  null.request.null_dim = 100;
  null.request.delta = 1e-5;
  Options sequential = plain;
  sequential.sequential = dpaudit::eps_from_scores::SequentialRun{};
  sequential.sequential->input = path;
  sequential.sequential->audit.eps_step = 0.5;
  sequential.sequential->fail_above = 3;
  return {plain, per_round, canife, one_run, null, sequential};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const dpaudit::fuzz::InputFile input(data, size);
  for (const Options& options : option_sets(input.path())) {
    std::istringstream in;
    std::ostringstream out, err;
    dpaudit::eps_from_scores::run(options, in, out, err);
  }
  return 0;
}
