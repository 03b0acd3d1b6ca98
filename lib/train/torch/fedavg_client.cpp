#include "train/torch/fedavg_client.hpp"

#include <algorithm>

#include "core/parallel.hpp"
#include "mechanisms/fedavg_server.hpp"
#include "random/philox_stream.hpp"
#include "train/torch/models.hpp"

namespace dpaudit {

torch::Tensor to_float_tensor(const std::vector<double>& v) {
  return torch::from_blob(const_cast<double*>(v.data()), {static_cast<std::int64_t>(v.size())},
                          torch::kDouble)
      .to(torch::kFloat);
}

double mean_local_loss(const std::vector<ClientUpdate>& updates) {
  double loss = 0;
  std::size_t trained = 0;
  for (const ClientUpdate& u : updates) {
    if (!u.has_data) continue;
    loss += u.loss;
    ++trained;
  }
  return trained ? loss / static_cast<double>(trained) : 0.0;
}

ClientTrainer::ClientTrainer(const torch::nn::Sequential& model, const Dataset& train,
                             const ClientIndices& clients, LocalTraining training, int threads)
    : train_(train),
      clients_(clients),
      training_(training),
      threads_(static_cast<int>(resolve_threads(threads))) {
  for (int i = 0; i < threads_; ++i)
    replicas_.push_back(std::dynamic_pointer_cast<torch::nn::SequentialImpl>(model->clone()));
}

std::vector<ClientUpdate> ClientTrainer::train(const torch::Tensor& global, double clip,
                                               const std::vector<std::size_t>& ids,
                                               std::size_t round, std::uint64_t seed,
                                               std::uint64_t stream) {
  std::vector<ClientUpdate> out;
  train(global, clip, ids, round, seed, stream, out);
  return out;
}

void ClientTrainer::train(const torch::Tensor& global, double clip,
                          const std::vector<std::size_t>& ids, std::size_t round,
                          std::uint64_t seed, std::uint64_t stream,
                          std::vector<ClientUpdate>& out) {
  out.resize(ids.size());
  parallel_blocks(ids.size(), threads_,
                  [&](std::size_t begin, std::size_t end, std::size_t thread) {
                    for (std::size_t k = begin; k < end; ++k)
                      train_one(replicas_[thread], global, clip, ids[k], seed,
                                stream + round * clients_.size() + ids[k], out[k]);
                  });
}

void ClientTrainer::train_one(torch::nn::Sequential& replica, const torch::Tensor& global,
                              double clip, std::size_t client, std::uint64_t batch_seed,
                              std::uint64_t batch_stream, ClientUpdate& result) const {
  result.update.assign(static_cast<std::size_t>(global.numel()), 0.0);  // its buffer kept
  result.norm = result.loss = 0;
  result.has_data = false;
  std::vector<std::size_t> order = clients_[client];
  if (order.empty()) return;
  result.has_data = true;
  assign_parameters(*replica, global);
  PhiloxStream rng(batch_seed, batch_stream);
  double loss_sum = 0;
  std::size_t batches = 0;
  for (std::size_t epoch = 0; epoch < training_.epochs; ++epoch) {
    shuffle(order, rng);  // a fresh minibatch order per epoch
    for (std::size_t begin = 0; begin < order.size(); begin += training_.batch) {
      const std::size_t count = std::min(training_.batch, order.size() - begin);
      const Batch batch = gather_batch(train_, order.data() + begin, count);
      replica->zero_grad();
      torch::Tensor loss = cross_entropy_loss(replica, batch);
      loss.backward();
      {
        torch::NoGradGuard no_grad;
        for (auto& p : replica->parameters()) p.sub_(p.grad(), training_.learning_rate);
      }
      loss_sum += loss.item<double>();
      ++batches;
    }
  }
  result.loss = loss_sum / static_cast<double>(batches);
  parameter_delta(*replica, global, result.update.data());
  result.norm = clip_to_norm(result.update.data(), result.update.size(), clip);
}

}  // namespace dpaudit
