// Nasr et al. 2021's loss-based distinguishers, higher meaning "trained on D'":
//   Distinguisher 1 (Sec. IV-A, final model): minus the final model's loss on the target;
//   Distinguisher 2 (Sec. IV-C, intermediate models): minus the max or mean of its loss
//     over the intermediate models theta_1 .. theta_T.
#pragma once
#include <cstddef>
#include <limits>

namespace dpaudit {

// Distinguisher 1's score of the final model's loss on the target.
double final_loss_score(double loss);

// Distinguisher 2: how the losses over the intermediate models become one number.
enum class LossReduce { max, mean };

// Distinguisher 2, fed the target's loss under each intermediate model in turn.
class IntermediateLossScore {
 public:
  void add(double loss);  // a NaN loss makes the max NaN too (std::max would drop it)
  // -(max or mean) of the losses added.
  double score(LossReduce reduce) const;

 private:
  double total_ = 0, largest_ = -std::numeric_limits<double>::infinity();
  std::size_t count_ = 0;
};

}  // namespace dpaudit
