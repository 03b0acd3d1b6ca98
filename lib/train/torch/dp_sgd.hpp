// Central DP-SGD (Abadi et al. 2016; Nasr et al. 2021, Eq. 3) on dp-train's flat
// parameter vector:
//   theta <- theta - lr * update,  update = (sum_{i in lot} clip_C(grad_i) + N(0, (z C)^2 I)) / L
// with L the expected lot size (q N for Poisson lots, B for shuffled ones), the
// normalisation the accountant assumes. The D' of Nasr et al. 2021's game is D plus one
// member, index N: a data example, or a gradient the adversary writes directly.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "data/datasets.hpp"
#include "random/philox_stream.hpp"
#include "train/dp_sgd_config.hpp"
#include "train/lot_schedule.hpp"
#include "train/torch/per_example_model.hpp"

namespace dpaudit {

// The extra member of D'. With `x`, an example (x, y); with `craft`, an example (x, y)
// whose input craft(theta_t) returns when the member is drawn into step t's lot (Nasr et
// al. 2021's Crafter 3 re-crafts its poison against the current model: a pure function of
// theta_t, so skipping it on the steps that do not draw it changes nothing); otherwise the
// raw gradient `gradient` (clipped like any member), which counts only once it is
// non-empty: Crafter 4 writes it after watching the first steps.
struct Insertion {
  const float* x = nullptr;
  std::int64_t y = 0;
  std::function<const float*(const float* theta)> craft;
  std::vector<float> gradient;
};

// Called after every step with the released update (parameter_count() floats).
using StepObserver = std::function<void(std::size_t step, const float* update)>;

class DpSgdTrainer {
 public:
  // `config`, `train` and `model` must outlive the trainer; sigma is the noise multiplier
  // z. config.fault runs the trainer with that bug.
  DpSgdTrainer(const DpSgdConfig& config, const Dataset& train, PerExampleModel& model,
               double sigma);

  // config.steps steps from `theta` (updated in place), all randomness from `rng`
  // (lot sampling, then noise, step by step); on D' when `insertion` is given.
  void train(std::vector<float>& theta, PhiloxStream& rng, const Insertion* insertion,
             const StepObserver& observe = {});

 private:
  // Adds the inserted member's clipped gradient at theta to sum_.
  void add_insertion(const std::vector<float>& theta, const Insertion& insertion, double clip);

  const DpSgdConfig& c_;
  const Dataset& train_;
  PerExampleModel& model_;
  double sigma_;
  LotSchedule lots_;
  std::vector<float> x_, sum_;
  std::vector<std::int64_t> y_;
  std::vector<double> noise_;
};

}  // namespace dpaudit
