// Local training of DP-FedAvg's clients (Andrew et al. 2024 Alg. 2 line 5: tau_i(theta_{t-1})):
// local SGD from the global model, update = local model - global model, clipped to S.
// Clients of a round train in parallel, each on its own model replica; every client's
// computation is independent of the thread that runs it, so results do not depend on
// --threads.
#pragma once
#include <cstdint>
#include <vector>

#include <torch/nn/modules/container/sequential.h>

#include "data/datasets.hpp"

namespace dpaudit {

struct LocalTraining {
  std::size_t epochs = 1;
  std::size_t batch = 16;
  double learning_rate = 0.05;
};

struct ClientUpdate {
  std::vector<double> update;  // clipped local - global, D values
  double norm = 0;             // ||local - global|| before clipping
  double loss = 0;             // mean minibatch loss during local training
  bool has_data = false;       // false: an empty client (label skew), update 0
};

// The server's double parameters as the float tensor ClientTrainer::train takes.
torch::Tensor to_float_tensor(const std::vector<double>& v);

// A round's train loss: the mean local loss of the clients that have data (0 when none has).
double mean_local_loss(const std::vector<ClientUpdate>& updates);

class ClientTrainer {
 public:
  ClientTrainer(const torch::nn::Sequential& model, const Dataset& train,
                const ClientIndices& clients, LocalTraining training, int threads);
  // Updates of clients ids (in that order) from the global parameters `global`, clipped
  // to `clip`; the minibatch order of client i in round t comes from PhiloxStream(seed, stream + t
  // * clients + i).
  std::vector<ClientUpdate> train(const torch::Tensor& global, double clip,
                                  const std::vector<std::size_t>& ids, std::size_t round,
                                  std::uint64_t seed, std::uint64_t stream);
  // The same into `out`, resized to ids.size(), whose updates' buffers are reused: a caller
  // that trains round after round into one vector allocates no update after the first.
  void train(const torch::Tensor& global, double clip, const std::vector<std::size_t>& ids,
             std::size_t round, std::uint64_t seed, std::uint64_t stream,
             std::vector<ClientUpdate>& out);

 private:
  void train_one(torch::nn::Sequential& replica, const torch::Tensor& global, double clip,
                 std::size_t client, std::uint64_t batch_seed, std::uint64_t batch_stream,
                 ClientUpdate& result) const;

  const Dataset& train_;
  const ClientIndices& clients_;
  LocalTraining training_;
  int threads_;
  std::vector<torch::nn::Sequential> replicas_;  // one per thread
};

}  // namespace dpaudit
