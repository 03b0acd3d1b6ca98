// What score-dump computes, as one library call: the score of every inserted
// (label 1) and unseen (label 0) canary against a released vector (Andrew et al. 2024, Alg. 1-2),
// or reduced over the rows of a T x D stack of per-round releases (Andrew et al. 2024, Alg. 3).
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "canary/canary_scores.hpp"

namespace dpaudit {

struct ScoreRequest {
  std::string canaries;   // spec or NPY, label 1
  std::string unseen;     // spec or NPY, label 0; empty for none
  std::string model;      // 1-D NPY; or
  std::string reference;  // with model: score model - reference (a model delta)
  std::string deltas;     // T x D NPY of per-round releases, instead of model
  ScoreStat stat = ScoreStat::cosine;
  RoundReduce reduce = RoundReduce::max;  // deltas: reduction over rounds
  int threads = 0;
  std::size_t cache_bytes = 0;            // keep canaries in memory up to this size
  ScoreDevice device = ScoreDevice::cpu;  // cuda: sphere spec canaries on the GPU, same bits
  std::function<void(std::size_t rounds_done, std::size_t rounds)> progress;
  // Notes, e.g. seen and unseen share canaries: patterns naming parameters (core/error.hpp).
  std::function<void(const std::string& note)> note;
};

struct LabelledScore {
  std::size_t id;  // inserted canaries first, then unseen ones
  int label;
  double score;
};

struct CanaryScores {
  std::vector<LabelledScore> rows;
  // The dimension of the canaries and the release, when every score is one cosine (the
  // cosine null of Andrew et al. 2024, Thm 3.1 applies); 0 for dot products and for reductions over
  // rounds.
  std::size_t dim;
};

// Throws DataError for a dimension mismatch (naming both sizes and files), a model
// that is not 1-D, or an empty stack of deltas; UsageError without model or deltas, or
// with two inputs read from stdin ("-").
CanaryScores score_canaries(const ScoreRequest& request);

// Scores of inserted canaries labelled 1 (ids 0..k-1), then unseen ones labelled 0
// (ids k..k+k2-1), as score-dump and dp-train fedavg number them.
std::vector<LabelledScore> label_scores(const std::vector<double>& seen,
                                        const std::vector<double>& unseen);

// CSV `id,label,score,dim`, one row per score (eps-from-scores' input, which checks
// dim against --null-dim or takes the null's dimension from it), written atomically to
// `path` ("-" = stdout). dim is the last column, so readers by position of the first
// three keep working; with dim 0 (scores that are not single cosines) there is no dim
// column, so no null is read from it.
void write_scores_csv(const std::string& path, const std::vector<LabelledScore>& scores,
                      std::size_t dim);

}  // namespace dpaudit
