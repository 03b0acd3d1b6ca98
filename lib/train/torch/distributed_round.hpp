// DP-FedAvg's round (train/torch/fedavg_round.hpp) across the ranks of a RankGroup, with the
// same bytes as in one process: each rank trains a fixed share of the round's clients (those
// whose id mod the world size is its rank), rank 0 gathers their clipped updates (with their
// norms and losses) and puts them back in the round's client order, then runs the unchanged
// combine (the same float summation order as one process; not an all-reduce, whose order
// varies), draws the noise, steps, and broadcasts the new model. The observer (canary
// insertions, scoring, metrics) runs on rank 0 only.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "train/torch/fedavg_round.hpp"
#include "train/torch/rank_group.hpp"

namespace dpaudit {

// The clients of `ids` that rank `rank` of `world` trains: id mod world == rank, in ids' order.
std::vector<std::size_t> rank_share(const std::vector<std::size_t>& ids, int rank, int world);

class DistributedRound {
 public:
  DistributedRound(FedAvgRound& round, RankGroup& group) : round_(round), group_(group) {}

  // Every rank trains its share of `ids` from theta; rank 0 returns every update in the order
  // of ids (as FedAvgRound::train_clients would), the other ranks an empty vector.
  std::vector<ClientUpdate> train_clients(const std::vector<double>& theta, double clip,
                                          const std::vector<std::size_t>& ids,
                                          std::size_t round) const;
  // FedAvgRound::run across the ranks, called by every rank with the same arguments (only rank
  // 0's observer and noise are used): afterwards theta is rank 0's new model on every rank.
  // Returns false on every rank when it is no longer finite.
  bool run(std::size_t round, const std::vector<std::size_t>& ids, double clip, double noise_std,
           PhiloxStream& noise, FedAvgObserver& observer, std::vector<double>& theta);
  // Rank 0's `value` on every rank (e.g. the adaptive clip of the next round).
  double agree(double value) const;

  const RankGroup& group() const { return group_; }

 private:
  FedAvgRound& round_;
  RankGroup& group_;
};

}  // namespace dpaudit
