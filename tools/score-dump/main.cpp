// score-dump: canaries and a released model (or per-round deltas) -> CSV id,label,score.
// The scores are computed by lib/canary/canary_scores.hpp.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "canary/canary_scores.hpp"
#include "canary/canary_set.hpp"
#include "cli/progress.hpp"
#include "cli/tool.hpp"
#include "io/atomic_output.hpp"
#include "io/error.hpp"
#include "io/format.hpp"
#include "io/npy.hpp"

namespace {

using namespace dpaudit;

// A 1-D vector (or a 1 x D matrix) from an NPY file.
std::vector<double> read_vector(const std::string& path) {
  NpyArray a = read_npy(path);
  if (a.rows() != 1) throw DataError("expected a 1-D vector, got " + std::to_string(a.rows()) + " rows", path);
  return std::move(a.data);
}

void check_dim(const CanarySet& set, std::size_t dim, const std::string& what, const std::string& path) {
  if (set.dim() != dim)
    throw DataError("canary dimension " + std::to_string(set.dim()) + " does not match " + what + " dimension " +
                        std::to_string(dim),
                    set.source() + ", " + path);
}

struct Scored {
  const CanarySet* set;
  int label;
  CanaryScorer scorer;
  std::optional<RoundReduction> rounds;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Score canaries against a released vector: prints CSV id,label,score, one row per canary,\n"
      "label 1 for --canaries (inserted) and 0 for --unseen (never inserted). The score is the\n"
      "cosine <c,m>/(||c|| ||m||) (003) or the dot product <c,m>. Canaries from a spec are\n"
      "regenerated on the fly: memory O(D + K).",
      "score-dump"};
  dpaudit::cli::setup(
      app,
      "  score-dump --canaries canaries.json --model release.npy > scores.csv\n"
      "  score-dump --canaries canaries.json --unseen unseen.json --model final.npy --reference init.npy\n"
      "  score-dump --canaries canaries.json --unseen unseen.json --deltas deltas.npy --reduce max\n"
      "  score-dump --canaries canaries.json --model release.npy | eps-from-scores --null-dim 1000000 "
      "--method gauss-fit --delta 1e-6\n");
  std::string canaries_path, unseen_path, model_path, reference_path, deltas_path, stat_name = "cosine",
                                                                                   reduce_name = "max", output = "-";
  int threads = 0;
  double cache_mb = 0;
  bool quiet = false;
  app.add_option("--canaries", canaries_path, "inserted canaries (label 1): spec or NPY K x D")->required();
  app.add_option("--unseen", unseen_path, "canaries never inserted (label 0): spec or NPY");
  auto* model = app.add_option("--model", model_path, "released vector or model, 1-D NPY of D entries");
  app.add_option("--reference", reference_path, "score model - reference (a model delta)")->needs(model);
  auto* deltas = app.add_option("--deltas", deltas_path, "per-round deltas, T x D NPY (003 Alg. 3)")
                     ->excludes(model);
  app.add_option("--reduce", reduce_name, "--deltas: reduce each canary's per-round scores by max or mean")
      ->capture_default_str()->check(CLI::IsMember({"max", "mean"}))->needs(deltas);
  app.add_option("--stat", stat_name, "cosine or dot")->capture_default_str()->check(CLI::IsMember({"cosine", "dot"}));
  app.add_option("--threads", threads, "threads (0: all cores); the output does not depend on it")
      ->capture_default_str()->check(CLI::NonNegativeNumber);
  app.add_option("--cache-mb", cache_mb, "keep the canaries in memory when they fit in this many MB (speeds up --deltas)")
      ->capture_default_str()->check(dpaudit::cli::non_negative());
  app.add_option("-o,--output", output, "CSV output; - = stdout")->capture_default_str();
  app.add_flag("-q,--quiet", quiet, "no progress on stderr for --deltas (shown only when it is a terminal)");

  return dpaudit::cli::run(app, argc, argv, [&] {
    if (model_path.empty() && deltas_path.empty()) throw UsageError("give --model or --deltas");
    const ScoreStat stat = parse_score_stat(stat_name);
    const CanarySet seen = CanarySet::open(canaries_path);
    std::optional<CanarySet> unseen;
    if (!unseen_path.empty()) unseen = CanarySet::open(unseen_path);
    const auto cache_bytes = static_cast<std::size_t>(cache_mb * 1024 * 1024);

    std::vector<Scored> sets;
    sets.push_back({&seen, 1, CanaryScorer(seen, threads, cache_bytes), std::nullopt});
    if (unseen) sets.push_back({&*unseen, 0, CanaryScorer(*unseen, threads, cache_bytes), std::nullopt});
    std::vector<std::vector<double>> scores;

    if (!model_path.empty()) {
      std::vector<double> m = read_vector(model_path);
      std::string where = model_path;
      if (!reference_path.empty()) {
        const std::vector<double> r = read_vector(reference_path);
        if (r.size() != m.size())
          throw DataError("reference dimension " + std::to_string(r.size()) + " does not match model dimension " +
                              std::to_string(m.size()),
                          reference_path + ", " + model_path);
        for (std::size_t i = 0; i < m.size(); ++i) m[i] -= r[i];
        where = model_path + " - " + reference_path;
      }
      for (auto& s : sets) check_dim(*s.set, m.size(), "model", model_path);
      for (auto& s : sets) scores.push_back(s.scorer.scores(m.data(), stat, where));
    } else {
      NpyReader reader(deltas_path);
      const std::size_t d = reader.header().cols(), t = reader.header().rows();
      if (reader.header().shape.size() != 2 || t == 0)
        throw DataError("expected a T x D matrix with T >= 1 rounds", deltas_path);
      for (auto& s : sets) {
        check_dim(*s.set, d, "delta", deltas_path);
        s.rounds.emplace(parse_round_reduce(reduce_name), s.set->count());
      }
      std::vector<double> delta(d);
      dpaudit::cli::Progress progress("score-dump", t, quiet);
      for (std::size_t round = 0; round < t; ++round) {
        reader.read_rows(1, delta.data());
        const std::string where = deltas_path + ", row " + std::to_string(round);
        for (auto& s : sets) s.rounds->add(s.scorer.scores(delta.data(), stat, where));
        progress.update(round + 1);
      }
      for (auto& s : sets) scores.push_back(s.rounds->result());
    }

    AtomicOutput out(output);
    out.stream() << "id,label,score\n";
    std::size_t id = 0;
    for (std::size_t i = 0; i < sets.size(); ++i)
      for (double score : scores[i])
        out.stream() << id++ << ',' << sets[i].label << ',' << format_number(score) << '\n';
    out.commit();
    return 0;
  });
}
