// The exit statuses every tool documents, and the status of each kind of library error.
#pragma once
#include "core/error.hpp"

namespace dpaudit::cli {

enum ExitStatus : int {
  kExitOk = 0,
  kExitBadData = 1,         // bad input data or a runtime failure
  kExitUsage = 2,           // bad flags or flag values
  kExitBudgetExceeded = 3,  // --fail-above, or another gate's refusal (cli/gate.hpp)
};

// DataError: 1, UsageError: 2.
constexpr int exit_status(ErrorKind kind) {
  return kind == ErrorKind::usage ? kExitUsage : kExitBadData;
}

}  // namespace dpaudit::cli
