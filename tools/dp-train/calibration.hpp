// What dp-train's subcommands share when --eps asks for the noise: the refusal of a target no
// noise multiplier meets names --eps.
#pragma once
#include <functional>

namespace dpaudit::dp_train {

// calibrate(): the noise multiplier for --eps (a run accountant's calibration); its refusal
// of an eps that no multiplier in [1e-4, 1e6] fits names --eps.
double sigma_for_eps(const std::function<double()>& calibrate);

}  // namespace dpaudit::dp_train
