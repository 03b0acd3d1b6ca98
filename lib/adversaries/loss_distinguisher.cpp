#include "adversaries/loss_distinguisher.hpp"

#include <cmath>

namespace dpaudit {

double final_loss_score(double loss) {
  return -loss;
}

void IntermediateLossScore::add(double loss) {
  total_ += loss;
  ++count_;
  if (std::isnan(loss) || loss > largest_) largest_ = loss;
}

double IntermediateLossScore::score(LossReduce reduce) const {
  return -(reduce == LossReduce::max ? largest_ : total_ / static_cast<double>(count_));
}

}  // namespace dpaudit
