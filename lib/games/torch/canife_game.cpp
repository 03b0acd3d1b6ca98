#include "games/torch/canife_game.hpp"

namespace dpaudit {

CanifeRun play_canife(const CanifeGameConfig& c, const TrainTest& data, double sigma,
                      const std::function<void(std::size_t)>& progress, RankGroup* ranks) {
  CanifeRun run = c.level == CanifeLevel::sample ? run_sample_level(c, data, sigma, progress)
                                                 : run_user_level(c, data, sigma, progress, ranks);
  estimate_audit_epsilons(run.audits);
  return run;
}

}  // namespace dpaudit
