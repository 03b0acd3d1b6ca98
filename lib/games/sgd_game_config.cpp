#include "games/sgd_game_config.hpp"

namespace dpaudit {

bool crafts_input(SgdThreat t) {
  return t == SgdThreat::static_poison || t == SgdThreat::intermediate_poison ||
         t == SgdThreat::adaptive_poison;
}

bool reads_intermediate_losses(SgdThreat t) {
  return t == SgdThreat::intermediate_poison || t == SgdThreat::adaptive_poison;
}

bool reads_final_model(SgdThreat t) {
  return t == SgdThreat::api || t == SgdThreat::static_poison;
}

bool uses_watermark(SgdThreat t) {
  return t == SgdThreat::gradient_canary || t == SgdThreat::malicious_dataset;
}

}  // namespace dpaudit
