#include "command.hpp"

namespace dpaudit::dp_train {

std::vector<Command>& commands() {
  static std::vector<Command> all;
  return all;
}

}  // namespace dpaudit::dp_train
