// One round of DP-FedAvg (McMahan et al. 2018; "DP-FedAvg" with canary clients in Andrew et
// al. 2024 Alg. 2-3): the round's clients train locally and clip their updates (ClientTrainer,
// train/torch/fedavg_client.hpp), the clipped updates are summed in client order with whatever
// the observer inserts (Andrew et al. 2024's seen canaries), Gaussian noise is added and the
// mean applied by the server (mechanisms/fedavg_server.hpp). The two halves are separate calls,
// so that "the clients of this round" can run anywhere and "combine their clipped sums" in one
// place: train_clients, then combine and step (run does the three). Observers see the model
// before each round (CANIFE's audits and mock rounds, Maddock et al. 2023, which reuse
// clients()) and each release before the server applies it (canary observation, adaptive
// clipping, metrics).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "mechanisms/fedavg_server.hpp"
#include "random/philox_stream.hpp"
#include "train/torch/fedavg_client.hpp"

namespace dpaudit {

// What a round released: rho_bar = (sum of clipped updates + N(0, noise_std^2 I)) / max(m, 1).
struct FedAvgRelease {
  std::size_t round = 0;
  std::vector<double> rho_bar;
  std::vector<double> norms;  // every participant's update norm before clipping, clients first
  double train_loss = 0;      // mean local loss over the clients that have data
  std::size_t inserted = 0;   // updates the observer inserted (seen canaries)
};

class FedAvgObserver {
 public:
  virtual ~FedAvgObserver() = default;
  // The round is about to start from theta (CANIFE's audits of the frozen model, Maddock et
  // al. 2023 Sec. 3.4, attach here). Default: nothing.
  virtual void starting(std::size_t round, const std::vector<double>& theta);
  // Already clipped (or projected) updates that take part in the round after its clients, in
  // the order added to `sum`; the norm of each before clipping goes to `norms`. Returns how many
  // were added. Default: none.
  virtual std::size_t insert(std::size_t round, double clip, UpdateSum& sum,
                             std::vector<double>& norms);
  // The round's release, before the server applies it. Default: nothing.
  virtual void released(const FedAvgRelease& release);
};

class FedAvgRound {
 public:
  // `clients` trains the local updates; the minibatch orders of round t come from
  // PhiloxStream(seed, batch_stream + t * clients + client) (fedavg_client.hpp); the server
  // is SGD with momentum on `dim` parameters.
  FedAvgRound(ClientTrainer& clients, std::size_t dim, double server_lr, double server_momentum,
              std::uint64_t seed, std::uint64_t batch_stream);

  // The clients of round `round`: the clipped local updates of `ids` (in that order) from the
  // global parameters theta, clipped to `clip`.
  std::vector<ClientUpdate> train_clients(const std::vector<double>& theta, double clip,
                                          const std::vector<std::size_t>& ids,
                                          std::size_t round) const;
  // Combine their clipped updates: summed in the order given, then the observer's inserted
  // ones, noise N(0, noise_std^2 I) from `noise` (after whatever it drew before), over m; the
  // observer sees the release.
  FedAvgRelease combine(std::size_t round, const std::vector<ClientUpdate>& updates, double clip,
                        double noise_std, PhiloxStream& noise, FedAvgObserver& observer) const;
  // The server step theta += lr v (in place); false when theta is no longer finite (a diverged
  // run: huge learning rates or noise).
  bool step(const FedAvgRelease& release, std::vector<double>& theta);

  // One whole round: observer.starting, train_clients, combine and step. Returns false when
  // theta is no longer finite.
  bool run(std::size_t round, const std::vector<std::size_t>& ids, double clip, double noise_std,
           PhiloxStream& noise, FedAvgObserver& observer, std::vector<double>& theta);

  ClientTrainer& clients() const { return clients_; }

 private:
  ClientTrainer& clients_;
  ServerOptimizer server_;
  std::size_t dim_;
  std::uint64_t seed_, batch_stream_;
  std::vector<ClientUpdate> updates_;  // run's, kept from round to round (their buffers reused)
};

}  // namespace dpaudit
