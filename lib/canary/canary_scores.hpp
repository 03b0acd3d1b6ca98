// Scores of many canaries against one vector (a released sum, a model, a model delta):
// the cosine <c_j, v> / (||c_j|| ||v||) of Andrew et al. 2024 (Alg. 1 line 8, Alg. 2-3) or the
// dot product <c_j, v>. Threads across canaries; each canary's score is summed in a
// fixed order (LaneSum, fixed chunks), so the numbers do not depend on the thread
// count or on whether the canaries are cached.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "canary/canary_set.hpp"

namespace dpaudit {

enum class ScoreStat { cosine, dot };
ScoreStat parse_score_stat(const std::string& name);  // "cosine" | "dot"; UsageError

class CanaryScorer {
 public:
  // threads <= 0: all cores. When count x dim doubles fit in cache_bytes, the canaries
  // are generated once here and kept (for scoring every round of training); otherwise
  // each call regenerates them in chunks, O(threads x chunk) memory.
  CanaryScorer(const CanarySet& set, int threads = 0, std::size_t cache_bytes = 0);

  // Scores of all canaries against v (set.dim() entries). DataError for a cosine with a
  // zero vector v (naming `where`, v's origin) or a zero canary.
  std::vector<double> scores(const double* v, ScoreStat stat, const std::string& where = "") const;
  bool cached() const { return !cache_.empty(); }

 private:
  // <raw_j, v> and ||raw_j||^2 for canaries [first, first + n), n <= kGroup: the group
  // shares each chunk of v while it is in cache.
  static constexpr std::size_t kGroup = 4;
  void group_sums(std::size_t first, std::size_t n, const double* v, double* buffer, double* dot,
                  double* norm2) const;

  const CanarySet& set_;
  int threads_;
  std::vector<double> cache_;  // raw canaries, count x dim, when cached
};

// Per-round scores reduced over rounds, one value per canary (Andrew et al. 2024, Alg. 3: the
// maximum, or the mean, of the canary's cosines over all rounds).
enum class RoundReduce { max, mean };
RoundReduce parse_round_reduce(const std::string& name);  // "max" | "mean"; UsageError

class RoundReduction {
 public:
  RoundReduction(RoundReduce how, std::size_t count);
  void add(const std::vector<double>& round_scores);
  std::vector<double> result() const;
  std::size_t rounds() const { return rounds_; }

 private:
  RoundReduce how_;
  std::vector<double> acc_;
  std::size_t rounds_ = 0;
};

}  // namespace dpaudit
