#include "sequential.hpp"

#include <fmt/format.h>

#include <string>
#include <utility>
#include <vector>

#include "cli/gate.hpp"
#include "cli/output.hpp"
#include "cli/tool.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "io/atomic_output.hpp"
#include "io/json.hpp"
#include "io/trial_stream.hpp"

namespace dpaudit::eps_from_scores {

namespace {

constexpr const char* kTool = "eps-from-scores";
constexpr const char* kAssumes =
    "independent trials; a decision game's labels are fair coins; no shape of the trade-off "
    "curve";

Json summary(const SequentialRun& run, const SequentialAudit& audit) {
  return Json{{"method", "sequential"},
              {"epsilon", json_number(audit.eps_lo())},
              {"trials", audit.trials()},
              {"last_rise", audit.last_rise()},
              {"alpha", run.audit.alpha},
              {"delta", run.audit.delta},
              {"grid_step", run.audit.eps_step},
              {"grid_max", run.audit.eps_max},
              {"next_eps", json_number(audit.frontier_eps())},
              {"next_log_evidence", json_number(audit.frontier_log_evidence())},
              {"assumes", kAssumes}};
}

// Feeds every trial of `stream` to `audit`, calling `after` after each; returns at the end.
template <class After>
void feed(TrialStream& stream, SequentialAudit& audit, After after) {
  StreamedTrial trial;
  while (stream.next(trial)) {
    if (stream.decisions())
      audit.add_decision(trial.label, trial.guess);
    else
      audit.add_pair(trial.in, trial.out);
    after();
  }
}

}  // namespace

int run_sequential(const SequentialRun& run, std::istream& in, std::ostream& out,
                   std::ostream& err) {
  TrialStream stream(run.input, in);
  if (run.decisions && !stream.decisions())
    throw DataError("a decision game needs a guess column", stream.source());
  SequentialAudit audit(
      stream.decisions() ? SequentialInput::decisions : SequentialInput::score_pairs, run.audit);
  std::vector<std::pair<std::size_t, double>> rises;
  double bound = 0;
  try {
    feed(stream, audit, [&] {
      if (audit.eps_lo() > bound) {
        bound = audit.eps_lo();
        rises.emplace_back(audit.trials(), bound);
        cli::check_budget(run.fail_above, bound, "epsilon",
                          fmt::format("anytime-valid lower bound after {} trials", audit.trials()),
                          stream.source());
      }
      if (run.every > 0 && audit.trials() % run.every == 0 && !run.quiet)
        cli::note(err, kTool,
                  fmt::format("{} trials: eps_lo {}", audit.trials(), format_number(bound)));
    });
  } catch (const DataError&) {
    if (!run.quiet)
      cli::note(err, kTool,
                fmt::format("the bound after the {} trials before the error: eps_lo {}",
                            audit.trials(), format_number(bound)));
    throw;
  }
  if (audit.trials() == 0) throw DataError("no trials", stream.source());
  if (run.trace) {
    std::string text = "trials,eps_lo\n";
    for (const auto& [t, e] : rises) text += fmt::format("{},{}\n", t, format_number(e));
    if (rises.empty() || rises.back().first != audit.trials())
      text += fmt::format("{},{}\n", audit.trials(), format_number(bound));
    write_whole(*run.trace, text);
  }
  cli::write_output(
      run.output,
      cli::format_output(
          cli::output_format(run.json, false), [&] { return format_number(audit.eps_lo()) + "\n"; },
          [&] { return summary(run, audit); }),
      out);
  return 0;
}

}  // namespace dpaudit::eps_from_scores
