#include "canary/score_release.hpp"

#include <optional>
#include <utility>

#include "canary/canary_set.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "io/atomic_output.hpp"
#include "io/npy.hpp"

namespace dpaudit {
namespace {

// A 1-D vector (or a 1 x D matrix) from an NPY file.
std::vector<double> read_vector(const std::string& path) {
  NpyArray a = read_npy(path);
  if (a.rows() != 1)
    throw DataError("expected a 1-D vector, got " + std::to_string(a.rows()) + " rows", path);
  return std::move(a.data);
}

void check_dim(const CanarySet& set, std::size_t dim, const std::string& what,
               const std::string& path) {
  if (set.dim() != dim)
    throw DataError("canary dimension " + std::to_string(set.dim()) + " does not match " + what +
                        " dimension " + std::to_string(dim),
                    set.source() + ", " + path);
}

// Exactly one of a model and per-round deltas, and at most one input read from stdin.
void check_inputs(const ScoreRequest& r) {
  if (r.model.empty() == r.deltas.empty())
    throw UsageError(Pattern{"give exactly one of {model} and {deltas}"});
  // Two inputs cannot both be read from stdin (the second would find it drained).
  const std::pair<const char*, const std::string*> inputs[] = {{"{canaries}", &r.canaries},
                                                               {"{unseen}", &r.unseen},
                                                               {"{model}", &r.model},
                                                               {"{reference}", &r.reference},
                                                               {"{deltas}", &r.deltas}};
  const char* from_stdin = nullptr;
  for (const auto& [option, path] : inputs) {
    if (*path != "-") continue;
    if (from_stdin)
      throw UsageError(
          Pattern{std::string(from_stdin) + " and " + option + " cannot both be - (stdin)"});
    from_stdin = option;
  }
}

using Scores = std::vector<std::vector<double>>;

// Each set's scores on the model (minus the reference, when given).
Scores model_scores(const ScoreRequest& r, const std::vector<CanarySet>& sets,
                    const std::vector<CanaryScorer>& scorers) {
  Scores scores;
  std::vector<double> m = read_vector(r.model);
  std::string where = r.model;
  if (!r.reference.empty()) {
    const std::vector<double> ref = read_vector(r.reference);
    if (ref.size() != m.size())
      throw DataError("reference dimension " + std::to_string(ref.size()) +
                          " does not match model dimension " + std::to_string(m.size()),
                      r.reference + ", " + r.model);
    for (std::size_t i = 0; i < m.size(); ++i) m[i] -= ref[i];
    where = r.model + " - " + r.reference;
  }
  for (const auto& set : sets) check_dim(set, m.size(), "model", r.model);
  for (const auto& scorer : scorers) scores.push_back(scorer.scores(m.data(), r.stat, where));
  return scores;
}

// Each set's scores on every round's delta, reduced over the rounds.
Scores delta_scores(const ScoreRequest& r, const std::vector<CanarySet>& sets,
                    const std::vector<CanaryScorer>& scorers) {
  Scores scores;
  NpyReader reader(r.deltas);
  const std::size_t d = reader.header().cols(), t = reader.header().rows();
  if (reader.header().shape.size() != 2 || t == 0)
    throw DataError("expected a T x D matrix with T >= 1 rounds", r.deltas);
  std::vector<RoundReduction> rounds;
  for (const auto& set : sets) {
    check_dim(set, d, "delta", r.deltas);
    rounds.emplace_back(r.reduce, set.count());
  }
  std::vector<double> delta(d);
  for (std::size_t round = 0; round < t; ++round) {
    reader.read_rows(1, delta.data());
    const std::string where = r.deltas + ", row " + std::to_string(round);
    for (std::size_t i = 0; i < sets.size(); ++i)
      rounds[i].add(scorers[i].scores(delta.data(), r.stat, where));
    if (r.progress) r.progress(round + 1, t);
  }
  for (auto& reduction : rounds) scores.push_back(reduction.result());
  return scores;
}

}  // namespace

CanaryScores score_canaries(const ScoreRequest& r) {
  check_inputs(r);
  std::vector<CanarySet> sets;  // the inserted canaries, then the unseen ones if given
  sets.reserve(2);
  sets.push_back(CanarySet::open(r.canaries));
  if (!r.unseen.empty()) sets.push_back(CanarySet::open(r.unseen));
  if (sets.size() == 2 && sets[0].shares_canaries_with(sets[1]) && r.note)
    r.note(CanarySet::kSharedNote);
  std::vector<CanaryScorer> scorers;  // each refers to its set, which stays in place
  scorers.reserve(sets.size());
  for (const auto& set : sets)
    scorers.emplace_back(set, r.threads, r.cache_bytes, CanaryStorage::f64, r.device);
  const Scores scores =
      r.model.empty() ? delta_scores(r, sets, scorers) : model_scores(r, sets, scorers);

  const bool cosines = r.stat == ScoreStat::cosine && r.deltas.empty();  // one cosine per canary
  return {label_scores(scores[0], scores.size() > 1 ? scores[1] : std::vector<double>{}),
          cosines ? sets[0].dim() : 0};
}

std::vector<LabelledScore> label_scores(const std::vector<double>& seen,
                                        const std::vector<double>& unseen) {
  std::vector<LabelledScore> out;
  out.reserve(seen.size() + unseen.size());
  for (double score : seen) out.push_back({out.size(), 1, score});
  for (double score : unseen) out.push_back({out.size(), 0, score});
  return out;
}

void write_scores_csv(const std::string& path, const std::vector<LabelledScore>& scores,
                      std::size_t dim) {
  AtomicOutput out(path);
  out.stream() << (dim ? "id,label,score,dim\n" : "id,label,score\n");
  for (const auto& s : scores) {
    out.stream() << s.id << ',' << s.label << ',' << format_number(s.score);
    if (dim) out.stream() << ',' << dim;
    out.stream() << '\n';
  }
  out.commit();
}

}  // namespace dpaudit
