// Configuration of `dp-train sgd`: central DP-SGD (Abadi et al. 2016) and Nasr et al.
// 2021's distinguishing game played on it (Sec. III-IV; lib/games/sgd_game_config.hpp),
// with the run's accounting, as parsed from the command line and reported by --json. No
// LibTorch here.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "games/sgd_game_config.hpp"
#include "io/json.hpp"

namespace dpaudit::dp_train {

SgdThreat parse_threat(const std::string& name);      // UsageError naming --threat
SgdFault parse_fault(const std::string& name);        // --fault
SgdEngine parse_engine(const std::string& name);      // --engine
LossReduce parse_reduce(const std::string& name);     // --reduce
CraftSign parse_craft_sign(const std::string& name);  // --craft-sign
std::string to_string(SgdThreat t);
std::string to_string(SgdFault f);

struct SgdConfig : SgdGameConfig {
  double noise_multiplier = 0;  // z; 0 with eps > 0: calibrated
  double eps = 0;
  double delta = 1e-5;
  bool quiet = false;

  // Throws UsageError for an inconsistent configuration (before any work), and for one
  // that makes the audit blind: every score the same, or a --fault that changes nothing
  // the distinguisher sees.
  void validate() const;
  // Throws DataError when the run at noise multiplier `sigma` cannot give finite scores:
  // the trainer's single-precision update or D3's per-step statistic (of order 1/z^2)
  // would overflow. Names the option to change.
  void check_arithmetic(double sigma) const;
  // Throws DataError at the first of n trials' scores (trial, trial + 1, ...: 2n of them,
  // as the game delivers them) of the run at `sigma` that is not finite (eps-from-scores
  // refuses NaN and inf, and so do the estimates of --json): says why and in which trial,
  // with the option to change.
  void check_scores(double sigma, std::size_t trial, const double* scores, std::size_t n) const;
  // The option that sets the lot size: --q (Poisson) or --batch (shuffle); and the one
  // that sets the noise: --eps when z is calibrated, else --noise-multiplier.
  std::string lot_option() const;
  std::string noise_option() const;
  Json to_json() const;
};

}  // namespace dpaudit::dp_train
