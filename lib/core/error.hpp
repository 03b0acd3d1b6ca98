// Errors as values that carry their kind: bad data, or a bad parameter. Library code throws
// these; a tool maps the kind to its exit status (cli/exit_status.hpp) and prints one line,
// `TOOL: error: WHAT (WHERE)`.
#pragma once
#include <stdexcept>
#include <string>

namespace dpaudit {

enum class ErrorKind {
  bad_data,  // bad input data or a runtime failure
  usage,     // a bad parameter, or parameters that do not go together
};

class Error : public std::runtime_error {
 public:
  Error(const std::string& what, const std::string& where, ErrorKind kind)
      : std::runtime_error(where.empty() ? what : what + " (" + where + ")"), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

// Bad data in an input file or stream.
struct DataError : Error {
  explicit DataError(const std::string& what, const std::string& where = "")
      : Error(what, where, ErrorKind::bad_data) {}
};

// A bad parameter value or combination.
struct UsageError : Error {
  explicit UsageError(const std::string& what, const std::string& where = "")
      : Error(what, where, ErrorKind::usage) {}
};

}  // namespace dpaudit
