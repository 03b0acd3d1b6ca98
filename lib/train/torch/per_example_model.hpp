// The per-example half of a DP-SGD step for any dp-train model, on dp-train's flat
// parameter vector (models.hpp's order): the sum of the lot's gradients, each clipped
// to norm C, and the losses and predictions the distinguishers and accuracy need.
// logreg and mlp run on DensePerExample (all of a lot's per-example gradients in one
// pass); cnn has convolutions, whose per-example gradients are not outer products, and
// runs one LibTorch backward per example (correct, much slower). No LibTorch headers.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace dpaudit {

struct ModelConfig;
struct Dataset;

class PerExampleModel {
 public:
  // The model of `config`, and its initial parameters (LibTorch's initialisation from
  // `seed`, as every dp-train subcommand draws them) in `theta0`.
  static std::unique_ptr<PerExampleModel> make(const ModelConfig& config, std::uint64_t seed,
                                               std::vector<float>& theta0);
  // The LibTorch path for any model, one backward per example: the reference the fast
  // path is tested against.
  static std::unique_ptr<PerExampleModel> make_reference(const ModelConfig& config,
                                                         std::uint64_t seed);
  virtual ~PerExampleModel() = default;
  // An independent copy for another thread (models keep scratch space).
  virtual std::unique_ptr<PerExampleModel> clone() const = 0;

  virtual std::size_t parameter_count() const = 0;
  // sum += sum_i clip_C(grad_i) over `count` examples (x row by row, labels y); clip =
  // +inf adds the unclipped gradients.
  virtual void add_clipped_sum(const float* theta, const float* x, const std::int64_t* y,
                               std::size_t count, double clip, float* sum) = 0;
  // Per-example cross-entropy losses into `loss`; returns how many are predicted right.
  virtual std::size_t losses(const float* theta, const float* x, const std::int64_t* y,
                             std::size_t count, double* loss) = 0;
  virtual void predict(const float* theta, const float* x, std::size_t count,
                       std::int64_t* labels) = 0;
};

// The fraction of `test` that `model` at theta predicts right, in batches of 1,000.
double test_accuracy(PerExampleModel& model, const std::vector<float>& theta, const Dataset& test);

}  // namespace dpaudit
