// Central DP-SGD (Abadi et al. 2016; 004 Eq. 3) on dp-train's flat parameter vector:
//   theta <- theta - lr * update,  update = (sum_{i in lot} clip_C(grad_i) + N(0, (z C)^2 I)) / L
// with L the expected lot size (q N for Poisson lots, B for shuffled ones), the
// normalisation the accountant assumes. The D' of 004's game is D plus one member,
// index N: a data example, or a gradient the adversary writes directly.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "data/datasets.hpp"
#include "random/philox_stream.hpp"
#include "sgd/config.hpp"
#include "sgd/per_example_model.hpp"

namespace dpaudit::dp_train {

// The extra member of D'. With `x`, an example (x, y); with `craft`, an example (x, y)
// whose input craft(theta_t) returns when the member is drawn into step t's lot (004
// Crafter 3 re-crafts its poison against the current model: a pure function of theta_t,
// so skipping it on the steps that do not draw it changes nothing); otherwise the raw
// gradient `gradient` (clipped like any member), which counts only once it is
// non-empty: C4 writes it after watching the first steps.
struct Insertion {
  const float* x = nullptr;
  std::int64_t y = 0;
  std::function<const float*(const float* theta)> craft;
  std::vector<float> gradient;
};

// A Poisson lot: each of `members` indices independently with probability q, drawn by
// geometric skips (the gap before the next member is floor(log U / log(1 - q))), so a
// lot costs one uniform per member drawn rather than one per candidate.
void draw_poisson_lot(std::size_t members, double q, PhiloxStream& rng,
                      std::vector<std::size_t>& lot);

// Called after every step with the released update (parameter_count() floats).
using StepObserver = std::function<void(std::size_t step, const float* update)>;

class DpSgdTrainer {
 public:
  // `train` and `model` must outlive the trainer; sigma is the noise multiplier z.
  DpSgdTrainer(const SgdConfig& config, const Dataset& train, PerExampleModel& model, double sigma);

  // config.steps steps from `theta` (updated in place), all randomness from `rng`
  // (lot sampling, then noise, step by step); on D' when `insertion` is given.
  void train(std::vector<float>& theta, PhiloxStream& rng, const Insertion* insertion,
             const StepObserver& observe = {});

 private:
  // The members of the next lot, indices into D (N = the inserted member).
  void next_lot(std::size_t step, std::size_t members, PhiloxStream& rng);

  const SgdConfig& c_;
  const Dataset& train_;
  PerExampleModel& model_;
  double sigma_;
  bool shuffled_;  // shuffled fixed-size lots (--sampling shuffle, or the fault)
  std::size_t epoch_steps_;
  std::vector<std::size_t> order_, lot_;
  std::vector<float> x_, sum_;
  std::vector<std::int64_t> y_;
  std::vector<double> noise_;
};

}  // namespace dpaudit::dp_train
