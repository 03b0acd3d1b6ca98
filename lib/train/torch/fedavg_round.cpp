#include "train/torch/fedavg_round.hpp"

#include <cmath>

namespace dpaudit {

void FedAvgObserver::starting(std::size_t, const std::vector<double>&) {}

std::size_t FedAvgObserver::insert(std::size_t, double, UpdateSum&, std::vector<double>&) {
  return 0;
}

void FedAvgObserver::released(const FedAvgRelease&) {}

FedAvgRound::FedAvgRound(ClientTrainer& clients, std::size_t dim, double server_lr,
                         double server_momentum, std::uint64_t seed, std::uint64_t batch_stream)
    : clients_(clients),
      server_(dim, server_lr, server_momentum),
      dim_(dim),
      seed_(seed),
      batch_stream_(batch_stream) {}

std::vector<ClientUpdate> FedAvgRound::train_clients(const std::vector<double>& theta, double clip,
                                                     const std::vector<std::size_t>& ids,
                                                     std::size_t round) const {
  return clients_.train(to_float_tensor(theta), clip, ids, round, seed_, batch_stream_);
}

FedAvgRelease FedAvgRound::combine(std::size_t round, const std::vector<ClientUpdate>& updates,
                                   double clip, double noise_std, PhiloxStream& noise,
                                   FedAvgObserver& observer) const {
  FedAvgRelease r;
  r.round = round;
  UpdateSum sum(dim_);
  for (const ClientUpdate& u : updates) {
    sum.add(u.update.data());
    r.norms.push_back(u.norm);
  }
  r.train_loss = mean_local_loss(updates);
  r.inserted = observer.insert(round, clip, sum, r.norms);
  r.rho_bar = sum.release(noise_std, noise);
  observer.released(r);
  return r;
}

bool FedAvgRound::step(const FedAvgRelease& release, std::vector<double>& theta) {
  server_.step(release.rho_bar, theta.data());
  for (double v : theta)
    if (!std::isfinite(v)) return false;
  return true;
}

bool FedAvgRound::run(std::size_t round, const std::vector<std::size_t>& ids, double clip,
                      double noise_std, PhiloxStream& noise, FedAvgObserver& observer,
                      std::vector<double>& theta) {
  observer.starting(round, theta);
  clients_.train(to_float_tensor(theta), clip, ids, round, seed_, batch_stream_, updates_);
  return step(combine(round, updates_, clip, noise_std, noise, observer), theta);
}

}  // namespace dpaudit
