// Errors as values that carry their exit status. Library code throws these; the
// tool wrapper (cli/tool.hpp) prints one line, `TOOL: error: WHAT (WHERE)`, and
// exits with the status.
#pragma once
#include <stdexcept>
#include <string>

namespace dpaudit {

// Exit statuses every tool documents.
enum ExitStatus : int {
  kExitOk = 0,
  kExitBadData = 1,         // bad input data or a runtime failure
  kExitUsage = 2,           // bad flags or flag values
  kExitBudgetExceeded = 3,  // --fail-above: the privacy budget was exceeded
};

class Error : public std::runtime_error {
 public:
  Error(const std::string& what, const std::string& where, int exit_status)
      : std::runtime_error(where.empty() ? what : what + " (" + where + ")"),
        exit_status_(exit_status) {}
  int exit_status() const { return exit_status_; }

 private:
  int exit_status_;
};

// Bad data in an input file or stream: exit 1.
struct DataError : Error {
  explicit DataError(const std::string& what, const std::string& where = "")
      : Error(what, where, kExitBadData) {}
};

// A bad flag or flag value: exit 2.
struct UsageError : Error {
  explicit UsageError(const std::string& what, const std::string& where = "")
      : Error(what, where, kExitUsage) {}
};

}  // namespace dpaudit
