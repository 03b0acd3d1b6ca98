// score-dump: canaries and a released model (or per-round deltas) -> CSV id,label,score[,dim]
// (dim only for single cosines).
// The scores are computed by lib/canary/score_release.hpp.
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "canary/score_release.hpp"
#include "cli/progress.hpp"
#include "cli/tool.hpp"
#include "core/error.hpp"

using namespace dpaudit;

int main(int argc, char** argv) {
  CLI::App app{
      "Score canaries against a released vector: prints CSV id,label,score[,dim], one row per "
      "canary,\n"
      "label 1 for --canaries (inserted) and 0 for --unseen (never inserted). The score is the\n"
      "cosine <c,m>/(||c|| ||m||) (003) or the dot product <c,m>. Canaries from a spec are\n"
      "regenerated on the fly: memory O(D + K).",
      "score-dump"};
  dpaudit::cli::setup(app,
                      "  score-dump --canaries canaries.json --model release.npy > scores.csv\n"
                      "  score-dump --canaries canaries.json --unseen unseen.json --model "
                      "final.npy --reference init.npy\n"
                      "  score-dump --canaries canaries.json --unseen unseen.json --deltas "
                      "deltas.npy --reduce max\n"
                      "  score-dump --canaries canaries.json --model release.npy | eps-from-scores "
                      "--null-dim 1000000 "
                      "--method gauss-fit --delta 1e-6\n");
  std::string canaries_path, unseen_path, model_path, reference_path, deltas_path,
      stat_name = "cosine", reduce_name = "max", output = "-";
  int threads = 0;
  double cache_mb = 0;
  bool quiet = false;
  app.add_option("--canaries", canaries_path, "inserted canaries (label 1): spec or NPY K x D")
      ->required();
  app.add_option("--unseen", unseen_path, "canaries never inserted (label 0): spec or NPY");
  auto* model =
      app.add_option("--model", model_path, "released vector or model, 1-D NPY of D entries");
  app.add_option("--reference", reference_path, "score model - reference (a model delta)")
      ->needs(model);
  auto* deltas = app.add_option("--deltas", deltas_path, "per-round deltas, T x D NPY (003 Alg. 3)")
                     ->excludes(model);
  app.add_option("--reduce", reduce_name,
                 "--deltas: reduce each canary's per-round scores by max or mean")
      ->capture_default_str()
      ->check(CLI::IsMember({"max", "mean"}))
      ->needs(deltas);
  app.add_option("--stat", stat_name, "cosine or dot")
      ->capture_default_str()
      ->check(CLI::IsMember({"cosine", "dot"}));
  app.add_option("--threads", threads, "threads (0: all cores); the output does not depend on it")
      ->capture_default_str()
      ->check(dpaudit::cli::thread_count());
  app.add_option("--cache-mb", cache_mb,
                 "keep the canaries in memory when they fit in this many MB (speeds up --deltas)")
      ->capture_default_str()
      ->check(dpaudit::cli::non_negative());
  app.add_option("-o,--output", output, "CSV output; - = stdout")->capture_default_str();
  app.add_flag("-q,--quiet", quiet, "no progress (shown only on a terminal) or notes on stderr");

  return dpaudit::cli::run(app, argc, argv, [&] {
    if (model_path.empty() && deltas_path.empty()) throw UsageError("give --model or --deltas");
    ScoreRequest request;
    request.canaries = canaries_path;
    request.unseen = unseen_path;
    request.model = model_path;
    request.reference = reference_path;
    request.deltas = deltas_path;
    request.stat = parse_score_stat(stat_name);
    request.reduce = parse_round_reduce(reduce_name);
    request.threads = threads;
    // A double beyond size_t's range would be undefined behaviour to convert: such a
    // budget means no limit.
    const double cache_bytes = cache_mb * 1024 * 1024;
    request.cache_bytes = cache_bytes < 0x1p63 ? static_cast<std::size_t>(cache_bytes)
                                               : std::numeric_limits<std::size_t>::max();
    std::optional<dpaudit::cli::Progress> round_progress;
    request.progress = [&](std::size_t done, std::size_t total) {
      if (!round_progress) round_progress.emplace("score-dump", total, quiet);
      round_progress->update(done);
    };
    request.note = [&](const std::string& note) {
      if (!quiet) dpaudit::cli::note(app, note);
    };
    const CanaryScores scores = score_canaries(request);
    write_scores_csv(output, scores.rows, scores.dim);
    return 0;
  });
}
