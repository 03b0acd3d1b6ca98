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
  // parameter count `dim`. Canaries are kept in memory when both sets fit
  // config.canary_memory_mb (as doubles), else regenerated for every observation.
  CanaryPanel(const FedAvgConfig& config, std::size_t dim);

  std::size_t seen() const { return seen_ ? seen_->count() : 0; }
  std::size_t unseen() const { return unseen_ ? unseen_->count() : 0; }
  bool in_memory() const;
  // Seen canary j (dim values).
  void seen_canary(std::size_t j, double* out) const { seen_->get(j, out); }
  // Cosines of every seen and every unseen canary with v (all 0 when v = 0).
  void cosines(const std::vector<double>& v, std::vector<double>& seen,
               std::vector<double>& unseen) const;
  // The specs the run made itself (empty when the canaries were given), to write as
  // canaries.json / unseen.json.
  const std::string& made_seen_spec_json() const { return made_seen_json_; }
  const std::string& made_unseen_spec_json() const { return made_unseen_json_; }

 private:
  std::optional<CanarySet> seen_, unseen_;
  std::unique_ptr<CanaryScorer> seen_scorer_, unseen_scorer_;
  std::string made_seen_json_, made_unseen_json_;
};

}  // namespace dpaudit::dp_train
