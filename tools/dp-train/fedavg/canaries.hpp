// The canaries of a dp-train fedavg run: seen canaries (inserted; Andrew et al. 2024, Alg. 2) and
// unseen ones (only observed; Alg. 3), from a spec or NPY each, or made by the run
// (--num-canaries/--num-unseen). Scoring is lib/canary's CanaryScorer. No LibTorch here.
#pragma once
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "canary/canary_scores.hpp"
#include "canary/canary_set.hpp"
#include "fedavg/config.hpp"

namespace dpaudit::dp_train {

class CanaryPanel {
 public:
  // Opens --canaries/--unseen, or makes sphere specs for --num-canaries/--num-unseen
  // (seed --canary-seed; the unseen spec starts at first_index = K, so the two sets never
  // share a canary). DataError naming both numbers when a set's dim is not the model's
  // parameter count `dim`. For the rounds' cosines canaries are kept in memory as floats
  // (lib/canary's CanaryStorage::f32) when both sets fit config.canary_memory_mb (4 bytes
  // an entry), else regenerated for every observation.
  CanaryPanel(const FedAvgConfig& config, std::size_t dim);

  std::size_t seen() const { return seen_ ? seen_->count() : 0; }
  std::size_t unseen() const { return unseen_ ? unseen_->count() : 0; }
  bool in_memory() const;
  // Seen canary j (dim values).
  void seen_canary(std::size_t j, double* out) const { seen_->get(j, out); }
  // Cosines of every seen and every unseen canary with v (all 0 when v = 0), a round's
  // observation: from the canaries rounded to float (CanaryStorage::f32), each within 2^-24
  // = 6.0e-8 of the exact cosine, the same bits cached or regenerated.
  void cosines(const std::vector<double>& v, std::vector<double>& seen,
               std::vector<double>& unseen) const;
  // The same exact (CanaryStorage::f64, the canaries regenerated or read again): the final
  // model's, once a run, what score-dump computes from delta.npy.
  void exact_cosines(const std::vector<double>& v, std::vector<double>& seen,
                     std::vector<double>& unseen) const;
  // The specs the run made itself (empty when the canaries were given), to write as
  // canaries.json / unseen.json.
  const std::string& made_seen_spec_json() const { return made_seen_json_; }
  const std::string& made_unseen_spec_json() const { return made_unseen_json_; }

 private:
  void cosines_of(const CanaryScorer* seen_scorer, const CanaryScorer* unseen_scorer,
                  const std::vector<double>& v, std::vector<double>& seen,
                  std::vector<double>& unseen) const;

  int threads_;
  std::optional<CanarySet> seen_, unseen_;
  std::unique_ptr<CanaryScorer> seen_scorer_, unseen_scorer_;
  std::string made_seen_json_, made_unseen_json_;
};

}  // namespace dpaudit::dp_train
