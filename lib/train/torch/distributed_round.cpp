#include "train/torch/distributed_round.hpp"

#include <algorithm>

namespace dpaudit {

namespace {

constexpr std::size_t kHeader = 3;  // norm, loss, has_data before each update's values

std::vector<double> pack(const std::vector<ClientUpdate>& updates, std::size_t dim) {
  std::vector<double> v;
  v.reserve(updates.size() * (kHeader + dim));
  for (const ClientUpdate& u : updates) {
    v.push_back(u.norm);
    v.push_back(u.loss);
    v.push_back(u.has_data ? 1.0 : 0.0);
    v.insert(v.end(), u.update.begin(), u.update.end());
  }
  return v;
}

std::vector<ClientUpdate> unpack(const std::vector<double>& v, std::size_t dim) {
  std::vector<ClientUpdate> updates(v.size() / (kHeader + dim));
  auto it = v.begin();
  for (ClientUpdate& u : updates) {
    u.norm = it[0];
    u.loss = it[1];
    u.has_data = it[2] != 0;
    it += kHeader;
    u.update.assign(it, it + static_cast<std::ptrdiff_t>(dim));
    it += static_cast<std::ptrdiff_t>(dim);
  }
  return updates;
}

}  // namespace

std::vector<std::size_t> rank_share(const std::vector<std::size_t>& ids, int rank, int world) {
  std::vector<std::size_t> share;
  const auto w = static_cast<std::size_t>(world);
  const auto r = static_cast<std::size_t>(rank);
  std::copy_if(ids.begin(), ids.end(), std::back_inserter(share),
               [&](std::size_t id) { return id % w == r; });
  return share;
}

std::vector<ClientUpdate> DistributedRound::train_clients(const std::vector<double>& theta,
                                                          double clip,
                                                          const std::vector<std::size_t>& ids,
                                                          std::size_t round) const {
  const int world = group_.size();
  const std::size_t dim = theta.size();
  std::vector<ClientUpdate> mine =
      round_.train_clients(theta, clip, rank_share(ids, group_.rank(), world), round);
  if (group_.rank() != 0) {
    std::vector<double> packed = pack(mine, dim);
    if (!packed.empty()) group_.send(packed, 0);
    return {};
  }
  // Rank 0: every rank's share, then the updates back in the order of ids.
  std::vector<std::vector<ClientUpdate>> shares(static_cast<std::size_t>(world));
  shares[0] = std::move(mine);
  for (int k = 1; k < world; ++k) {
    std::vector<double> packed(rank_share(ids, k, world).size() * (kHeader + dim));
    if (!packed.empty()) group_.receive(packed, k);
    shares[static_cast<std::size_t>(k)] = unpack(packed, dim);
  }
  std::vector<std::size_t> next(shares.size(), 0);
  std::vector<ClientUpdate> updates;
  updates.reserve(ids.size());
  for (std::size_t id : ids) {
    const std::size_t owner = id % static_cast<std::size_t>(world);
    updates.push_back(std::move(shares[owner][next[owner]++]));
  }
  return updates;
}

bool DistributedRound::run(std::size_t round, const std::vector<std::size_t>& ids, double clip,
                           double noise_std, PhiloxStream& noise, FedAvgObserver& observer,
                           std::vector<double>& theta) {
  const std::size_t dim = theta.size();
  std::vector<double> state;  // theta, then 1 when it is finite
  if (group_.rank() == 0) {
    observer.starting(round, theta);
    const std::vector<ClientUpdate> updates = train_clients(theta, clip, ids, round);
    const bool finite =
        round_.step(round_.combine(round, updates, clip, noise_std, noise, observer), theta);
    state = theta;
    state.push_back(finite ? 1.0 : 0.0);
  } else {
    train_clients(theta, clip, ids, round);
    state.resize(dim + 1);
  }
  group_.broadcast(state);
  std::copy(state.begin(), state.begin() + static_cast<std::ptrdiff_t>(dim), theta.begin());
  return state[dim] != 0;
}

double DistributedRound::agree(double value) const {
  std::vector<double> v{value};
  group_.broadcast(v);
  return v[0];
}

}  // namespace dpaudit
