#include "tool.hpp"

#include <limits>
#include <optional>

#include "canary/score_release.hpp"
#include "cli/progress.hpp"
#include "cli/tool.hpp"
#include "core/error.hpp"

namespace dpaudit::score_dump {

int run(const Options& o, std::ostream& err) {
  return cli::guarded("score-dump", err, [&] {
    if (o.model.empty() && o.deltas.empty()) throw UsageError("give --model or --deltas");
    ScoreRequest request;
    request.canaries = o.canaries;
    request.unseen = o.unseen;
    request.model = o.model;
    request.reference = o.reference;
    request.deltas = o.deltas;
    request.stat = parse_score_stat(o.stat);
    request.reduce = parse_round_reduce(o.reduce);
    request.threads = o.threads;
    request.device = parse_score_device(o.device);
    // A double beyond size_t's range would be undefined behaviour to convert: such a
    // budget means no limit.
    const double cache_bytes = o.cache_mb * 1024 * 1024;
    request.cache_bytes = cache_bytes < 0x1p63 ? static_cast<std::size_t>(cache_bytes)
                                               : std::numeric_limits<std::size_t>::max();
    std::optional<cli::Progress> round_progress;
    request.progress = [&](std::size_t done, std::size_t total) {
      if (!round_progress) round_progress.emplace("score-dump", total, o.quiet);
      round_progress->update(done);
    };
    request.note = [&](const std::string& note) {
      if (!o.quiet) cli::note(err, "score-dump", render_parameters(note, cli::option_flag));
    };
    const CanaryScores scores = score_canaries(request);
    write_scores_csv(o.output, scores.rows, scores.dim);
    return 0;
  });
}

}  // namespace dpaudit::score_dump
