// Scores of many canaries against one vector (a released sum, a model, a model delta):
// the cosine <c_j, v> / (||c_j|| ||v||) of Andrew et al. 2024 (Alg. 1 line 8, Alg. 2-3) or the
// dot product <c_j, v>. Threads across canaries; each canary's score is summed in a
// fixed order (LaneSum, fixed chunks), so the numbers do not depend on the thread
// count or on whether the canaries are cached.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "canary/canary_set.hpp"

namespace dpaudit {

class CudaCanarySums;

enum class ScoreStat { cosine, dot };
ScoreStat parse_score_stat(const std::string& name);  // "cosine" | "dot"; UsageError

// How a scorer holds the canaries it keeps in memory or regenerates.
//   f64: as CanarySet gives them; every score is exact to the rounding of its sums.
//   f32: canary c_j as u_j = fl32(c_j / ||c_j||) (unit norm, rounded to float) beside its
//        norm ||c_j|| in double: half the memory and half the bytes read a score. A cosine
//        is <u_j, v> / ||v||, a dot product <u_j, v> ||c_j||, summed in double (f32_rows.hpp).
//        Each entry of u_j is within a relative 2^-24 of the exact unit vector's (an entry
//        below float's smallest normal, 1.2e-38, within 2^-150), so a cosine moves by at most
//        2^-24 sum_i |u_i v_i| / ||v|| <= 2^-24 = 6.0e-8 (Cauchy-Schwarz) plus sqrt(dim)
//        2^-150, beside the sums' own rounding: an absolute bound, not a relative one (a
//        cosine near 0 keeps its absolute, not its relative, accuracy).
enum class CanaryStorage { f64, f32 };

// Where the sums of a score are made. cuda: sphere canaries of a spec are regenerated and
// summed on a CUDA GPU (canary/cuda/cuda_canary_sums.hpp), bit for bit what the CPU gives;
// NPY and dummy canaries, which take no generation, stay on the CPU, as does f32 storage.
enum class ScoreDevice { cpu, cuda };
ScoreDevice parse_score_device(const std::string& name);  // "cpu" | "cuda"; UsageError

class CanaryScorer {
 public:
  // threads <= 0: all cores. When the count x dim canaries fit in cache_bytes (8 bytes an
  // entry in f64, 4 in f32), they are generated once here and kept (for scoring every
  // round of training); otherwise each call regenerates them: in chunks in f64, O(threads x
  // chunk) memory, a whole canary at a time in f32, O(threads x dim). Cached or not, the
  // scores are the same bits.
  // With ScoreDevice::cuda, the canaries the GPU takes are never cached here, and the GPU's
  // first pass (cuda_canary_sums.hpp) is made here: UsageError in a build without CUDA,
  // DataError when no GPU can be used.
  CanaryScorer(const CanarySet& set, int threads = 0, std::size_t cache_bytes = 0,
               CanaryStorage storage = CanaryStorage::f64, ScoreDevice device = ScoreDevice::cpu);

  // Scores of all canaries against v (set.dim() entries). DataError for a cosine with a
  // zero vector v (naming `where`, v's origin) or a zero canary.
  std::vector<double> scores(const double* v, ScoreStat stat, const std::string& where = "") const;
  bool cached() const { return !cache_.empty() || !cache32_.empty(); }

 private:
  // <raw_j, v> and ||raw_j||^2 for canaries [first, first + n), n <= kGroup: a chunk of
  // each (generated into `buffer`, room for kGroup chunks, unless cached), summed side by side
  // against the chunk of v (with AVX-512F, all 2 n sums in one pass).
  static constexpr std::size_t kGroup = 4;
  void group_sums(std::size_t first, std::size_t n, const double* v, double* buffer, double* dot,
                  double* norm2) const;

  // f32: u_j into out (dim floats; zeros for a zero canary), from canary j put in `row` (dim
  // doubles); returns ||c_j||.
  double unit_row(std::size_t j, double* row, float* out) const;
  // f32: <u_j, v> into dots, ||c_j|| into norms, for every canary.
  void f32_sums(const double* v, std::vector<double>& dots, std::vector<double>& norms) const;

  const CanarySet& set_;
  int threads_;
  std::shared_ptr<const CudaCanarySums> cuda_;  // the GPU's sums, when it takes the set
  CanaryStorage storage_;
  std::vector<double> cache_;    // f64: raw canaries, count x dim, when cached
  std::vector<float> cache32_;   // f32: u_j, count x dim, when cached
  std::vector<double> norms32_;  // f32, when cached: ||c_j||
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
