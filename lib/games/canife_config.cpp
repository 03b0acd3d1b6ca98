#include "games/canife_config.hpp"

#include <cmath>

namespace dpaudit {

std::size_t CanifeGameConfig::total_rounds() const {
  return rounds ? rounds : static_cast<std::size_t>(std::ceil(1 / q - 1e-9));
}

std::size_t CanifeGameConfig::planned_audits() const {
  return (total_rounds() + audit_every - 1) / audit_every;
}

}  // namespace dpaudit
