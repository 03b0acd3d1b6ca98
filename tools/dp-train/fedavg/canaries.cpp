#include "fedavg/canaries.hpp"

#include <iostream>

#include "cli/tool.hpp"
#include "core/error.hpp"
#include "mechanisms/fedavg_server.hpp"

namespace dpaudit::dp_train {

namespace {

// The set from a file, or a sphere spec made here (then its JSON goes to `made_json`).
std::optional<CanarySet> open_or_make(const std::string& path, const std::string& option,
                                      std::size_t count, std::uint64_t seed,
                                      std::size_t first_index, std::size_t dim,
                                      std::string& made_json) {
  std::optional<CanarySet> set;
  if (!path.empty()) {
    set = CanarySet::open(path);
    if (set->dim() != dim)
      throw DataError("canary dim " + std::to_string(set->dim()) + " does not match the model's " +
                          std::to_string(dim) + " parameters",
                      path + ", " + option);
  } else if (count > 0) {
    const CanarySpec spec = sphere_spec(seed, count, dim, first_index);
    made_json = canary_spec_json(spec) + "\n";
    set = CanarySet::from_spec(spec, option);
  }
  return set;
}

}  // namespace

CanaryPanel::CanaryPanel(const FedAvgConfig& c, std::size_t dim) : threads_(c.threads) {
  seen_ = open_or_make(c.canaries, "--canaries", c.num_canaries, c.canary_seed, 0, dim,
                       made_seen_json_);
  unseen_ = open_or_make(c.unseen, "--unseen", c.num_unseen, c.canary_seed, c.num_canaries, dim,
                         made_unseen_json_);
  if (seen_ && unseen_ && seen_->shares_canaries_with(*unseen_) && !c.quiet)
    std::cerr << "dp-train: note: " << render_parameters(CanarySet::kSharedNote, cli::option_flag)
              << "\n";
  // Both sets are cached, or neither: the budget is for the whole k x D matrix.
  const double bytes =
      static_cast<double>(seen() + unseen()) * static_cast<double>(dim) * sizeof(float);
  const std::size_t cache =
      bytes <= c.canary_memory_mb * 1024 * 1024 ? static_cast<std::size_t>(bytes) + 1 : 0;
  if (seen_)
    seen_scorer_ = std::make_unique<CanaryScorer>(*seen_, c.threads, cache, CanaryStorage::f32);
  if (unseen_)
    unseen_scorer_ = std::make_unique<CanaryScorer>(*unseen_, c.threads, cache, CanaryStorage::f32);
}

bool CanaryPanel::in_memory() const {
  return (!seen_scorer_ || seen_scorer_->cached()) && (!unseen_scorer_ || unseen_scorer_->cached());
}

void CanaryPanel::cosines(const std::vector<double>& v, std::vector<double>& seen,
                          std::vector<double>& unseen) const {
  cosines_of(seen_scorer_.get(), unseen_scorer_.get(), v, seen, unseen);
}

void CanaryPanel::exact_cosines(const std::vector<double>& v, std::vector<double>& seen,
                                std::vector<double>& unseen) const {
  std::optional<CanaryScorer> exact_seen, exact_unseen;
  if (seen_) exact_seen.emplace(*seen_, threads_);
  if (unseen_) exact_unseen.emplace(*unseen_, threads_);
  cosines_of(exact_seen ? &*exact_seen : nullptr, exact_unseen ? &*exact_unseen : nullptr, v, seen,
             unseen);
}

void CanaryPanel::cosines_of(const CanaryScorer* seen_scorer, const CanaryScorer* unseen_scorer,
                             const std::vector<double>& v, std::vector<double>& seen,
                             std::vector<double>& unseen) const {
  const bool zero = l2_norm(v.data(), v.size()) == 0;  // no direction: no evidence either way
  seen = !seen_scorer ? std::vector<double>{}
         : zero       ? std::vector<double>(this->seen(), 0.0)
                      : seen_scorer->scores(v.data(), ScoreStat::cosine);
  unseen = !unseen_scorer ? std::vector<double>{}
           : zero         ? std::vector<double>(this->unseen(), 0.0)
                          : unseen_scorer->scores(v.data(), ScoreStat::cosine);
}

}  // namespace dpaudit::dp_train
